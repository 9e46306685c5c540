import { describe, expect, it } from 'vitest';
import { isSingleTerm, parseSearchQuery, positiveTerms, QUERY_MSG } from './search-query.ts';

const clauses = (text: string) => {
  const result = parseSearchQuery(text);
  if (!result.ok) throw new Error(result.message);
  return result.query.clauses;
};
const error = (text: string) => {
  const result = parseSearchQuery(text);
  return result.ok ? null : result.message;
};

describe('full-text query syntax', () => {
  it('keeps a single bare term a phrase, punctuation and all', () => {
    expect(clauses('學而時習')).toEqual([{ kind: 'any', terms: ['學而時習'] }]);
    expect(clauses('子曰：學而')).toEqual([{ kind: 'any', terms: ['子曰：學而'] }]);
    expect(isSingleTerm({ clauses: clauses('學而') })).toBe(true);
    expect(isSingleTerm({ clauses: clauses('學而 時習') })).toBe(false);
  });

  it('reads space-separated terms as AND, with ideographic spaces too', () => {
    expect(clauses('子曰 學而')).toEqual([
      { kind: 'any', terms: ['子曰'] },
      { kind: 'any', terms: ['學而'] },
    ]);
    expect(clauses('子曰\u3000學而')).toHaveLength(2);
  });

  it('reads AND as the space it stands for, as the syntax help says (issue 32)', () => {
    expect(clauses('君子 AND 小人')).toEqual(clauses('君子 小人'));
    expect(clauses('君子 AND 小人 OR 孟子')).toEqual(clauses('君子 小人 OR 孟子'));
    // Lower case is a word, and inside quotes AND is text.
    expect(clauses('君子 and')).toEqual([
      { kind: 'any', terms: ['君子'] },
      { kind: 'any', terms: ['and'] },
    ]);
    expect(clauses('"君子 AND 小人"')).toEqual([{ kind: 'any', terms: ['君子 AND 小人'] }]);
  });

  it('reads straight and curly quotes as one phrase, spaces inside kept in the term', () => {
    expect(clauses('"學而 時習"')).toEqual([{ kind: 'any', terms: ['學而 時習'] }]);
    expect(clauses('“學而時習” 子曰')).toEqual([
      { kind: 'any', terms: ['學而時習'] },
      { kind: 'any', terms: ['子曰'] },
    ]);
    // Operators inside quotes are text.
    expect(clauses('"子曰 OR 孟子"')).toEqual([{ kind: 'any', terms: ['子曰 OR 孟子'] }]);
    expect(error('"學而時習')).toBe(QUERY_MSG.unpairedQuote);
    expect(error('學而”')).toBe(QUERY_MSG.unpairedQuote);
  });

  it('reads OR and | as either, binding tighter than AND', () => {
    expect(clauses('子曰 OR 孟子')).toEqual([{ kind: 'any', terms: ['子曰', '孟子'] }]);
    expect(clauses('子曰|孟子｜荀子')).toEqual([{ kind: 'any', terms: ['子曰', '孟子', '荀子'] }]);
    expect(clauses('仁 子曰 OR 孟子')).toEqual([
      { kind: 'any', terms: ['仁'] },
      { kind: 'any', terms: ['子曰', '孟子'] },
    ]);
    // Lower case is a word like any other.
    expect(clauses('子曰 or 孟子')).toHaveLength(3);
    expect(error('OR 孟子')).toBe(QUERY_MSG.orOperands);
    expect(error('孟子 |')).toBe(QUERY_MSG.orOperands);
  });

  it('reads -term and NOT term as without, and refuses a query of exclusions only', () => {
    expect(clauses('子曰 -曾子')).toEqual([
      { kind: 'any', terms: ['子曰'] },
      { kind: 'not', term: '曾子' },
    ]);
    expect(clauses('子曰 NOT 曾子')).toEqual(clauses('子曰 -曾子'));
    expect(clauses('子曰 -"曾子曰"')).toEqual([
      { kind: 'any', terms: ['子曰'] },
      { kind: 'not', term: '曾子曰' },
    ]);
    expect(error('-曾子')).toBe(QUERY_MSG.onlyExcluded);
    expect(error('NOT 曾子 -孟子')).toBe(QUERY_MSG.onlyExcluded);
    expect(error('子曰 NOT')).toBe(QUERY_MSG.notOperand);
    expect(error('子曰 -曾子 OR 孟子')).toBe(QUERY_MSG.notCombined);
    expect(error('子曰 OR -曾子')).toBe(QUERY_MSG.notCombined);
    // A dash inside a word is punctuation of the term.
    expect(clauses('子-曰')).toEqual([{ kind: 'any', terms: ['子-曰'] }]);
  });

  it('reads NEAR/n between two terms, n from 1 to 100', () => {
    expect(clauses('子曰 NEAR/10 學')).toEqual([{ kind: 'near', terms: ['子曰', '學'], distance: 10 }]);
    expect(clauses('仁 子曰 NEAR/1 學')).toEqual([
      { kind: 'any', terms: ['仁'] },
      { kind: 'near', terms: ['子曰', '學'], distance: 1 },
    ]);
    expect(clauses('子曰 NEAR/100 學')[0]).toMatchObject({ distance: 100 });
    for (const bad of ['子曰 NEAR/0 學', '子曰 NEAR/101 學', '子曰 NEAR/x 學', '子曰 NEAR 學'])
      expect(error(bad), bad).toBe(QUERY_MSG.nearDistance);
    expect(error('NEAR/5 學')).toBe(QUERY_MSG.nearOperands);
    expect(error('子曰 NEAR/5')).toBe(QUERY_MSG.nearOperands);
    expect(error('甲 NEAR/5 乙 NEAR/5 丙')).toBe(QUERY_MSG.nearOperands);
    expect(error('甲 OR 乙 NEAR/5 丙')).toBe(QUERY_MSG.nearOperands);
  });

  it('leaves out terms of punctuation alone', () => {
    expect(clauses('，。')).toEqual([]);
    expect(clauses('子曰 ， -。')).toEqual([{ kind: 'any', terms: ['子曰'] }]);
    expect(positiveTerms({ clauses: clauses('甲 乙|丙 丁 NEAR/3 戊 -己') })).toEqual([
      '甲',
      '乙',
      '丙',
      '丁',
      '戊',
    ]);
  });
});
