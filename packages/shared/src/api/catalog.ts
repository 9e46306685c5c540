import { z } from 'zod';
import { MSG } from '../messages.ts';
import { hasHtmlTag, isSafeName, isSafeText } from '../validation.ts';
import { Id, PageQuery, paged } from './common.ts';

/** A node of the classification dictionary (spec §3: dictionaryId, dictionaryName, dictionaryValue). */
export interface Classification {
  dictionaryId: number;
  dictionaryName: string;
  /** The code books carry in `classCode`, e.g. `JING` for 經部, `JING.LUNYU` for a child. */
  dictionaryValue: string;
  children: Classification[];
}
export const Classification: z.ZodType<Classification> = z
  .lazy(() =>
    z.object({
      dictionaryId: z.number().int(),
      dictionaryName: z.string(),
      dictionaryValue: z.string(),
      children: z.array(Classification),
    }),
  )
  .meta({ id: 'Classification' });

/** Why a book cannot be read, mirroring DESIGN.md §7. */
export const ACCESS_REASONS = ['ok', 'login', 'noData', 'readingRoom'] as const;
export type AccessReason = (typeof ACCESS_REASONS)[number];

export const Access = z.object({
  canRead: z.boolean(),
  reason: z.enum(ACCESS_REASONS),
  message: z.string().describe('Empty when readable; otherwise the exact notice of DESIGN.md §7'),
});
export type Access = z.infer<typeof Access>;

/** A book in lists: hot list, search results (spec §3 Catalog). */
export const BookSummary = z.object({
  catalogId: z.number().int(),
  title: z.string(),
  author: z.string().nullable(),
  publishDynasty: z.string().nullable(),
  coverageDynasty: z.string().nullable().describe('Edition (版本)'),
  callNumber: z.string().nullable(),
  classCode: z.string().nullable(),
  coverUrl: z.string().nullable().describe('IIIF thumbnail of the first page'),
  /** The spec's isRecommend = 1: open for online reading outside the reading room. */
  isOpen: z.boolean(),
  viewCount: z.number().int(),
});
export type BookSummary = z.infer<typeof BookSummary>;

export const BookPage = paged(BookSummary);
export type BookPage = z.infer<typeof BookPage>;

export const BookDetail = BookSummary.extend({
  /** The spec's isHide = 1: visible to the public. */
  isVisible: z.boolean(),
  actualVolume: z.number().int().nullable().describe('Volumes (卷數) the work has'),
  bookNumber: z.number().int().nullable().describe('Physical books (冊數) held'),
  volumeCount: z.number().int().describe('Digitised volumes here'),
  editionType: z.string().nullable(),
  notes: z.string().nullable().describe('附注: notes of the catalogue record (MARC21 500, CNMARC 300)'),
  iiifManifestUrl: z.string().nullable().describe('IIIF Collection (several volumes) or Manifest (one)'),
  access: Access,
  canEdit: z.boolean().describe('Whether the current user may change this book'),
});
export type BookDetail = z.infer<typeof BookDetail>;

export const Volume = z.object({
  fascicleId: z.number().int(),
  catalogId: z.number().int(),
  name: z.string(),
  introduction: z.string().nullable(),
  imageCount: z.number().int(),
  manifestUrl: z.string(),
});
export type Volume = z.infer<typeof Volume>;

export interface DirectoryNode {
  directoryId: number;
  name: string;
  /** The page this entry opens; null for a heading without its own page. */
  imageId: number | null;
  /** 1-based position of that page in its volume. */
  pageNumber: number | null;
  children: DirectoryNode[];
}
export const DirectoryNode: z.ZodType<DirectoryNode> = z
  .lazy(() =>
    z.object({
      directoryId: z.number().int(),
      name: z.string(),
      imageId: z.number().int().nullable(),
      pageNumber: z.number().int().nullable(),
      children: z.array(DirectoryNode),
    }),
  )
  .meta({ id: 'DirectoryNode' });

export const PageImage = z.object({
  imageId: z.number().int(),
  pageNumber: z.number().int().describe('1-based position in the volume'),
  name: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  iiifBase: z.string().describe('IIIF Image API base URI; append /info.json'),
  thumbnailUrl: z.string(),
});
export type PageImage = z.infer<typeof PageImage>;

