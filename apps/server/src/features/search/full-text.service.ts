import {
  contentWords,
  isSingleTerm,
  MSG,
  type FullTextBookPage,
  type FullTextBooksQuery,
  type FullTextQuery,
  type OcrJson,
  pageText,
  parseSearchQuery,
  type OcrPoints,
  type PageMatches,
  type TextHitPage,
} from '@guji/shared';
import type { DbOrTx } from '../../db/database.ts';
import type { BookRow } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import { parseOcr } from '../../ocr/parse.ts';
import {
  findAllMatches,
  findMatch,
  tokenChars,
  type BookPages,
  type IndexedPage,
  type TextIndex,
} from '../../search/text-index.ts';
import { matchPage, type Range } from '../../search/matcher.ts';
import { compileQuery } from '../../search/query.ts';
import type { SearchHit } from '../iiif/presentation.ts';
import { accessError, type CatalogService } from '../catalog/catalog.service.ts';
import type { Viewer } from '../../lib/viewer.ts';
import { hitRecords, searchable } from './hit-records.ts';
import { MatchSets } from './match-set.ts';
import { ScholarSearch } from './scholar-search.ts';
import type { SearchRepository } from './search.repository.ts';

/**
 * Full-text search, in-book search and the text boxes of a match (DESIGN.md §6), and keeping the index
 * in step with the books' text and visibility.
 *
 * Who gets text (DESIGN.md §7, issue 13 item 11): full-text search, in-book search, match boxes and
 * IIIF Content Search answer only in the reading room and only to a signed-in user (the spec asks
 * for a login to read; anonymous visitors get no snippet of any book, public ones included), and only
 * from books that user may read by the access rule (`decideAccess`). The index holds only searchable
 * books (visible, published, with pages, hence a volume), each of which a signed-in user in the
 * reading room may read, so full-text search filters nothing out and its counts stay exact.
 */
export class FullTextService {
  private readonly sets: MatchSets;
  private readonly scholar: ScholarSearch;

  constructor(
    private readonly catalog: CatalogRepository,
    private readonly index: TextIndex,
    repo: SearchRepository,
  ) {
    this.sets = new MatchSets(index, repo);
    this.scholar = new ScholarSearch(catalog, repo, this.sets);
  }

  /** Takes a book out of the index (deleted, or no longer public). */
  async removeBook(bookId: number, tx: DbOrTx): Promise<void> {
    this.sets.clear();
    await this.index.removeBook(bookId, tx);
  }

  /** Puts a book's pages with OCR text into the index when it is searchable, and takes them out otherwise. */
  async indexBook(bookId: number, tx: DbOrTx): Promise<number> {
    this.sets.clear();
    await this.index.removeBook(bookId, tx);
    const pages = await this.bookPages(bookId, tx);
    await this.index.upsert(pages, tx);
    return pages.length;
  }

  /** A book's pages with OCR text, none when the book is not searchable (hidden, unpublished, gone). */
  private async bookPages(bookId: number, tx?: DbOrTx): Promise<IndexedPage[]> {
    const book = await this.catalog.findBook(bookId, tx);
    if (!book || !searchable(book)) return [];
    const rows = await this.catalog.pagesWithText(bookId, tx);
    return rows.flatMap((row) => {
      const ocr = parseOcr(row.ocr_json);
      return ocr
        ? [{ pageId: row.id, bookId: row.book_id, volumeId: row.volume_id, text: pageText(ocr) }]
        : [];
    });
  }

  /** Brings one page's entry up to date (its OCR text changed). */
  async indexPage(pageId: number, tx: DbOrTx): Promise<void> {
    this.sets.clear();
    const page = await this.catalog.findPage(pageId, tx);
    const book = page ? await this.catalog.findBook(page.book_id, tx) : undefined;
    const ocr = parseOcr(page?.ocr_json ?? null);
    if (!page || !book || !searchable(book) || !ocr) {
      await this.index.remove([pageId], tx);
      return;
    }
    await this.index.upsert([{ pageId, bookId: book.id, volumeId: page.volume_id, text: pageText(ocr) }], tx);
  }

