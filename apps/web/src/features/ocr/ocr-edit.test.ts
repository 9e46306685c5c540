import { describe, expect, it } from 'vitest';
import type { OcrJson } from '@guji/shared';
import { mergeWithNext, moveColumn, removeCell, setCharacter, setNote, splitCell } from './ocr-edit.ts';

const word = (w: string, top: number, confidence = 0.9) => ({
  word: w,
  type: 'text' as const,
  confidence,
  points: { left: 100, top, right: 120, bottom: top + 20 },
  fontSize: 20,
});
const page = (): OcrJson => ({
  imginfo: { width: 200, height: 200 },
  ocr_res: {
    header: [],
    footer: [],
    middleSeam: [],
    content: [{ words: [word('子', 0), word('日', 20, 0.4), word('學', 40)] }, { words: [word('而', 0)] }],
    others: [],
  },
});
const text = (ocr: OcrJson) => ocr.ocr_res.content.map((l) => l.words.map((w) => w.word).join(''));

describe('proofreading edits', () => {
  it('corrects a character, which is then certain, without touching the original', () => {
    const before = page();
    const after = setCharacter(before, { line: 0, index: 1 }, '曰');
    expect(text(after)).toEqual(['子曰學', '而']);
    expect(after.ocr_res.content[0]!.words[1]!.confidence).toBe(1);
    expect(text(before)).toEqual(['子日學', '而']);
    expect(setCharacter(before, { line: 0, index: 1 }, '  ')).toBe(before);
  });

  it('merges two cells into one box and splits a cell into two halves', () => {
    const merged = mergeWithNext(page(), { line: 0, index: 0 });
    expect(text(merged)).toEqual(['子學', '而']);
    expect(merged.ocr_res.content[0]!.words[0]!.points).toEqual({
      left: 100,
      top: 0,
      right: 120,
      bottom: 40,
    });
    expect(merged.ocr_res.content[0]!.words[0]!.confidence).toBe(0.4);
    const split = splitCell(page(), { line: 0, index: 2 });
    expect(text(split)).toEqual(['子日學〇', '而']);
    expect(split.ocr_res.content[0]!.words.slice(2).map((w) => [w.points.top, w.points.bottom])).toEqual([
      [40, 50],
      [50, 60],
    ]);
  });

  it('moves columns in reading order and removes cells, dropping an emptied column', () => {
    expect(text(moveColumn(page(), 1, -1))).toEqual(['而', '子日學']);
    expect(text(moveColumn(page(), 0, -1))).toEqual(['子日學', '而']);
    expect(text(removeCell(page(), { line: 1, index: 0 }))).toEqual(['子日學']);
    expect(setNote(page(), { line: 0, index: 2 }, true).ocr_res.content[0]!.words[2]!.type).toBe('note');
  });
});
