import {
  parseSearchQuery,
  type BookGroup,
  type FullTextBookPage,
  type FullTextBooksQuery,
  type FullTextQuery,
  type TextHitPage,
} from '@guji/shared';
import { AppError } from '../../errors.ts';
import { matchPage } from '../../search/matcher.ts';
import { compileQuery, type CompiledQuery } from '../../search/query.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import { hitRecords, searchable, type FoundPage } from './hit-records.ts';
import type { MatchSets } from './match-set.ts';
import {
  facetsOf,
  filterPages,
  groupByBook,
  sortPages,
  summarize,
  type BookFacts,
  type MatchedPage,
  type SearchFilters,
} from './result-view.ts';
import type { SearchRepository } from './search.repository.ts';

type Filters = Pick<
  FullTextQuery,
  'text' | 'exact' | 'sort' | 'catalogId' | 'classCode' | 'dynasty' | 'edition'
>;

const filtersOf = (query: Filters): SearchFilters => ({
  catalogId: query.catalogId,
  classCode: query.classCode || undefined,
  dynasty: query.dynasty || undefined,
  edition: query.edition || undefined,
});

/** The query of a request (the route has checked it; a malformed one is refused all the same). */
export function compiledOf(query: Filters): CompiledQuery {
  const parsed = parseSearchQuery(query.text);
  if (!parsed.ok) throw new AppError(400, 'VALIDATION', parsed.message);
  return compileQuery(parsed.query, query.exact === '1');
}

/**
 * Full-text search for scholars (issue 16 parts 12–13): the query syntax, the exact switch, filters
 * with facets, three orders and the grouping by book, all with exact counts of pages and occurrences.
 */
export class ScholarSearch {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly repo: SearchRepository,
    private readonly sets: MatchSets,
  ) {}

  /** One row a page, in the query's order, filtered. */
  async pages(query: FullTextQuery): Promise<TextHitPage> {
    const { pageNum, pageSize } = query;
    const compiled = compiledOf(query);
    const { pages, books } = await this.matched(compiled, query.catalogId);
    const found = sortPages(filterPages(pages, books, filtersOf(query)), books, query.sort);
    const shown = found.slice((pageNum - 1) * pageSize, pageNum * pageSize);
    return {
      pageNum,
      pageSize,
      total: found.length,
      pages: Math.ceil(found.length / pageSize),
      records: await this.records(shown, compiled),
    };
  }

  /** One row a book, each with its counts and first pages; the counts and facets of the whole search. */
  async books(query: FullTextBooksQuery): Promise<FullTextBookPage> {
    const { pageNum, pageSize } = query;
    const compiled = compiledOf(query);
    const filters = filtersOf(query);
    const { pages, books } = await this.matched(compiled);
    const found = filterPages(pages, books, filters);
    const groups = groupByBook(found, books, query.sort);
    const shown = groups.slice((pageNum - 1) * pageSize, pageNum * pageSize);
    const firstPages = shown.flatMap((group) => group.pages.slice(0, query.hitsPerBook));
    const hits = await this.records(firstPages, compiled);
    const classNames = await this.repo.classificationNames();
    return {
      pageNum,
      pageSize,
      total: groups.length,
      pages: Math.ceil(groups.length / pageSize),
      records: shown.map((group): BookGroup => {
        const book = books.get(group.bookId)!;
        return {
          catalogId: book.id,
          catalogName: book.title,
          author: book.author,
          publishDynasty: book.dynasty,
          coverageDynasty: book.edition,
          classCode: book.classCode,
          classificationName: book.classCode ? (classNames.get(book.classCode) ?? null) : null,
          pages: group.pages.length,
          occurrences: group.occurrences,
          hits: hits.filter((hit) => hit.catalogId === book.id),
        };
      }),
      summary: summarize(found),
      facets: facetsOf(pages, books, filters, classNames),
    };
  }

  /** The pages a query matches in searchable books, with those books' facts. */
  private async matched(
    query: CompiledQuery,
    bookId?: number,
  ): Promise<{ pages: MatchedPage[]; books: Map<number, BookFacts> }> {
    const all = await this.sets.find(query, bookId);
    const rows = await this.repo.bookFacts([...new Set(all.map((page) => page.bookId))]);
    const books = new Map<number, BookFacts>();
    for (const row of rows) {
      if (!searchable(row)) continue;
      books.set(row.id, {
        id: row.id,
        title: row.title,
        author: row.author,
        classCode: row.class_code,
        dynasty: row.publish_dynasty,
        edition: row.coverage_dynasty,
      });
    }
    return { pages: all.filter((page) => books.has(page.bookId)), books };
  }

  /** The result rows of pages found: their texts read again, matched again for the highlights. */
  private async records(pages: MatchedPage[], query: CompiledQuery) {
    const texts = await this.repo.pageTexts(pages.map((page) => page.pageId));
    const found: FoundPage[] = [];
    for (const page of pages) {
      const text = texts.get(page.pageId);
      const match = text === undefined ? null : matchPage(text, query);
      if (text === undefined || !match) continue;
      found.push({ ...page, text, occurrences: match.occurrences, ranges: match.ranges });
    }
    return hitRecords(this.catalog, found);
  }
}
