import { describe, expect, it } from 'vitest';
import type { Box, Grey } from './geometry.ts';
import { cropGrey, sheetsOf } from './sheets.ts';

/** A blank mask (1 = ink) of w × h with ink where the boxes are and along the lines given. */
function sheet(w: number, h: number, boxes: Box[], lines: Box[] = []): Grey {
  const data = new Uint8Array(w * h);
  for (const b of [...boxes, ...lines])
    for (let y = b.top; y < b.bottom; y++) for (let x = b.left; x < b.right; x++) data[y * w + x] = 1;
  return { width: w, height: h, data };
}

/** The columns of one reduced page: `n` boxes `cw` wide, a column's width apart, from (x, y). */
function page(x: number, y: number, n: number, cw: number, tall: number): Box[] {
  return Array.from({ length: n }, (_, i) => ({
    left: x + i * cw * 1.5,
    right: x + i * cw * 1.5 + cw,
    top: y,
    bottom: y + tall,
  }));
}

describe('pages of a sheet (a facsimile of several reduced leaves)', () => {
  const cw = 10;
  it('splits a sheet of 2 × 2 pages and gives them upper right, upper left, lower right, lower left', () => {
    // Pages of 8 columns (10 px wide, 15 px apart) 200 px tall, 40 px of paper (2.7 pitches) between them.
    const boxes = [...page(20, 20, 8, cw, 200), ...page(175, 20, 8, cw, 200)];
    boxes.push(...boxes.map((b) => ({ ...b, top: b.top + 240, bottom: b.bottom + 240 })));
    const sheets = sheetsOf(boxes, sheet(320, 480, boxes), cw);
    expect(sheets).toHaveLength(4);
    const centre = (b: Box) => [
      (b.left + b.right) / 2 > 160 ? 'right' : 'left',
      (b.top + b.bottom) / 2 < 240 ? 'upper' : 'lower',
    ];
    expect(sheets.map(centre)).toEqual([
      ['right', 'upper'],
      ['left', 'upper'],
      ['right', 'lower'],
      ['left', 'lower'],
    ]);
    // Together the pages cover the sheet, each with its margins up to the middle of the gutter.
    expect(sheets.reduce((sum, b) => sum + (b.right - b.left) * (b.bottom - b.top), 0)).toBe(320 * 480);
  });

  it('leaves one page whole: gaps between columns, a blank column, a rule across the gap', () => {
    const one = page(20, 20, 16, cw, 400);
    expect(sheetsOf(one, sheet(300, 440, one), cw)).toHaveLength(1);
    // Two blocks of columns with a blank ruled column between them: the rules ink the gap.
    const blocks = [...page(20, 20, 8, cw, 400), ...page(175, 20, 8, cw, 400)];
    const rules = [135, 155].map((x) => ({ left: x, right: x + 1, top: 10, bottom: 430 }));
    expect(sheetsOf(blocks, sheet(320, 440, blocks, rules), cw)).toHaveLength(1);
    // …and with no rules, two pages side by side, the right one first.
    const two = sheetsOf(blocks, sheet(320, 440, blocks), cw);
    expect(two.map((b) => b.left > 100)).toEqual([true, false]);
    // A line of text that runs across the gap joins the two.
    const title = { left: 20, right: 300, top: 20, bottom: 30 };
    expect(sheetsOf([...blocks, title], sheet(320, 440, [...blocks, title]), cw)).toHaveLength(1);
  });

  it('does not cut off a strip smaller than a page (a heading above the text)', () => {
    const heading = { left: 20, right: 200, top: 10, bottom: 30 };
    const body = page(20, 80, 12, cw, 360);
    const all = [heading, ...body];
    expect(sheetsOf(all, sheet(220, 460, all), cw)).toHaveLength(1);
  });

  it('crops a part of a grey image as an image of its own', () => {
    const grey: Grey = { width: 4, height: 3, data: Uint8Array.from({ length: 12 }, (_, i) => i) };
    expect(cropGrey(grey, { left: 1, top: 1, right: 3, bottom: 3 })).toEqual({
      width: 2,
      height: 2,
      data: Uint8Array.from([5, 6, 9, 10]),
    });
  });
});
