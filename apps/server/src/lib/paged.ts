import type { Paged } from '@guji/shared';

/** Paged list shape of spec §3 (pageNum, pageSize, total, pages, records), declared in packages/shared. */
export type { Paged };

/** A page of records with the page count derived from the total (counts may come back as strings). */
export const pagedOf = <T>(
  pageNum: number,
  pageSize: number,
  total: number | string | bigint,
  records: T[],
): Paged<T> => ({
  pageNum,
  pageSize,
  total: Number(total),
  pages: Math.ceil(Number(total) / pageSize),
  records,
});

/**
 * Page `pageNum` (from 1) of `pageSize` records: asks `fetch` for the rows at that offset and the count of
 * all, and shapes the rows into records.
 */
export async function pageOf<R, T>(
  pageNum: number,
  pageSize: number,
  fetch: (offset: number, limit: number) => Promise<{ rows: R[]; total: number | string | bigint }>,
  shape: (rows: R[]) => T[] | Promise<T[]>,
): Promise<Paged<T>> {
  const { rows, total } = await fetch((pageNum - 1) * pageSize, pageSize);
  return pagedOf(pageNum, pageSize, total, await shape(rows));
}
