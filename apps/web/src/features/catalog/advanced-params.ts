import { ADVANCED_FIELDS, type AdvancedField } from '@guji/shared';

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
  } else if (state.rows.some((row) => row.value.trim() !== '')) {
    params.set('match', String(state.match));
    params.set('rows', JSON.stringify(state.rows));
  }
  return `/AdvancedSearch?${params.toString()}`;
}
