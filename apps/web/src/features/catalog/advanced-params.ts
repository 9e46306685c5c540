import { ADVANCED_FIELDS, FULL_TEXT_SORTS, type AdvancedField, type FullTextSort } from '@guji/shared';
import { positiveId } from '../../lib/reader-url.ts';

/** A row of the book-mode form: field, text, and AND (0) / OR (1) to the rows before it. */
export interface FormRow {
  key: AdvancedField;
  value: string;
  type: 0 | 1;
}

/**
 * /AdvancedSearch state in the address (spec §2: type and page; the rows, the match mode and the
 * full-text query too, so a search can be reloaded and shared).
 */
export interface AdvancedState {
  /** 0 ancient books, 1 full text. */
  type: 0 | 1;
  page: number;
  /** 1 fuzzy (default), 0 exact. */
  match: 0 | 1;
  rows: FormRow[];
  text: string;
  /** Full text: the characters as typed, no 简繁/variant folding (精确字形). */
  exact: boolean;
  /** Full text: the order of the books and pages (relevance by default). */
  sort: FullTextSort;
  /** Full-text filters: a book, a classification code, a dynasty, an edition (null / empty: all). */
  catalogId: number | null;
  classCode: string;
  dynasty: string;
  edition: string;
}

/** The order full-text results come in unless the reader picks another. */
export const DEFAULT_FULL_TEXT_SORT: FullTextSort = 'relevance';

/** The full-text filters of a state, as the search API takes them (empty ones left out). */
export function fullTextFilters(state: AdvancedState): {
  catalogId?: number;
  classCode?: string;
  dynasty?: string;
  edition?: string;
} {
  return {
    ...(state.catalogId !== null ? { catalogId: state.catalogId } : {}),
    ...(state.classCode ? { classCode: state.classCode } : {}),
    ...(state.dynasty ? { dynasty: state.dynasty } : {}),
    ...(state.edition ? { edition: state.edition } : {}),
  };
}

export const EMPTY_ROW: FormRow = { key: 'title', value: '', type: 0 };

function parseRows(raw: string | null): FormRow[] {
  if (!raw) return [{ ...EMPTY_ROW }];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [{ ...EMPTY_ROW }];
    const rows = parsed.slice(0, 10).flatMap((item: unknown): FormRow[] => {
      if (typeof item !== 'object' || item === null) return [];
      const { key, value, type } = item as Record<string, unknown>;
      if (!ADVANCED_FIELDS.includes(key as AdvancedField) || typeof value !== 'string') return [];
      return [{ key: key as AdvancedField, value: value.slice(0, 100), type: type === 1 ? 1 : 0 }];
    });
    return rows.length > 0 ? rows : [{ ...EMPTY_ROW }];
  } catch {
    return [{ ...EMPTY_ROW }];
  }
}

export function parseAdvancedParams(params: URLSearchParams): AdvancedState {
  const page = Number(params.get('page'));
  return {
    type: params.get('type') === '1' ? 1 : 0,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    match: params.get('match') === '0' ? 0 : 1,
    rows: parseRows(params.get('rows')),
    text: (params.get('text') ?? '').slice(0, 50),
    exact: params.get('exact') === '1',
    sort: FULL_TEXT_SORTS.find((sort) => sort === params.get('sort')) ?? DEFAULT_FULL_TEXT_SORT,
    catalogId: positiveId(params.get('catalogId')),
    classCode: (params.get('classCode') ?? '').trim().slice(0, 100),
    dynasty: (params.get('dynasty') ?? '').trim().slice(0, 100),
    edition: (params.get('edition') ?? '').trim().slice(0, 200),
  };
}

/** Whether the state holds a search to run (some text typed). */
export function hasQuery(state: AdvancedState): boolean {
  return state.type === 1 ? state.text.trim() !== '' : state.rows.some((row) => row.value.trim() !== '');
}

export function advancedPath(state: AdvancedState): string {
  const params = new URLSearchParams({ type: String(state.type), page: String(state.page) });
  if (state.type === 1) {
    if (state.text) params.set('text', state.text);
    if (state.exact) params.set('exact', '1');
    if (state.sort !== DEFAULT_FULL_TEXT_SORT) params.set('sort', state.sort);
    for (const [key, value] of Object.entries(fullTextFilters(state))) params.set(key, String(value));
  } else if (state.rows.some((row) => row.value.trim() !== '')) {
    params.set('match', String(state.match));
    params.set('rows', JSON.stringify(state.rows));
  }
  return `/AdvancedSearch?${params.toString()}`;
}