  /**
   * Rebuilds the whole index from the pages' OCR text (the `reindex` command), while searches go on
   * (TextIndex.rebuild).
   */
  async reindexAll(
    onBook?: (done: number, total: number) => void,
  ): Promise<{ books: number; pages: number }> {
    const bookIds = await this.catalog.allBookIds();
    this.sets.clear();
    try {
      return { books: bookIds.length, pages: await this.index.rebuild(this.booksToIndex(bookIds, onBook)) };
    } finally {
      this.sets.clear();
    }
  }

  /** Each book's pages in turn, read as the rebuild asks for them. */
  private async *booksToIndex(
    bookIds: number[],
    onBook?: (done: number, total: number) => void,
  ): AsyncGenerator<BookPages> {
    for (const [i, bookId] of bookIds.entries()) {
      yield { bookId, pages: await this.bookPages(bookId) };
      onBook?.(i + 1, bookIds.length);
    }
  }

  /**
   * Full-text search over every searchable book (signed in, in the reading room), one row a page. One
   * bare term in book order, folded and unfiltered, is what it always was: the index's phrase search,
   * paged by the index. Anything more (the query syntax, 精确字形, filters, another order) is checked
   * on the pages' texts (ScholarSearch).
   */
  async search(viewer: Viewer, query: FullTextQuery): Promise<TextHitPage> {
    requireSearcher(viewer);
    const { pageNum, pageSize } = query;
    const parsed = parseSearchQuery(query.text);
    const plain =
      parsed.ok &&
      (parsed.query.clauses.length === 0 || isSingleTerm(parsed.query)) &&
      query.exact === '0' &&
      query.sort === 'order' &&
      query.catalogId === undefined &&
      !query.classCode &&
      !query.dynasty &&
      !query.edition;
    if (!plain) return this.scholar.pages(query);
    const clause = parsed.query.clauses[0];
    const text = clause?.kind === 'any' ? clause.terms[0]! : '';
    const result = await this.index.search({ text, offset: (pageNum - 1) * pageSize, limit: pageSize });
    return this.page(result.hits, result.total, pageNum, pageSize, tokenChars(text));
  }

  /** Full-text search grouped by book, with the counts and facets of the whole search. */
  async searchBooks(viewer: Viewer, query: FullTextBooksQuery): Promise<FullTextBookPage> {
    requireSearcher(viewer);
    return this.scholar.books(query);
  }

  /** Search within one book (signed in, in the reading room, a book the viewer may read). */
  async searchInBook(
    viewer: Viewer,
    bookId: number,
    text: string,
    pageNum: number,
    pageSize: number,
    catalog: CatalogService,
  ): Promise<TextHitPage> {
    requireSearcher(viewer);
    const book = await this.catalog.findBook(bookId);
    if (!book || !searchable(book)) throw notFound(MSG.noData, 'NO_DATA');
    await this.requireReadable(book, viewer, catalog);
    const result = await this.index.search({
      text,
      bookId,
      offset: (pageNum - 1) * pageSize,
      limit: pageSize,
    });
    return this.page(result.hits, result.total, pageNum, pageSize, tokenChars(text));
  }

  /**
   * The boxes of every occurrence of a text on a page (reading room only, and only where the page may
   * be read), so the reader can frame what a search found.
   */
  async pageMatches(
    viewer: Viewer,
    pageId: number,
    text: string,
    catalog: CatalogService,
  ): Promise<PageMatches> {
    requireSearcher(viewer);
    const page = await this.catalog.findPage(pageId);
    const book = page ? await this.catalog.findBook(page.book_id) : undefined;
    if (!page || !book) throw notFound(MSG.noData, 'NO_DATA');
    await this.requireReadable(book, viewer, catalog);
    const ocr = parseOcr(page.ocr_json);
    // The reader frames what a full-text query found: every term looked for (query syntax); text that
    // is not a query is one phrase, as in-book search reads it.
    const parsed = parseSearchQuery(text);
    const query = parsed.ok && parsed.query.clauses.length > 0 ? compileQuery(parsed.query, false) : null;
    const chars = tokenChars(text);
    const find = (body: string): Range[] =>
      query ? (matchPage(body, query)?.ranges ?? []) : findAllMatches(body, chars);
    return { imageId: pageId, matches: ocr ? boxesOf(ocr, find) : [] };
  }

