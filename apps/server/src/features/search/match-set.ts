import { matchPage } from '../../search/matcher.ts';
import { queryKey, type CompiledQuery } from '../../search/query.ts';
import type { TextIndex } from '../../search/text-index.ts';
import type { MatchedPage } from './result-view.ts';
import type { SearchRepository } from './search.repository.ts';

/** How long a query's pages are kept for the next request of the same search (paging, a filter, a book). */
const KEEP_MS = 30_000;
/** Pages kept in all at most (a page is about a hundred bytes here). */
const KEEP_PAGES = 300_000;

/**
 * Every page a query matches, with its occurrences (exact counts). The index gives the candidates —
 * the pages holding each term looked for, united for OR and intersected for AND and NEAR — and each
 * candidate's text is then checked with the whole query (matcher.ts), so both databases, whose indexes
 * differ, give the same pages and counts. A single term's candidates are its pages already; the
 * check counts its occurrences.
 *
 * A search's pages are kept a short while, so turning its pages, choosing a filter or opening a book's
 * pages does not check them again; any change to the index in this process drops them (changes made
 * by another process show within KEEP_MS).
 */
export class MatchSets {
  private readonly kept = new Map<string, { at: number; pages: MatchedPage[] }>();

  constructor(
    private readonly index: TextIndex,
    private readonly repo: SearchRepository,
  ) {}

  /** Forgets every search's pages (the index changed). */
  clear(): void {
    this.kept.clear();
  }

  /** The pages matching a query (only one book's with `bookId`), in no particular order. */
  async find(query: CompiledQuery, bookId?: number): Promise<MatchedPage[]> {
    const key = queryKey(query);
    const all = this.recall(`${key}|`);
    if (all) return bookId === undefined ? all : all.filter((page) => page.bookId === bookId);
    const own = `${key}|${bookId ?? ''}`;
    const kept = this.recall(own);
    if (kept) return kept;
    const pages: MatchedPage[] = [];
    await this.repo.eachPageSlice(await this.candidates(query, bookId), (rows) => {
      for (const row of rows) {
        const match = matchPage(row.text, query);
        if (!match) continue;
        pages.push({
          pageId: row.page_id,
          bookId: row.book_id,
          volumeId: row.volume_id,
          volumeSort: row.volume_sort,
          seq: row.seq,
          occurrences: match.occurrences,
        });
      }
    });
    this.keep(own, pages);
    return pages;
  }

  private async candidates(query: CompiledQuery, bookId: number | undefined): Promise<number[]> {
    const pagesOf = async (chars: string[]) => new Set(await this.index.candidates(chars, bookId));
    let result: Set<number> | null = null;
    for (const clause of query.clauses) {
      if (clause.kind === 'not') continue;
      let ids: Set<number>;
      if (clause.kind === 'any') {
        ids = new Set();
        for (const term of clause.terms) for (const id of await pagesOf(term.index)) ids.add(id);
      } else {
        const first = await pagesOf(clause.terms[0].index);
        const second = await pagesOf(clause.terms[1].index);
        ids = intersect(first, second);
      }
      result = result === null ? ids : intersect(result, ids);
      if (result.size === 0) break;
    }
    return [...(result ?? [])];
  }

  private recall(key: string): MatchedPage[] | undefined {
    const entry = this.kept.get(key);
    if (!entry) return undefined;
    if (Date.now() - entry.at > KEEP_MS) {
      this.kept.delete(key);
      return undefined;
    }
    return entry.pages;
  }

  private keep(key: string, pages: MatchedPage[]): void {
    if (pages.length > KEEP_PAGES) return;
    this.kept.set(key, { at: Date.now(), pages });
    let total = 0;
    for (const entry of this.kept.values()) total += entry.pages.length;
    // The oldest go first (a Map iterates in insertion order).
    for (const [k, entry] of this.kept) {
      if (total <= KEEP_PAGES) break;
      this.kept.delete(k);
      total -= entry.pages.length;
    }
  }
}

function intersect(a: Set<number>, b: Set<number>): Set<number> {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  const out = new Set<number>();
  for (const id of small) if (large.has(id)) out.add(id);
  return out;
}
