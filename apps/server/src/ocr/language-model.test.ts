import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CharLanguageModel } from './language-model.ts';
import { loadLanguageModel } from './language-model-loader.ts';

const TEXTS = [
  '太史公曰余讀高祖侯功臣',
  '太史公曰學者多稱五帝',
  '太史公曰余登箕山',
  '子曰學而時習之不亦說乎',
  '子曰學而不思則罔',
  '日出而作日入而息',
];

/** Σ over the vocabulary, and an unknown character's share once per unknown kind, of P(c | a b). */
function totalMass(lm: CharLanguageModel, a: number, b: number): number {
  let sum = 0;
  for (let c = 0; c < lm.size; c++) sum += Math.exp(lm.logProb(a, b, c));
  return sum + Math.exp(lm.logProb(a, b, -1));
}

describe('character language model', () => {
  const lm = CharLanguageModel.build(TEXTS);
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-lm-'));
    dirs.push(dir);
    return dir;
  };

  it('prefers the reading the texts support: 太史公曰 over 太史公日, 學而 over 學面', () => {
    expect(lm.meanLogProb('太史公曰')).toBeGreaterThan(lm.meanLogProb('太史公日'));
    const [tai, shi, gong, yue, ri] = [...'太史公曰日'].map((c) => lm.id(c));
    expect(lm.logProb(shi!, gong!, yue!)).toBeGreaterThan(lm.logProb(shi!, gong!, ri!));
    expect(lm.logProb(tai!, shi!, gong!)).toBeGreaterThan(Math.log(0.5));
    expect(lm.meanLogProb('學而')).toBeGreaterThan(lm.meanLogProb('學面'));
  });

  it('is a distribution: the probabilities after any context sum to one', () => {
    const id = (c: string) => lm.id(c);
    for (const [a, b] of [
      [-1, -1],
      [-1, id('曰')],
      [id('公'), id('曰')],
      [id('子'), id('曰')],
      [id('而'), id('日')],
      [id('學'), id('帝')],
    ] as const)
      expect(totalMass(lm, a, b)).toBeCloseTo(1, 6);
  });

  it('counts Han characters only, texts apart (no pair spans two texts)', () => {
    const model = CharLanguageModel.build(['甲乙，甲乙。', '乙丙 ABC', '乙丙']);
    expect(model.tokens).toBe(8);
    expect(model.count('甲')).toBe(2);
    expect(model.count('，')).toBe(0);
    const [jia, yi, bing] = [...'甲乙丙'].map((c) => model.id(c));
    // 甲乙 and 乙丙 twice each; 乙甲 once (across the dropped comma); 丙乙 never (two texts).
    expect(model.logProb(-1, jia!, yi!)).toBeGreaterThan(model.logProb(-1, bing!, yi!));
  });

  it('keeps what it learnt through serialize and deserialize; damaged bytes give no model', () => {
    const copy = CharLanguageModel.deserialize(lm.serialize())!;
    expect(copy.size).toBe(lm.size);
    for (const text of ['太史公曰余', '子曰學而不', '日入而息'])
      expect(copy.meanLogProb(text)).toBeCloseTo(lm.meanLogProb(text), 6);
    expect(CharLanguageModel.deserialize(Buffer.from('not a model'))).toBeUndefined();
    const other = lm.serialize();
    other.write('{"format":99', 4);
    expect(CharLanguageModel.deserialize(other)).toBeUndefined();
  });

  it('is built from folders of JSON, JSON lines and text, simplified files made traditional, and kept once built', () => {
    const dir = tempDir();
    const cache = tempDir();
    fs.writeFileSync(
      path.join(dir, 'a.json'),
      JSON.stringify([{ title: '學而', paragraphs: ['學而時習之'] }]),
    );
    // A simplified file (論語 as the shared classics carry it): counted as 學, 習, 說.
    fs.writeFileSync(path.join(dir, 'b.txt'), '学而时习之，不亦说乎\n学而不思则罔\n');
    fs.writeFileSync(path.join(dir, 'c.jsonl'), `${JSON.stringify({ x: '學而' })}\n`);
    fs.writeFileSync(path.join(dir, 'left-out.txt'), '罔罔罔罔');
    const model = loadLanguageModel({ sources: [dir], exclude: ['left-out'], cacheDir: cache })!;
    expect(model.count('學')).toBe(5);
    expect(model.count('学')).toBe(0);
    expect(model.count('說')).toBe(1);
    expect(model.count('罔')).toBe(1);
    const files = fs.readdirSync(cache);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^ocr-lm-[0-9a-f]{16}\.bin$/);
    // Loaded again from the kept file: the same model.
    const again = loadLanguageModel({ sources: [dir], exclude: ['left-out'], cacheDir: cache })!;
    expect(again.meanLogProb('學而時習')).toBeCloseTo(model.meanLogProb('學而時習'), 9);
    expect(loadLanguageModel({ sources: [path.join(dir, 'missing')], cacheDir: cache })).toBeUndefined();
  });
});
