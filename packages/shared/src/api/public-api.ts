import { z } from 'zod';
import { Id } from './common.ts';
import { OcrPoints } from './ocr.ts';
import { FULL_TEXT_SORTS, FullTextBooksQuery } from './search.ts';

/**
 * The public read API for researchers, version 1 (`/api/v1/...`, docs/public-api.md); the tokens that
 * sign its requests are in api-tokens.ts. These shapes are a promise: within v1 fields are only ever added,
 * never renamed, removed or given another meaning.
 */

// ---- v1 requests ----

const pageNumber = z.coerce
  .number({ error: '页码必须是正整数' })
  .int('页码必须是正整数')
  .min(1, '页码必须是正整数')
  .default(1);
const pageSizeOf = (max: number, fallback: number) =>
  z.coerce
    .number({ error: `每页条数必须是 1 到 ${max} 的整数` })
    .int(`每页条数必须是 1 到 ${max} 的整数`)
    .min(1, `每页条数必须是 1 到 ${max} 的整数`)
    .max(max, `每页条数必须是 1 到 ${max} 的整数`)
    .default(fallback);

/** Book search: words of the title, a classification code (its sub-classes included), a page. */
export const V1BooksQuery = z.object({
  q: z.string().trim().max(100, '检索词不能超过 100 个字').optional(),
  class: z.string().trim().max(100, '分类代码不能超过 100 个字').optional(),
  page: pageNumber,
  pageSize: pageSizeOf(100, 20),
});
export type V1BooksQuery = z.infer<typeof V1BooksQuery>;

export const V1BookParams = z.object({ bookId: Id });
export const V1VolumeParams = z.object({ bookId: Id, volumeId: Id });
export const V1PageParams = z.object({ bookId: Id, pageId: Id });

/** Full-text search: the site's query syntax (AND by spaces, "phrases", OR, -NOT, NEAR/n), filters, a page of books. */
export const V1SearchQuery = z.object({
  q: FullTextBooksQuery.shape.text,
  /** `1`: the characters exactly as typed (no simplified/traditional or variant folding). */
  exact: z.enum(['0', '1'], { error: 'exact 只能是 0 或 1' }).default('0'),
  sort: z.enum(FULL_TEXT_SORTS, { error: `sort 只能是 ${FULL_TEXT_SORTS.join('、')}` }).default('relevance'),
  book: z.coerce.number({ error: 'book 必须是书的编号' }).int().positive('book 必须是书的编号').optional(),
  class: z.string().trim().max(100, '分类代码不能超过 100 个字').optional(),
  dynasty: z.string().trim().max(100, '朝代不能超过 100 个字').optional(),
  edition: z.string().trim().max(200, '版本不能超过 200 个字').optional(),
  page: pageNumber,
  pageSize: pageSizeOf(50, 10),
  /** How many of each book's pages come with it (0–10). */
  hitsPerBook: z.coerce
    .number({ error: 'hitsPerBook 必须是 0 到 10 的整数' })
    .int('hitsPerBook 必须是 0 到 10 的整数')
    .min(0, 'hitsPerBook 必须是 0 到 10 的整数')
    .max(10, 'hitsPerBook 必须是 0 到 10 的整数')
    .default(3),
});
export type V1SearchQuery = z.infer<typeof V1SearchQuery>;

// ---- v1 answers ----

/** A classification and its sub-classes. */
export interface V1Classification {
  code: string;
  name: string;
  children: V1Classification[];
}
export const V1Classification: z.ZodType<V1Classification> = z
  .lazy(() => z.object({ code: z.string(), name: z.string(), children: z.array(V1Classification) }))
  .meta({ id: 'V1Classification' });
export const V1ClassificationTree = z.object({ classifications: z.array(V1Classification) }).meta({
  example: {
    classifications: [
      {
        code: 'JING',
        name: '经部',
        children: [{ code: 'JING.SISHU', name: '四书类', children: [] }],
      },
    ],
  },
});
export type V1ClassificationTree = z.infer<typeof V1ClassificationTree>;

/** A book of the catalogue. Links are paths on this site (the API's own origin). */
export const V1Book = z.object({
  id: z.number().int().describe('Stable id of the book'),
  title: z.string(),
  author: z.string().nullable(),
  /** 朝代 as catalogued. */
  dynasty: z.string().nullable(),
  /** 版本 as catalogued. */
  edition: z.string().nullable(),
  callNumber: z.string().nullable(),
  classCode: z.string().nullable(),
  /** Open for online reading (otherwise: the reading room, a privilege or a research reader). */
  openAccess: z.boolean(),
  /** Thumbnail of the first page (IIIF), or null. */
  cover: z.string().nullable(),
  /** The book's page on the site. */
  url: z.string(),
});
export type V1Book = z.infer<typeof V1Book>;

