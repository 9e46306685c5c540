import type { Db, DbOrTx } from '../db/database.ts';
import { foldChar, isTokenChar } from './fold.ts';

/** A page's text as the index keeps it. */
export interface IndexedPage {
  pageId: number;
  bookId: number;
  volumeId: number;
  /** The recognised body text in reading order (`pageText` of the OCR JSON). */
  text: string;
}

/** One book's pages with text, as a full reindex reads them (none when the book is not searchable). */
export interface BookPages {
  bookId: number;
  pages: IndexedPage[];
}

export interface TextQuery {
  /** What the reader typed; folded and stripped of punctuation before matching. */
  text: string;
  /** Only this book's pages (in-book search). */
  bookId?: number;
  offset: number;
  limit: number;
}

export interface TextHit extends IndexedPage {
  /** The first match in `text`, in code points; punctuation inside the match is part of it. */
  matchStart: number;
  matchLength: number;
}

export interface TextSearchResult {
  /** Exact number of matching pages. */
  total: number;
  /** Matching pages in book order (page id), `limit` from `offset`. */
  hits: TextHit[];
}

/**
 * The full-text index (DESIGN.md §6): page texts, matched as phrases of folded characters (simplified and
 * traditional and variant forms alike; punctuation ignored), with exact counts. One contract, two
 * implementations (SQLite FTS5, PostgreSQL tsvector + pg_trgm), one conformance suite.
 */
export interface TextIndex {
  /** Puts pages into the index, replacing what they had; a page with no text is removed. */
  upsert(pages: IndexedPage[], tx: DbOrTx): Promise<void>;
  remove(pageIds: number[], tx: DbOrTx): Promise<void>;
  removeBook(bookId: number, tx: DbOrTx): Promise<void>;
  /**
   * Replaces the whole index with these books' pages (a full reindex); pages of books not among them
   * leave it. Searches keep answering meanwhile, and a page written while it runs keeps what was written.
   * Returns the pages indexed.
   */
  rebuild(books: AsyncIterable<BookPages> | Iterable<BookPages>): Promise<number>;
  search(query: TextQuery): Promise<TextSearchResult>;
  /**
   * Every page whose text holds the folded characters as a phrase (the candidates a query with
   * several terms is checked on), in no particular order; only one book's with `bookId`.
   */
  candidates(chars: string[], bookId?: number): Promise<number[]>;
  /** Pages in the index. */
  count(): Promise<number>;
}

/** The folded token characters of a query or a text: what the index matches. */
export function tokenChars(text: string): string[] {
  const chars: string[] = [];
  for (const char of text) {
    const folded = foldChar(char);
    if (isTokenChar(folded)) chars.push(folded);
  }
  return chars;
}

/**
 * The first place where the folded query characters occur in `text`, skipping punctuation between them,
 * in code points; undefined when they do not.
 */
export function findMatch(text: string, query: string[]): { start: number; length: number } | undefined {
  if (query.length === 0) return undefined;
  const chars = [...text].map(foldChar);
  for (let start = 0; start < chars.length; start++) {
    if (chars[start] !== query[0]) continue;
    let at = start + 1;
    let matched = 1;
    while (matched < query.length && at < chars.length) {
      const char = chars[at]!;
      if (!isTokenChar(char)) {
        at++;
        continue;
      }
      if (char !== query[matched]) break;
      matched++;
      at++;
    }
    if (matched === query.length) return { start, length: at - start };
  }
  return undefined;
}

/** Every place the folded query characters occur in `text`, in order, not overlapping (code points). */
export function findAllMatches(text: string, query: string[]): Array<{ start: number; length: number }> {
  const chars = [...text];
  const matches: Array<{ start: number; length: number }> = [];
  let from = 0;
  while (from < chars.length) {
    const match = findMatch(chars.slice(from).join(''), query);
    if (!match) break;
    matches.push({ start: from + match.start, length: match.length });
    from += match.start + Math.max(1, match.length);
  }
  return matches;
}

/** A `page_texts` row as both implementations select it. */
export interface StoredPageText {
  page_id: number;
  book_id: number;
  volume_id: number;
  text: string;
}

/** The hits of a search: the rows an index found, with where the match lies in each. */
export function hitsFrom(rows: StoredPageText[], query: string[]): TextHit[] {
  return rows.map((row) => {
    const match = findMatch(row.text, query);
    return {
      pageId: row.page_id,
      bookId: row.book_id,
      volumeId: row.volume_id,
      text: row.text,
      matchStart: match?.start ?? -1,
      matchLength: match?.length ?? 0,
    };
  });
}

/** Pages in the index (both dialects keep one `page_texts` row per indexed page). */
export async function countIndexedPages(db: Db): Promise<number> {
  const row = await db
    .selectFrom('page_texts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
