import type { FacetValue, FullTextFacets, FullTextSort, FullTextSummary } from '@guji/shared';

/**
 * The scholar's view of what a full-text search found (issue 16 part 12): filters, facets, orders and
 * the grouping by book, over the pages a query matched. Pure functions of those pages and their books'
 * facts, so SQLite and PostgreSQL give the same answer.
 */

/** A page a query matched. */
export interface MatchedPage {
  pageId: number;
  bookId: number;
  volumeId: number;
  volumeSort: number;
  seq: number;
  occurrences: number;
}

export interface BookFacts {
  id: number;
  title: string;
  author: string | null;
  classCode: string | null;
  dynasty: string | null;
  edition: string | null;
}

export interface SearchFilters {
  catalogId?: number | undefined;
  classCode?: string | undefined;
  dynasty?: string | undefined;
  edition?: string | undefined;
}

type FacetName = keyof FullTextFacets;

/** Whether a book is filed under a classification or one of its sub-classes (codes are dotted paths). */
function underClass(code: string | null, filter: string): boolean {
  return code !== null && (code === filter || code.startsWith(`${filter}.`));
}

function passes(book: BookFacts, filters: SearchFilters, except?: FacetName): boolean {
  if (except !== 'catalog' && filters.catalogId !== undefined && book.id !== filters.catalogId) return false;
  if (except !== 'classification' && filters.classCode && !underClass(book.classCode, filters.classCode))
    return false;
  if (except !== 'dynasty' && filters.dynasty && book.dynasty !== filters.dynasty) return false;
  if (except !== 'edition' && filters.edition && book.edition !== filters.edition) return false;
  return true;
}

/** The pages whose book passes the filters (all but one, `except`, for that one's facet). */
export function filterPages(
  pages: readonly MatchedPage[],
  books: ReadonlyMap<number, BookFacts>,
  filters: SearchFilters,
  except?: FacetName,
): MatchedPage[] {
  return pages.filter((page) => {
    const book = books.get(page.bookId);
    return book !== undefined && passes(book, filters, except);
  });
}

export function summarize(pages: readonly MatchedPage[]): FullTextSummary {
  return {
    pages: pages.length,
    occurrences: pages.reduce((sum, page) => sum + page.occurrences, 0),
    books: new Set(pages.map((page) => page.bookId)).size,
  };
}

const collator = new Intl.Collator('zh-u-co-pinyin');

/** Each filter's values among the pages found with the other filters applied: most pages first. */
export function facetsOf(
  pages: readonly MatchedPage[],
  books: ReadonlyMap<number, BookFacts>,
  filters: SearchFilters,
  classNames: ReadonlyMap<string, string>,
): FullTextFacets {
  const facet = (name: FacetName, valueOf: (book: BookFacts) => [string, string] | null): FacetValue[] => {
    const values = new Map<string, FacetValue & { bookIds: Set<number> }>();
    for (const page of filterPages(pages, books, filters, name)) {
      const entry = valueOf(books.get(page.bookId)!);
      if (!entry) continue;
      const [value, label] = entry;
      let item = values.get(value);
      if (!item) {
        item = { value, label, books: 0, pages: 0, occurrences: 0, bookIds: new Set() };
        values.set(value, item);
      }
      item.pages++;
      item.occurrences += page.occurrences;
      item.bookIds.add(page.bookId);
    }
    return [...values.values()]
      .map(({ bookIds, ...item }) => ({ ...item, books: bookIds.size }))
      .sort(
        (a, b) => b.pages - a.pages || collator.compare(a.label, b.label) || (a.value < b.value ? -1 : 1),
      );
  };
  return {
    catalog: facet('catalog', (book) => [String(book.id), book.title]),
    classification: facet('classification', (book) =>
      book.classCode ? [book.classCode, classNames.get(book.classCode) ?? book.classCode] : null,
    ),
    dynasty: facet('dynasty', (book) => (book.dynasty ? [book.dynasty, book.dynasty] : null)),
    edition: facet('edition', (book) => (book.edition ? [book.edition, book.edition] : null)),
  };
}

/** Book order: book, volume, page. */
function inBookOrder(a: MatchedPage, b: MatchedPage): number {
  return (
    a.bookId - b.bookId ||
    a.volumeSort - b.volumeSort ||
    a.volumeId - b.volumeId ||
    a.seq - b.seq ||
    a.pageId - b.pageId
  );
}

function byTitle(books: ReadonlyMap<number, BookFacts>, a: number, b: number): number {
  return collator.compare(books.get(a)?.title ?? '', books.get(b)?.title ?? '') || a - b;
}

/**
 * Pages in a search's order: relevance (most occurrences first), book order, or by title (then book
 * order); ties always in book order.
 */
export function sortPages(
  pages: readonly MatchedPage[],
  books: ReadonlyMap<number, BookFacts>,
  sort: FullTextSort,
): MatchedPage[] {
  const sorted = [...pages];
  if (sort === 'relevance') sorted.sort((a, b) => b.occurrences - a.occurrences || inBookOrder(a, b));
  else if (sort === 'title')
    sorted.sort(
      (a, b) => (a.bookId === b.bookId ? 0 : byTitle(books, a.bookId, b.bookId)) || inBookOrder(a, b),
    );
  else sorted.sort(inBookOrder);
  return sorted;
}

export interface BookMatches {
  bookId: number;
  pages: MatchedPage[];
  occurrences: number;
}

/**
 * The pages found grouped by book, books in the search's order (relevance: most occurrences, then most
 * pages; book order; title) and each book's pages in it (relevance: most occurrences first; otherwise
 * book order).
 */
export function groupByBook(
  pages: readonly MatchedPage[],
  books: ReadonlyMap<number, BookFacts>,
  sort: FullTextSort,
): BookMatches[] {
  const groups = new Map<number, BookMatches>();
  for (const page of sortPages(pages, books, sort === 'relevance' ? 'relevance' : 'order')) {
    let group = groups.get(page.bookId);
    if (!group) {
      group = { bookId: page.bookId, pages: [], occurrences: 0 };
      groups.set(page.bookId, group);
    }
    group.pages.push(page);
    group.occurrences += page.occurrences;
  }
  const list = [...groups.values()];
  if (sort === 'relevance')
    list.sort(
      (a, b) => b.occurrences - a.occurrences || b.pages.length - a.pages.length || a.bookId - b.bookId,
    );
  else if (sort === 'title') list.sort((a, b) => byTitle(books, a.bookId, b.bookId));
  else list.sort((a, b) => a.bookId - b.bookId);
  return list;
}