const bookExample = {
  id: 12,
  title: '論語集注',
  author: '朱熹',
  dynasty: '宋',
  edition: '清刻本',
  callNumber: 'DEMO-經-004',
  classCode: 'JING.SISHU',
  openAccess: true,
  cover: '/iiif/3/301/full/!240,240/0/default.jpg',
  url: '/SearchPage/12',
};

/** A page of a list; `next` is the next page's path (also in the `Link` header), null on the last. */
const pagedOf = <T extends z.ZodType>(item: T) =>
  z.object({
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    pages: z.number().int(),
    next: z.string().nullable(),
    items: z.array(item),
  });

export const V1BookList = pagedOf(V1Book).meta({
  example: {
    page: 1,
    pageSize: 20,
    total: 21,
    pages: 2,
    next: '/api/v1/books?q=%E8%AB%96%E8%AA%9E&page=2&pageSize=20',
    items: [bookExample],
  },
});
export type V1BookList = z.infer<typeof V1BookList>;

/** An entry of a volume's table of contents. */
export interface V1DirectoryEntry {
  id: number;
  name: string;
  /** The page it opens; null for a heading. */
  pageId: number | null;
  pageNumber: number | null;
  children: V1DirectoryEntry[];
}
export const V1DirectoryEntry: z.ZodType<V1DirectoryEntry> = z
  .lazy(() =>
    z.object({
      id: z.number().int(),
      name: z.string(),
      pageId: z.number().int().nullable(),
      pageNumber: z.number().int().nullable(),
      children: z.array(V1DirectoryEntry),
    }),
  )
  .meta({ id: 'V1DirectoryEntry' });

export const V1Volume = z.object({
  id: z.number().int(),
  name: z.string(),
  introduction: z.string().nullable(),
  pageCount: z.number().int(),
  /** IIIF Presentation 3 manifest of the volume. */
  iiifManifest: z.string(),
  /** This API's list of the volume's pages. */
  pagesUrl: z.string(),
  directory: z.array(V1DirectoryEntry),
});
export type V1Volume = z.infer<typeof V1Volume>;

/** Whether the caller may read the text, and if not the site's notice (DESIGN.md §7). */
export const V1Access = z.object({
  canRead: z.boolean(),
  reason: z.enum(['ok', 'login', 'readingRoom', 'noData']),
  message: z.string(),
});

export const V1BookDetail = V1Book.extend({
  /** 附注 of the catalogue record (MARC21 500, CNMARC 300), line breaks kept; null when none. */
  notes: z.string().nullable(),
  volumeCount: z.number().int(),
  access: V1Access,
  /** A IIIF manifest (one volume) or collection (several); null without volumes. */
  iiifManifest: z.string().nullable(),
  volumes: z.array(V1Volume),
}).meta({
  example: {
    ...bookExample,
    notes: '朱熹集注。半葉八行，行十七字。',
    volumeCount: 1,
    access: { canRead: true, reason: 'ok', message: '' },
    iiifManifest: '/iiif/presentation/volumes/40/manifest.json',
    volumes: [
      {
        id: 40,
        name: '卷一',
        introduction: null,
        pageCount: 2,
        iiifManifest: '/iiif/presentation/volumes/40/manifest.json',
        pagesUrl: '/api/v1/books/12/volumes/40/pages',
        directory: [{ id: 7, name: '學而第一', pageId: 301, pageNumber: 1, children: [] }],
      },
    ],
  },
});
export type V1BookDetail = z.infer<typeof V1BookDetail>;

export const V1Page = z.object({
  id: z.number().int().describe('Stable id of the page image'),
  /** 1-based position in the volume. */
  number: z.number().int(),
  name: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** IIIF Image API 3 base (append `/info.json`). */
  iiifImage: z.string(),
  thumbnail: z.string(),
  /** This API's text of the page. */
  textUrl: z.string(),
});
export const V1PageList = z
  .object({ bookId: z.number().int(), volumeId: z.number().int(), pages: z.array(V1Page) })
  .meta({
    example: {
      bookId: 12,
      volumeId: 40,
      pages: [
        {
          id: 301,
          number: 1,
          name: '第1葉',
          width: 2400,
          height: 1600,
          iiifImage: '/iiif/3/301',
          thumbnail: '/iiif/3/301/full/!240,240/0/default.jpg',
          textUrl: '/api/v1/books/12/pages/301/text',
        },
      ],
    },
  });