  /**
   * Whether a viewer may use text search at all (the rule every search here enforces), so that a
   * IIIF manifest advertises its search service only to clients it will answer.
   */
  allowsSearch(viewer: Viewer): boolean {
    try {
      requireSearcher(viewer);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Every occurrence of a text in one volume, for IIIF Content Search: the page, the boxes of the
   * matched characters and the text around them. The same rule as in-book search.
   */
  async volumeMatches(
    viewer: Viewer,
    volumeId: number,
    text: string,
    catalog: CatalogService,
    limit = 500,
  ): Promise<SearchHit[]> {
    requireSearcher(viewer);
    const volume = await this.catalog.findVolume(volumeId);
    const book = volume ? await this.catalog.findBook(volume.book_id) : undefined;
    if (!volume || !book || !searchable(book)) throw notFound(MSG.noData, 'NO_DATA');
    await this.requireReadable(book, viewer, catalog);
    const query = tokenChars(text);
    const result = await this.index.search({ text, bookId: volume.book_id, offset: 0, limit: 10_000 });
    const hits: SearchHit[] = [];
    for (const hit of result.hits.filter((h) => h.volumeId === volumeId)) {
      const page = await this.catalog.findPage(hit.pageId);
      const ocr = parseOcr(page?.ocr_json ?? null);
      if (!page || !ocr) continue;
      const chars = [...pageText(ocr)];
      let from = 0;
      for (const boxes of matchBoxes(ocr, query)) {
        const match = findMatch(chars.slice(from).join(''), query);
        if (!match) break;
        const start = from + match.start;
        hits.push({
          page,
          boxes,
          exact: chars.slice(start, start + match.length).join(''),
          prefix: chars.slice(Math.max(0, start - 10), start).join(''),
          suffix: chars.slice(start + match.length, start + match.length + 10).join(''),
        });
        from = start + Math.max(1, match.length);
        if (hits.length >= limit) return hits;
      }
    }
    return hits;
  }

  /** Throws the reader's refusal unless the viewer may read the book (DESIGN.md §7). */
  private async requireReadable(book: BookRow, viewer: Viewer, catalog: CatalogService): Promise<void> {
    const access = await catalog.access(book, await this.catalog.countVolumes(book.id), viewer);
    if (!access.canRead) throw accessError(access);
  }

  private async page(
    hits: Awaited<ReturnType<TextIndex['search']>>['hits'],
    total: number,
    pageNum: number,
    pageSize: number,
    query: string[],
  ): Promise<TextHitPage> {
    const records = await hitRecords(
      this.catalog,
      hits.map((hit) => {
        const ranges = findAllMatches(hit.text, query);
        return { ...hit, occurrences: ranges.length, ranges };
      }),
    );
    return { pageNum, pageSize, total, pages: Math.ceil(total / pageSize), records };
  }
}

/** Text search is for the reading room, and there for signed-in users only (the reading room first). */
function requireSearcher(viewer: Viewer): void {
  if (!viewer.readingRoom) throw forbidden(MSG.fullTextReadingRoomOnly, 'READING_ROOM_ONLY');
  if (viewer.userId === null) throw new AppError(401, 'LOGIN_REQUIRED', MSG.loginRequiredNotice);
}

/** The character boxes of every occurrence of the folded query characters in a page's body text. */
export function matchBoxes(ocr: OcrJson, query: string[]): OcrPoints[][] {
  if (query.length === 0) return [];
  return boxesOf(ocr, (text) => findAllMatches(text, query));
}

/** The character boxes of each range `find` gives in a page's body text (code points). */
function boxesOf(ocr: OcrJson, find: (text: string) => Range[]): OcrPoints[][] {
  const words = contentWords(ocr);
  // One entry per code point of the page text, naming the word it belongs to.
  const wordOf: number[] = [];
  words.forEach((word, i) => {
    for (const _ of word.word) wordOf.push(i);
  });
  return find(words.map((w) => w.word).join('')).map((range) => {
    const indexes = new Set(wordOf.slice(range.start, range.start + range.length));
    return [...indexes].map((i) => words[i]!.points);
  });
}
