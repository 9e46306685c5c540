import { describe, expect, it } from 'vitest';
import { decodeCells, traditionalForms, type Candidate } from './decode.ts';
import { CharLanguageModel } from './language-model.ts';

const lm = CharLanguageModel.build([
  '太史公曰余讀高祖侯功臣',
  '太史公曰學者多稱五帝',
  '太史公曰余登箕山',
  '日出而作日入而息',
  '日出而作',
]);
/** A cell the recogniser read as its first candidate with probability 0.6, the second 0.3. */
const cell = (first: string, second?: string): Candidate[] => [
  { char: first, score: Math.log(0.6) },
  ...(second ? [{ char: second, score: Math.log(0.3) }] : []),
];
const read = (cells: Candidate[][], weight = 0.5) =>
  decodeCells(cells, lm, weight)
    .map((choice, i) => cells[i]![choice]?.char ?? '')
    .join('');

describe('decoding cells with the language model', () => {
  it('takes the look-alike the context supports over the recogniser’s first guess', () => {
    expect(read([cell('太'), cell('史'), cell('公'), cell('日', '曰'), cell('余')])).toBe('太史公曰余');
    expect(read([cell('曰', '日'), cell('出'), cell('而'), cell('作')])).toBe('日出而作');
  });

  it('keeps the recogniser’s reading where the context says nothing, or with no weight', () => {
    expect(read([cell('甲', '乙'), cell('丙', '丁')])).toBe('甲丙');
    expect(read([cell('太'), cell('史'), cell('公'), cell('日', '曰')], 0)).toBe('太史公日');
  });

  it('lets a sure reading stand against the context', () => {
    const sure: Candidate[] = [
      { char: '日', score: Math.log(0.999) },
      { char: '曰', score: Math.log(1e-5) },
    ];
    expect(read([cell('太'), cell('史'), cell('公'), sure])).toBe('太史公日');
  });

  it('passes over cells without candidates, and reads a single cell', () => {
    expect(decodeCells([[], cell('日', '曰'), []], lm, 0.5)).toEqual([0, 0, 0]);
    expect(read([cell('公', '曰')])).toBe('公');
  });
});

describe('traditional forms of a recognised character', () => {
  it('lists every traditional character OpenCC simplifies to it', () => {
    expect(traditionalForms('赞')).toEqual(expect.arrayContaining(['贊', '讚']));
    expect(traditionalForms('峰')).toContain('峯');
    expect(traditionalForms('却')).toContain('卻');
    expect(traditionalForms('學')).toEqual([]);
  });
});