export type V1PageList = z.infer<typeof V1PageList>;

/** One recognised character and its box in image pixels (origin top left). */
export const V1Character = z.object({
  char: z.string(),
  /** `note`: small double-line notes (雙行小注). */
  type: z.enum(['text', 'note']),
  confidence: z.number(),
  box: OcrPoints,
});
export const V1TextRegions = ['content', 'header', 'footer', 'middleSeam', 'others'] as const;
/** A column (vertical pages) of characters, in reading order. */
export const V1Column = z.object({ region: z.enum(V1TextRegions), characters: z.array(V1Character) });

export const V1PageText = z
  .object({
    pageId: z.number().int(),
    bookId: z.number().int(),
    volumeId: z.number().int(),
    pageNumber: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
    /** The current OCR version (1: as first recognised or imported); null when the page has no text yet. */
    version: z.number().int().nullable(),
    /** The body text in reading order (the `content` columns); headers, footers and the centre strip are not in it. */
    text: z.string(),
    columns: z.array(V1Column),
  })
  .meta({
    example: {
      pageId: 301,
      bookId: 12,
      volumeId: 40,
      pageNumber: 1,
      width: 2400,
      height: 1600,
      version: 2,
      text: '學而時習之',
      columns: [
        {
          region: 'content',
          characters: [
            {
              char: '學',
              type: 'text',
              confidence: 0.98,
              box: { left: 2210, top: 180, right: 2290, bottom: 262 },
            },
          ],
        },
      ],
    },
  });
export type V1PageText = z.infer<typeof V1PageText>;

const SnippetOut = z.object({
  text: z.string(),
  /** Every match inside the snippet, in code points of `text`. */
  highlights: z.array(z.object({ start: z.number().int(), length: z.number().int() })),
});
export const V1SearchHit = z.object({
  pageId: z.number().int(),
  volumeId: z.number().int(),
  volumeName: z.string(),
  pageNumber: z.number().int(),
  /** The table-of-contents entry the page lies under. */
  section: z.string().nullable(),
  occurrences: z.number().int(),
  snippet: SnippetOut,
});
export const V1SearchBook = z.object({
  book: V1Book.pick({ id: true, title: true, author: true, dynasty: true, edition: true, classCode: true }),
  /** Pages and occurrences found in this book. */
  pages: z.number().int(),
  occurrences: z.number().int(),
  hits: z.array(V1SearchHit),
});
export const V1SearchResult = pagedOf(V1SearchBook)
  .extend({
    query: z.string(),
    /** Exact counts over the whole search: pages, occurrences and books. */
    counts: z.object({ pages: z.number().int(), occurrences: z.number().int(), books: z.number().int() }),
  })
  .meta({
    example: {
      query: '學而',
      counts: { pages: 3, occurrences: 4, books: 2 },
      page: 1,
      pageSize: 10,
      total: 2,
      pages: 1,
      next: null,
      items: [
        {
          book: {
            id: 12,
            title: '論語集注',
            author: '朱熹',
            dynasty: '宋',
            edition: '清刻本',
            classCode: 'JING.SISHU',
          },
          pages: 2,
          occurrences: 3,
          hits: [
            {
              pageId: 301,
              volumeId: 40,
              volumeName: '卷一',
              pageNumber: 1,
              section: '學而第一',
              occurrences: 2,
              snippet: { text: '學而時習之不亦說乎', highlights: [{ start: 0, length: 2 }] },
            },
          ],
        },
      ],
    },
  });
export type V1SearchResult = z.infer<typeof V1SearchResult>;

/** Who the API takes the caller for, and the caller's rate limit. */
export const V1Whoami = z
  .object({
    /** The token's user's login name; null without a token. */
    user: z.string().nullable(),
    token: z.object({ name: z.string(), prefix: z.string() }).nullable(),
    rateLimit: z.object({ limit: z.number().int(), windowSeconds: z.number().int() }),
    /** Requests a minute: each token's, and an address's without a token. */
    limits: z.object({ tokenPerMinute: z.number().int(), anonymousPerMinute: z.number().int() }),
  })
  .meta({
    example: {
      user: 'reader',
      token: { name: '论文数据', prefix: 'gj_Q3xk9' },
      rateLimit: { limit: 120, windowSeconds: 60 },
      limits: { tokenPerMinute: 120, anonymousPerMinute: 30 },
    },
  });
export type V1Whoami = z.infer<typeof V1Whoami>;
