import { z } from 'zod';
import { OcrPoints } from './ocr.ts';
import { paged } from './common.ts';
import { parseSearchQuery } from '../search-query.ts';

/** The text of a full-text or in-book search: what the reader typed. */
const SearchText = z
  .string({ error: '请输入检索内容' })
  .trim()
  .min(1, '请输入检索内容')
  .max(50, '检索内容不能超过 50 个字');

/** Orders of full-text results: by occurrences (most first), in book order, by title. */
export const FULL_TEXT_SORTS = ['relevance', 'order', 'title'] as const;
export type FullTextSort = (typeof FULL_TEXT_SORTS)[number];
export const FULL_TEXT_SORT_LABELS: Record<FullTextSort, string> = {
  relevance: '相关度',
  order: '书序',
  title: '书名',
};

/** A full-text query: the text in the query syntax (search-query.ts), refused with its message when malformed. */
const QueryText = SearchText.superRefine((text, ctx) => {
  const parsed = parseSearchQuery(text);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
});

/** A filter value: one of the values a facet lists (trimmed; empty is no filter). */
const FilterValue = (max: number) => z.string().trim().max(max).optional();

/** What full-text search looks for and among which books (both the page list and the book list). */
const FullTextFilters = {
  text: QueryText,
  /** '1': the characters exactly as typed, no simplified/traditional or variant folding (精确字形). */
  exact: z.enum(['0', '1']).default('0'),
  sort: z.enum(FULL_TEXT_SORTS).default('order'),
  /** Only this book's pages. */
  catalogId: z.coerce.number().int().positive().optional(),
  /** A classification code (dictionaryValue): books filed under it or under one of its sub-classes. */
  classCode: FilterValue(100),
  /** The dynasty as recorded (publishDynasty), whole. */
  dynasty: FilterValue(100),
  /** The edition as recorded (coverageDynasty, 版本), whole. */
  edition: FilterValue(200),
};

/**
 * Full-text search, one row a page (spec §7: pageNum, pageSize 8, text), with the query syntax, the
 * exact switch, filters and an order. Without them (one term, book order) it runs as it always did.
 */
export const FullTextQuery = z.object({
  ...FullTextFilters,
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(8),
});
export type FullTextQuery = z.infer<typeof FullTextQuery>;

/** Full-text search grouped by book: a page of books, each with its counts and first pages. */
export const FullTextBooksQuery = z.object({
  ...FullTextFilters,
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(8),
  /** How many of each book's pages come with it (the rest: the page list with catalogId). */
  hitsPerBook: z.coerce.number().int().min(0).max(10).default(3),
});
export type FullTextBooksQuery = z.infer<typeof FullTextBooksQuery>;

/** In-book search: one phrase, as typed (spec: text search within a book). */
export const InBookQuery = z.object({
  text: SearchText,
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(8),
});
export type InBookQuery = z.infer<typeof InBookQuery>;

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

/** Exact counts of what a full-text search found (after its filters). */
export const FullTextSummary = z.object({
  pages: z.number().int(),
  /** Matches of the terms looked for on those pages (search-query.ts: what counts for NEAR). */
  occurrences: z.number().int(),
  books: z.number().int(),
});
export type FullTextSummary = z.infer<typeof FullTextSummary>;

/** One value of a facet, with what the search finds under it. */
export const FacetValue = z.object({
  /** The value to filter by (catalogId as text, classification code, dynasty, edition). */
  value: z.string(),
  /** What to show (the book's title, the classification's name, the value itself). */
  label: z.string(),
  books: z.number().int(),
  pages: z.number().int(),
  occurrences: z.number().int(),
});
export type FacetValue = z.infer<typeof FacetValue>;

/**
 * The facets of a search: each filter's values among the pages found, counted with the other filters
 * applied but not its own (so another value of the same filter can be chosen). Most pages first.
 */
export const FullTextFacets = z.object({
  catalog: z.array(FacetValue),
  classification: z.array(FacetValue),
  dynasty: z.array(FacetValue),
  edition: z.array(FacetValue),
});
export type FullTextFacets = z.infer<typeof FullTextFacets>;

/** A book with pages found: its counts and its first pages (in the search's order). */
export const BookGroup = z.object({
  catalogId: z.number().int(),
  catalogName: z.string(),
  author: z.string().nullable(),
  publishDynasty: z.string().nullable(),
  coverageDynasty: z.string().nullable(),
  classCode: z.string().nullable(),
  classificationName: z.string().nullable(),
  pages: z.number().int(),
  occurrences: z.number().int(),
  hits: z.array(TextHit),
});
export type BookGroup = z.infer<typeof BookGroup>;

/** A page of books found (total: books), with the counts and facets of the whole search. */
export const FullTextBookPage = paged(BookGroup).extend({
  summary: FullTextSummary,
  facets: FullTextFacets,
});
export type FullTextBookPage = z.infer<typeof FullTextBookPage>;
