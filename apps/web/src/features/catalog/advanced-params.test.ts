import { describe, expect, it } from 'vitest';
import { advancedPath, fullTextFilters, hasQuery, parseAdvancedParams } from './advanced-params.ts';

const NO_FULL_TEXT_OPTIONS = {
  exact: false,
  sort: 'relevance' as const,
  catalogId: null,
  classCode: '',
  dynasty: '',
  edition: '',
};

describe('advanced search address', () => {
  it('round-trips type, page, match mode, rows and the full-text query', () => {
    const state = {
      type: 0 as const,
      page: 3,
      match: 0 as const,
      rows: [
        { key: 'title' as const, value: '論語', type: 0 as const },
        { key: 'author' as const, value: '朱熹', type: 1 as const },
      ],
      text: '',
      ...NO_FULL_TEXT_OPTIONS,
    };
    expect(parseAdvancedParams(new URL(advancedPath(state), 'http://x').searchParams)).toEqual(state);
    const fullText = {
      ...state,
      type: 1 as const,
      page: 2,
      text: '学而时习',
      match: 1 as const,
      rows: [{ key: 'title' as const, value: '', type: 0 as const }],
    };
    expect(parseAdvancedParams(new URL(advancedPath(fullText), 'http://x').searchParams)).toEqual(fullText);
  });

  it('falls back to one empty title row, page 1, fuzzy mode, book search on anything odd', () => {
    const state = parseAdvancedParams(new URLSearchParams('type=9&page=-2&match=7&rows=%7Bbad'));
    expect(state).toEqual({
      type: 0,
      page: 1,
      match: 1,
      rows: [{ key: 'title', value: '', type: 0 }],
      text: '',
      ...NO_FULL_TEXT_OPTIONS,
    });
    expect(hasQuery(state)).toBe(false);
    const rows = parseAdvancedParams(
      new URLSearchParams(
        `rows=${encodeURIComponent('[{"key":"x","value":"a"},{"key":"author","value":"b","type":1}]')}`,
      ),
    ).rows;
    expect(rows).toEqual([{ key: 'author', value: 'b', type: 1 }]);
  });
});

describe('full-text options in the address', () => {
  it('round-trips the exact switch, the order and the filters, leaving defaults out', () => {
    const base = parseAdvancedParams(new URLSearchParams('type=1&text=' + encodeURIComponent('子曰 學而')));
    expect(base).toMatchObject({ type: 1, text: '子曰 學而', ...NO_FULL_TEXT_OPTIONS });
    expect(advancedPath(base)).toBe(
      `/AdvancedSearch?type=1&page=1&text=${encodeURIComponent('子曰 學而').replace(/%20/g, '+')}`,
    );
    const full = {
      ...base,
      page: 2,
      exact: true,
      sort: 'title' as const,
      catalogId: 12,
      classCode: 'JING.SISHU',
      dynasty: '戰國',
      edition: '明刻本',
    };
    expect(parseAdvancedParams(new URL(advancedPath(full), 'http://x').searchParams)).toEqual(full);
    expect(fullTextFilters(full)).toEqual({
      catalogId: 12,
      classCode: 'JING.SISHU',
      dynasty: '戰國',
      edition: '明刻本',
    });
    expect(fullTextFilters(base)).toEqual({});
  });

  it('ignores an unknown order and a malformed book id', () => {
    expect(parseAdvancedParams(new URLSearchParams('type=1&sort=size&catalogId=x1'))).toMatchObject({
      sort: 'relevance',
      catalogId: null,
    });
  });
});
