import { describe, expect, it } from 'vitest';
import { advancedPath, hasQuery, parseAdvancedParams } from './advanced-params.ts';

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