/** Everything the reader needs for one volume, returned only when the book may be read. */
export const ReaderData = z.object({
  book: z.object({
    catalogId: z.number().int(),
    title: z.string(),
    callNumber: z.string().nullable(),
    /** For the page's citation (复制引用): author, period of the work and edition as recorded. */
    author: z.string().nullable(),
    publishDynasty: z.string().nullable(),
    coverageDynasty: z.string().nullable(),
  }),
  volumes: z.array(Volume),
  volume: Volume,
  directory: z.array(DirectoryNode),
  pages: z.array(PageImage),
});
export type ReaderData = z.infer<typeof ReaderData>;

export const BookSearchQuery = z.object({
  title: z.string().trim().max(100).optional(),
  classCode: z.string().trim().max(60).optional(),
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(6),
});
export type BookSearchQuery = z.infer<typeof BookSearchQuery>;

/** The home page's most-read list: a page of up to 48 (8 by default). */
export const HotBooksQuery = PageQuery.extend({
  pageSize: z.coerce.number().int().min(1).max(48).default(8),
});
export type HotBooksQuery = z.infer<typeof HotBooksQuery>;

/** A route's `:catalogId` (a book). */
export const CatalogIdParams = z.object({ catalogId: Id });
export type CatalogIdParams = z.infer<typeof CatalogIdParams>;

/** A route's `:fascicleId` (a volume). */
export const FascicleIdParams = z.object({ fascicleId: Id });
export type FascicleIdParams = z.infer<typeof FascicleIdParams>;

/** A route's `:imageId` (a page). */
export const ImageIdParams = z.object({ imageId: Id });
export type ImageIdParams = z.infer<typeof ImageIdParams>;

/** The volume the reader opens: a book, and one of its volumes (the first readable one when left out). */
export const ReaderQuery = z.object({ catalogId: Id, fascicleId: Id.optional() });
export type ReaderQuery = z.infer<typeof ReaderQuery>;

/** An optional catalogue field: no control, bidi-override or invisible characters, no `<` `>`. */
const safeField = (max: number) =>
  z.string().trim().max(max).refine(isSafeName, MSG.nameUnsafeChars).nullable().optional();

/** 附注 as staff enter it: up to 4000 characters, line breaks kept, no markup. */
export const BookNotes = z
  .string()
  .trim()
  .max(4000, '附注最多 4000 字')
  .refine((s) => !hasHtmlTag(s), MSG.noHtml)
  .refine(isSafeText, MSG.textUnsafeChars)
  .nullable()
  .optional();

/** What the console calls each catalogue field (the 著录 form, the audit log's changes). */
export const BOOK_FIELD_LABELS: Record<string, string> = {
  title: '书名',
  author: '著者',
  publishDynasty: '朝代',
  editionType: '版本类型',
  coverageDynasty: '版本',
  callNumber: '索书号',
  classCode: '分类',
  actualVolume: '卷数',
  bookNumber: '册数',
  notes: '附注',
  isVisible: '公开显示',
  isOpen: '在线阅览',
};

export const UpdateBookRequest = z.object({
  title: z.string().trim().min(1, '请输入书名').max(200).refine(isSafeName, MSG.nameUnsafeChars).optional(),
  author: safeField(200),
  publishDynasty: safeField(100),
  coverageDynasty: safeField(200),
  callNumber: safeField(100),
  classCode: z.string().trim().max(60).nullable().optional(),
  editionType: safeField(100),
  notes: BookNotes,
  actualVolume: z.number().int().min(0).max(100000).nullable().optional(),
  bookNumber: z.number().int().min(0).max(100000).nullable().optional(),
  isVisible: z.boolean().optional(),
  isOpen: z.boolean().optional(),
});
export type UpdateBookRequest = z.infer<typeof UpdateBookRequest>;

/** Zoom levels of the reader in percent (spec §9): 10–100 step 10, then 120–200 step 20. */
export const ZOOM_LEVELS: readonly number[] = [
  ...Array.from({ length: 10 }, (_, i) => (i + 1) * 10),
  ...Array.from({ length: 5 }, (_, i) => 120 + i * 20),
];

/** The largest zoom level (percent) at which a page of this size fits the viewport. */
export function fittingZoom(
  page: { width: number; height: number },
  viewport: { width: number; height: number },
): number {
  const fit = Math.min(viewport.width / page.width, viewport.height / page.height) * 100;
  const levels = ZOOM_LEVELS.filter((level) => level <= fit);
  return levels.length ? levels[levels.length - 1]! : ZOOM_LEVELS[0]!;
}

