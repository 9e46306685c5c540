/**
 * The typed job registry (STYLE.md, immich `types.ts`): each job name with the shape of its data.
 * Later features add their jobs here (tiling, OCR, indexing).
 */
export interface JobDataMap {
  /** Deletes expired sessions, captchas and SMS codes. */
  'maintenance.purge': Record<string, never>;
  /** Makes the tiled pyramidal TIFF of a page from its master; replaces an older one. */
  'images.pyramid': { pageId: number };
  /** Removes a pyramid that a rebuilt one replaced, once no page uses it (queued to run a minute later). */
  'images.retire': { key: string };
  /** Recognises a page's text with the OCR engine and saves it as a new OCR version. */
  'ocr.page': { pageId: number };
}

export type JobName = keyof JobDataMap;

/** Retry policy, defined once: exponential backoff from 5 s, capped at 10 minutes. */
export const RETRY = {
  defaultMaxAttempts: 5,
  baseDelayMs: 5_000,
  maxDelayMs: 600_000,
} as const;

/** Delay before retry number `attempt` (1 = the first retry). */
export function backoffDelayMs(
  attempt: number,
  base: number = RETRY.baseDelayMs,
  max: number = RETRY.maxDelayMs,
): number {
  return Math.min(max, base * 2 ** Math.max(0, attempt - 1));
}
