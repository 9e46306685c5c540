import { z } from 'zod';

/** Body of every error response: a stable machine code and a Chinese message for the user. */
export const ErrorBody = z.object({
  code: z.string().describe('Stable machine-readable error code, e.g. CAPTCHA_INVALID'),
  message: z.string().describe('Message for the user, in Chinese'),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const OkBody = z.object({ ok: z.literal(true), message: z.string().optional() });
export type OkBody = z.infer<typeof OkBody>;

/** Paged list shape of spec §3: pageNum, pageSize, total, pages, records. */
/** A page of records (spec §3): the shape `paged(record)` validates, declared once for both sides. */
export interface Paged<T> {
  pageNum: number;
  pageSize: number;
  total: number;
  pages: number;
  records: T[];
}

export function paged<T extends z.ZodType>(record: T) {
  return z.object({
    pageNum: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    pages: z.number().int(),
    records: z.array(record),
  });
}

export const PageQuery = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});

/** A positive whole-number id in a path or query (sent as text, read as a number). */
export const Id = z.coerce.number().int().positive();
/** A route's `:id`. */
export const IdParams = z.object({ id: Id });
/** A page number of a fixed-size list (the size is the list's own). */
export const PageNum = z.object({ pageNum: z.coerce.number().int().min(1).default(1) });
