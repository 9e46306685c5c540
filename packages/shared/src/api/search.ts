import { z } from 'zod';
import { OcrPoints } from './ocr.ts';
import { paged } from './common.ts';

/** The text of a full-text or in-book search: what the reader typed. */
const SearchText = z
  .string({ error: '请输入检索内容' })
  .trim()
  .min(1, '请输入检索内容')
  .max(50, '检索内容不能超过 50 个字');

/** Full-text search (spec §7: pageNum, pageSize 8, text). */
export const FullTextQuery = z.object({
  text: SearchText,
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(8),
});
export type FullTextQuery = z.infer<typeof FullTextQuery>;

/** A snippet of a page's text around a match (spec §9 rule); positions in code points. */
export const Snippet = z.object({
  text: z.string(),
  highlightStart: z.number().int().describe('Code-point offset of the match in text; -1 when none'),
  highlightLength: z.number().int(),
  /** Every occurrence inside the snippet, in code points of `text` (the first is highlightStart). */
  highlights: z.array(z.object({ start: z.number().int(), length: z.number().int() })),
});
export type Snippet = z.infer<typeof Snippet>;

/** A page whose text matches (spec §3 full-text hit and OCR hit, together). */
export const TextHit = z.object({
  catalogId: z.number().int(),
  catalogName: z.string(),
  fascicleId: z.number().int(),
  fascicleName: z.string(),
  directoryId: z.number().int().nullable().describe('The directory entry the page lies under'),
  directoryName: z.string().nullable(),
  imageId: z.number().int(),
  pageNumber: z.number().int().describe('1-based position of the page in its volume'),
  /** How many times the text occurs on this page. */
  occurrences: z.number().int(),
  snippet: Snippet,
});
export type TextHit = z.infer<typeof TextHit>;

export const TextHitPage = paged(TextHit);
export type TextHitPage = z.infer<typeof TextHitPage>;

/** Where a text occurs on one page: the boxes of the matched characters (spec: text search within an image). */
export const PageMatches = z.object({
  imageId: z.number().int(),
  /** One entry per occurrence; each the boxes of its characters, in image pixels. */
  matches: z.array(z.array(OcrPoints)),
});
export type PageMatches = z.infer<typeof PageMatches>;

export const PageMatchQuery = z.object({ text: SearchText });
export type PageMatchQuery = z.infer<typeof PageMatchQuery>;
