import { AppError } from '../../errors.ts';

/**
 * The IIIF answers for what does not exist — and, to whoever may not read it, for a book the catalogue
 * does not show (issue 30 item 6): the same status and message either way.
 */
export const imageNotFound = (id: string) => new AppError(404, 'NOT_FOUND', `图像不存在：${id.slice(0, 80)}`);
export const volumeNotFound = (id: number) => new AppError(404, 'NOT_FOUND', `卷册不存在：${id}`);
export const bookNotFound = (id: number) => new AppError(404, 'NOT_FOUND', `古籍不存在：${id}`);

/** An image identifier as a page id; anything else names no image (404, never 400). */
export function imageIdOf(text: string): number {
  const id = /^[1-9]\d{0,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id)) throw imageNotFound(text);
  return id;
}