/** The reader's page box: digits only, clamped to 1..total; empty or 0 gives 1 (spec §5). */
export function clampPageNumber(input: string, total: number): number {
  const digits = input.replace(/\D/g, '');
  const value = digits === '' ? 0 : Number(digits);
  if (value < 1) return 1;
  return Math.min(value, Math.max(1, total));
}

/** Page sizes of spec §9. */
export const PAGE_SIZES = {
  hot: 8,
  search: 6,
  advanced: 8,
  personal: 10,
  ownPrints: 6,
  adminPrint: 8,
} as const;

/** Fields of the advanced book search (spec §2 book mode): title, author, call number, edition. */
export const ADVANCED_FIELDS = ['title', 'author', 'callNumber', 'edition'] as const;
export type AdvancedField = (typeof ADVANCED_FIELDS)[number];
export const ADVANCED_FIELD_LABELS: Record<AdvancedField, string> = {
  title: '题名',
  author: '责任者',
  callNumber: '索书号',
  edition: '版本',
};

/** One row: field, text, and how it joins the rows before it (spec: type 0 AND, 1 OR; ignored on the first). */
export const AdvancedRow = z.object({
  key: z.enum(ADVANCED_FIELDS),
  value: z.string().trim().max(100, '检索内容不能超过 100 个字'),
  type: z.union([z.literal(0), z.literal(1)]).default(0),
});
export type AdvancedRow = z.infer<typeof AdvancedRow>;

/** Advanced book search (spec §7: pageNum, pageSize 8, matchType 0 exact or 1 fuzzy, rows). */
export const AdvancedSearchRequest = z.object({
  rows: z
    .array(AdvancedRow)
    .min(1)
    .max(10, MSG.advancedRowsTooMany)
    .refine((rows) => rows.some((row) => row.value !== ''), '请输入检索内容'),
  matchType: z.union([z.literal(0), z.literal(1)]).default(1),
  pageNum: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(50).default(8),
});
export type AdvancedSearchRequest = z.infer<typeof AdvancedSearchRequest>;

/**
 * What a citation export cites (issue 18): the book, or one of its volumes (`fascicleId`), or one page
 * (`imageId`, whose volume it names). With both, the page must be in that volume.
 */
export const CitationQuery = z.object({ fascicleId: Id.optional(), imageId: Id.optional() });
export type CitationQuery = z.infer<typeof CitationQuery>;

/**
 * A page's leaf for a citation: its recorded name (第三葉, 三a), unless the name is only a number (a scan's
 * file name, 0003), which names no leaf.
 */
export function leafOf(pageName: string): string | null {
  const leaf = pageName.trim();
  return leaf === '' || /^\d+$/.test(leaf) ? null : leaf;
}

/** A CSL-JSON name: a person or body given as one literal (Chinese names are not split). */
const CslName = z.object({ literal: z.string() });
/** A CSL-JSON date: ISO parts (the access date), or a literal such as a dynasty (春秋). */
const CslDate = z.union([
  z.object({ 'date-parts': z.array(z.array(z.number().int())) }),
  z.object({ literal: z.string() }),
]);

/** One CSL-JSON item (Citation Style Language 1.0.2 schema), as reference managers import it. */
export const CslItem = z.object({
  id: z.string().describe('Stable key, e.g. guji-7 or guji-7-v12-p3 for a page'),
  type: z.literal('book'),
  title: z.string(),
  author: z.array(CslName).optional(),
  issued: CslDate.optional().describe('The period of the work (朝代) as recorded'),
  edition: z.string().optional().describe('Edition (版本)'),
  genre: z.string().optional().describe('Edition type'),
  'call-number': z.string().optional(),
  archive: z.string().describe('The library (site name)'),
  language: z.string(),
  URL: z.string().describe('Permalink: the book page, or the reader at the cited volume or page'),
  accessed: CslDate,
  volume: z.string().optional().describe('The cited volume’s name (分册)'),
  page: z.string().optional().describe('The cited page: its number in the volume'),
  note: z.string().optional().describe('Leaf (叶) and call number in words'),
});
export type CslItem = z.infer<typeof CslItem>;
