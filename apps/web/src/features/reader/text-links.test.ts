import { describe, expect, it } from 'vitest';
import type { OcrJson, OcrWord } from '@guji/shared';
import { correctionRange, wordAtPoint, wordBox, wordKey, wordsInBoxes } from './text-links.ts';

/** A character 40 px square at (left, top), recognised for sure. */
function char(word: string, left: number, top: number, type: OcrWord['type'] = 'text'): OcrWord {
  return {
    word,
    type,
    confidence: 1,
    points: { left, top, right: left + 40, bottom: top + 40 },
    fontSize: 40,
  };
}

/** Two columns read right to left: 子曰 at x 200, 學而 at x 100; a header line that is not body text. */
function page(): OcrJson {
  return {
    imginfo: { width: 300, height: 400 },
    ocr_res: {
      header: [{ words: [char('卷', 10, 10)] }],
      footer: [],
      middleSeam: [],
      content: [
        { words: [char('子', 200, 100), char('曰', 200, 150)] },
        { words: [] },
        { words: [char('學', 100, 100), char('而', 100, 150, 'note')] },
      ],
      others: [],
    },
  };
}

describe('character keys', () => {
  it('name a character by its line and place in the body text', () => {
    expect(wordKey(0, 1)).toBe('0:1');
    expect(wordKey(12, 0)).toBe('12:0');
  });

  it('give the box of a character on the image, or null for none', () => {
    const ocr = page();
    expect(wordBox(ocr, wordKey(2, 1))).toEqual({ left: 100, top: 150, right: 140, bottom: 190 });
    expect(wordBox(ocr, wordKey(0, 2))).toBeNull();
    expect(wordBox(ocr, wordKey(5, 0))).toBeNull();
    expect(wordBox(ocr, 'header:0')).toBeNull();
    expect(wordBox(ocr, '')).toBeNull();
  });
});

describe('the character under a point of the image', () => {
  it('is the character whose box holds the point, notes included', () => {
    const ocr = page();
    expect(wordAtPoint(ocr, { x: 220, y: 120 })).toBe('0:0');
    expect(wordAtPoint(ocr, { x: 200, y: 190 })).toBe('0:1');
    expect(wordAtPoint(ocr, { x: 120, y: 170 })).toBe('2:1');
  });

  it('is the nearest one within half a character size when the point falls between boxes', () => {
    const ocr = page();
    // 3 px under 子 and 7 px above 曰, then the other way round.
    expect(wordAtPoint(ocr, { x: 220, y: 143 })).toBe('0:0');
    expect(wordAtPoint(ocr, { x: 220, y: 147 })).toBe('0:1');
    // 15 px right of 學 (half a character is 20 px).
    expect(wordAtPoint(ocr, { x: 155, y: 110 })).toBe('2:0');
  });

  it('is none farther off than half a character, and none on the header', () => {
    const ocr = page();
    // 30 px off both 學 and 子, half a character being 20 px.
    expect(wordAtPoint(ocr, { x: 170, y: 120 })).toBeNull();
    expect(wordAtPoint(ocr, { x: 220, y: 300 })).toBeNull();
    expect(wordAtPoint(ocr, { x: 20, y: 20 })).toBeNull();
  });

  it('finds its character among a thousand in any column', () => {
    const ocr = page();
    ocr.ocr_res.content = Array.from({ length: 40 }, (_, l) => ({
      words: Array.from({ length: 25 }, (_, w) => char('字', 2000 - l * 50, w * 50)),
    }));
    expect(wordAtPoint(ocr, { x: 2000 - 17 * 50 + 5, y: 21 * 50 + 39 })).toBe('17:21');
    expect(wordAtPoint(ocr, { x: 2000 - 39 * 50 + 43, y: 5 })).toBe('39:0');
  });
});

describe('the characters under search hits', () => {
  it('are those whose boxes the hit boxes cover', () => {
    const ocr = page();
    const boxes = [wordBox(ocr, '0:1')!, wordBox(ocr, '2:0')!];
    expect(wordsInBoxes(ocr, boxes)).toEqual(new Set(['0:1', '2:0']));
  });

  it('take every character inside one box drawn round several', () => {
    const ocr = page();
    expect(wordsInBoxes(ocr, [{ left: 190, top: 90, right: 250, bottom: 200 }])).toEqual(
      new Set(['0:0', '0:1']),
    );
  });

  it('leave out neighbours a box only touches or grazes, and the header', () => {
    const ocr = page();
    // 子's box grown by 12 px downwards reaches 2 px into 曰.
    expect(wordsInBoxes(ocr, [{ left: 200, top: 100, right: 240, bottom: 152 }])).toEqual(new Set(['0:0']));
    expect(wordsInBoxes(ocr, [{ left: 140, top: 100, right: 200, bottom: 190 }])).toEqual(new Set());
    expect(wordsInBoxes(ocr, [{ left: 10, top: 10, right: 50, bottom: 50 }])).toEqual(new Set());
    expect(wordsInBoxes(ocr, [])).toEqual(new Set());
  });
});

describe('the characters a reader corrects', () => {
  it('are the selection when it is one unbroken run of one column, in reading order', () => {
    expect(correctionRange(page(), ['0:1', '0:0'], null)).toEqual({ line: 0, start: 0, original: '子曰' });
    expect(correctionRange(page(), ['2:1'], '0:0')).toEqual({ line: 2, start: 1, original: '而' });
  });

  it('are the tapped character when nothing is selected', () => {
    expect(correctionRange(page(), [], '2:0')).toEqual({ line: 2, start: 0, original: '學' });
  });

  it('are none across columns, with a gap, or with nothing chosen', () => {
    expect(correctionRange(page(), ['0:1', '2:0'], null)).toBeNull();
    expect(correctionRange(page(), [], null)).toBeNull();
    expect(correctionRange(page(), ['0:0', '0:5'], null)).toBeNull();
    expect(correctionRange(page(), ['x'], null)).toBeNull();
  });
});
