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
