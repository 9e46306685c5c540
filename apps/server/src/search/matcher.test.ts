import { describe, expect, it } from 'vitest';
import { parseSearchQuery } from '@guji/shared';
import { compileQuery } from './query.ts';
import { matchPage, mergeRanges } from './matcher.ts';
import { findAllMatches, tokenChars } from './text-index.ts';

const match = (query: string, text: string, exact = false) => {
  const parsed = parseSearchQuery(query);
  if (!parsed.ok) throw new Error(parsed.message);
  return matchPage(text, compileQuery(parsed.query, exact));
};
/** The highlighted characters of a match. */
const marked = (text: string, result: ReturnType<typeof match>) =>
  (result?.ranges ?? []).map((r) => [...text].slice(r.start, r.start + r.length).join(''));

describe('matching a query on a page', () => {
  it('matches one term as the index does: folded, punctuation skipped, counted without overlaps', () => {
    const text = '子曰：學而時習之，學而不思則罔。學學學';
    expect(match('学而', text)).toEqual({ occurrences: 2, ranges: findAllMatches(text, tokenChars('学而')) });
    expect(marked(text, match('曰學', text))).toEqual(['曰：學']);
    // 學學學 holds 學學 once (no overlaps), like findAllMatches.
    expect(match('學學', text)?.occurrences).toBe(findAllMatches(text, tokenChars('學學')).length);
    expect(match('孟子', text)).toBeNull();
  });

  it('needs every term for AND, one for OR, counting each match of each term found', () => {
    const text = '子曰學而時習之子曰巧言令色';
    expect(match('子曰 學而', text)).toMatchObject({ occurrences: 3 });
    expect(match('子曰 孟子', text)).toBeNull();
    expect(match('孟子 OR 巧言', text)).toMatchObject({ occurrences: 1 });
    expect(match('孟子 | 荀子', text)).toBeNull();
    // The same match found by two terms counts once; overlapping highlights merge.
    expect(match('子曰 子曰', text)?.occurrences).toBe(2);
    expect(marked(text, match('子曰 曰學', text))).toEqual(['子曰學', '子曰']);
  });

  it('excludes pages holding a NOT term', () => {
    expect(match('子曰 -曾子', '子曰學而')).toMatchObject({ occurrences: 1 });
    expect(match('子曰 NOT 曾子', '子曰學而曾子曰')).toBeNull();
  });

  it('counts for NEAR the first term’s matches with the second at most n characters away', () => {
    // 子曰 at 0 and 9; 學 at 2 (none between) and 15 (4 between the second 子曰 and it).
    const text = '子曰學而時習之不亦子曰有朋自遠學';
    expect(match('子曰 NEAR/1 學', text)).toMatchObject({ occurrences: 1 });
    expect(marked(text, match('子曰 NEAR/1 學', text))).toEqual(['子曰', '學']);
    expect(match('子曰 NEAR/3 學', text)?.occurrences).toBe(1);
    expect(match('子曰 NEAR/4 學', text)?.occurrences).toBe(2);
    // The second term before the first counts too; punctuation is not a character between.
    expect(match('學 NEAR/1 時習', '時習，，，之學')?.occurrences).toBe(1);
    expect(match('學 NEAR/1 有朋', text)).toBeNull();
    // A term near itself needs a second match.
    expect(match('子曰 NEAR/10 子曰', text)?.occurrences).toBe(2);
    expect(match('子曰 NEAR/5 子曰', text)).toBeNull();
  });

  it('compares the characters as typed with exact on, folded without', () => {
    expect(match('学而', '學而時習')).not.toBeNull();
    expect(match('学而', '學而時習', true)).toBeNull();
    expect(match('學而', '學而時習', true)).toMatchObject({ occurrences: 1 });
    // 爲 and 為 are variants: alike folded, apart exact.
    expect(match('為政', '爲政以德')).not.toBeNull();
    expect(match('為政', '爲政以德', true)).toBeNull();
  });

  it('keeps positions in code points beyond the basic plane', () => {
    const text = '𠀀𠀁天地，玄黃𠀀天';
    expect(marked(text, match('𠀀天', text))).toEqual(['𠀀天']);
    expect(marked(text, match('地玄', text))).toEqual(['地，玄']);
    expect(match('𠀁天 NEAR/3 𠀀', text)?.occurrences).toBe(1);
  });

  it('merges overlapping ranges only', () => {
    expect(
      mergeRanges([
        { start: 5, length: 2 },
        { start: 0, length: 3 },
        { start: 2, length: 2 },
        { start: 7, length: 1 },
      ]),
    ).toEqual([
      { start: 0, length: 4 },
      { start: 5, length: 2 },
      { start: 7, length: 1 },
    ]);
  });
});
