import { describe, expect, it } from 'vitest';
import type { OcrJson, OcrWord } from '@guji/shared';
import { charClassName, confidenceClass, OCR_FONT_SCALE, pageText } from './ocr-text-pane.tsx';

function word(text: string, type: OcrWord['type'] = 'text', confidence = 1): OcrWord {
  return { word: text, type, confidence, points: { left: 0, top: 0, right: 10, bottom: 10 }, fontSize: 10 };
}

function lines(...columns: OcrWord[][]): OcrJson {
  return {
    imginfo: { width: 100, height: 100 },
    ocr_res: {
      header: [{ words: [word('卷')] }],
      footer: [],
      middleSeam: [{ words: [word('論語')] }],
      content: columns.map((words) => ({ words })),
      others: [],
    },
  };
}

describe('text pane constants of spec §9', () => {
  it('colours confidence at or below 0.5 red and up to 0.7 yellow', () => {
    expect(confidenceClass(0.3)).toBe('ocr-low');
    expect(confidenceClass(0.5)).toBe('ocr-low');
    expect(confidenceClass(0.51)).toBe('ocr-mid');
    expect(confidenceClass(0.7)).toBe('ocr-mid');
    expect(confidenceClass(0.71)).toBeUndefined();
    expect(confidenceClass(1)).toBeUndefined();
  });

  it('draws the text at 0.7 of its size', () => {
    expect(OCR_FONT_SCALE).toBe(0.7);
  });
});

describe('a character of the text pane', () => {
  it('is marked as note, by confidence and as a search hit', () => {
    expect(charClassName('reading-char', word('子'), false)).toBe('reading-char');
    expect(charClassName('layout-char', word('曰', 'note', 0.6), true)).toBe(
      'layout-char ocr-note ocr-mid is-hit',
    );
    expect(charClassName('reading-char', word('學', 'text', 0.2), false)).toBe('reading-char ocr-low');
  });
});

describe('复制全文', () => {
  const page = lines(
    [word('學'), word('而'), word('第'), word('一')],
    [],
    [word('子'), word('曰'), word('說', 'note')],
  );

  it('copies the body text column by column in reading order, notes included, no header or seam', () => {
    expect(pageText(page, null)).toBe('學而第一\n子曰說');
  });

  it('copies the characters as shown while 简体显示 converts them', () => {
    const simplified: Record<string, string> = { 學: '学', 說: '说' };
    expect(pageText(page, (text) => simplified[text] ?? text)).toBe('学而第一\n子曰说');
  });

  it('copies nothing from a page without body text', () => {
    expect(pageText(lines(), null)).toBe('');
  });
});
