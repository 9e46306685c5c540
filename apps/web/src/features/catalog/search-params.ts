import type { BookSearchQuery } from '@guji/shared';
import { positiveId } from '../../lib/reader-url.ts';

/** The title search of /SearchPage, kept in the address so reload, back and sharing keep it. */
export interface SearchState {
  title: string;
  /** A classification code (dictionaryValue); empty for all. */
  classCode: string;
  /** 1-based result page. */
  page: number;
}

/** The search a /SearchPage address asks for. */
export function parseSearchParams(params: URLSearchParams): SearchState {
  return {
    title: (params.get('title') ?? '').trim(),
    classCode: (params.get('classCode') ?? '').trim(),
    page: positiveId(params.get('page')) ?? 1,
  };
}

/** The /SearchPage address of a search; empty values and page 1 are left out. */
export function searchPath(state: Partial<SearchState>): string {
  const params = new URLSearchParams();
  const title = state.title?.trim();
  if (title) params.set('title', title);
  if (state.classCode) params.set('classCode', state.classCode);
  if (state.page && state.page > 1) params.set('page', String(state.page));
  const query = params.toString();
  return query ? `/SearchPage?${query}` : '/SearchPage';
}

/** The query of GET /api/books (catalogApi.search) for a search; empty values are left out. */
export function bookSearchQuery(state: SearchState, pageSize: number): BookSearchQuery {
  return {
    pageNum: state.page,
    pageSize,
    ...(state.title ? { title: state.title } : {}),
    ...(state.classCode ? { classCode: state.classCode } : {}),
  };
}

/**
 * The start of a text for a teaser: at most `max` characters (by code point, so rare characters
 * beyond the BMP are never split), whitespace collapsed, with an ellipsis when cut.
 */
export function excerpt(text: string, max: number): { text: string; truncated: boolean } {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  if (chars.length <= max) return { text: flat, truncated: false };
  return { text: `${chars.slice(0, max).join('').trimEnd()}…`, truncated: true };
}
