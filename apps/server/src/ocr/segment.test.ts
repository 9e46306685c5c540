import { describe, expect, it } from 'vitest';
import { analyse } from './segment.ts';
import type { Box } from './segment-common.ts';

/** A blank page as an ink mask (1 = ink) with helpers to draw on it. */
function page(width: number, height: number) {
  const mask = new Uint8Array(width * height);
  const fill = (left: number, top: number, right: number, bottom: number) => {
    for (let y = top; y < bottom; y++) mask.fill(1, y * width + left, y * width + right);
  };
  /** A frame: lines 3 px thick round the box. */
  const frame = (box: Box) => {
    fill(box.left, box.top, box.right, box.top + 3);
    fill(box.left, box.bottom - 3, box.right, box.bottom);
    fill(box.left, box.top, box.left + 3, box.bottom);
    fill(box.right - 3, box.top, box.right, box.bottom);
  };
  /**
   * A column of square characters 24 px wide, 6 px apart, from `top` down, centred on x. (Solid: a
   * column of them must not be inked down half the page, or it would pass for a ruled line.)
   */
  const column = (x: number, top: number, count: number) => {
    for (let k = 0; k < count; k++) fill(x - 12, top + k * 30, x + 12, top + k * 30 + 24);
  };
  return { mask, fill, frame, column };
}

describe('layout of a page', () => {
  it('reads a frame crossed by a rule as two registers: the upper one first, each right to left', () => {
    const { mask, fill, frame, column } = page(300, 500);
    frame({ left: 20, top: 20, right: 280, bottom: 480 });
    // The rule between the registers, from side to side.
    fill(20, 248, 280, 251);
    // Upper register: columns at x 240, 190, 140; lower register: at 220, 160, 100, 60 (other places).
    for (const x of [240, 190, 140]) column(x, 35, 5);
    for (const x of [220, 160, 100, 60]) column(x, 265, 5);
    const { columns } = analyse(mask, 300, 500);
    const centres = columns.map((c) => Math.round((c.box.left + c.box.right) / 2));
    expect(columns).toHaveLength(7);
    expect(centres.slice(0, 3).map((x) => Math.round(x / 10) * 10)).toEqual([240, 190, 140]);
    expect(centres.slice(3).map((x) => Math.round(x / 10) * 10)).toEqual([220, 160, 100, 60]);
    for (const c of columns.slice(0, 3)) expect(c.box.bottom).toBeLessThanOrEqual(248);
    for (const c of columns.slice(3)) expect(c.box.top).toBeGreaterThanOrEqual(251);
    expect(columns.every((c) => c.cells.length === 5)).toBe(true);
  });

  it('reads nothing above a frame that a line at the paper’s edge seems to enclose', () => {
    const { mask, fill, frame, column } = page(300, 500);
    // The paper's top edge: a line across most of the image, with a blot below it, outside the frame.
    fill(10, 8, 290, 11);
    fill(120, 30, 160, 60);
    frame({ left: 20, top: 90, right: 280, bottom: 480 });
    for (const x of [240, 190, 140, 90]) column(x, 110, 10);
    const { columns } = analyse(mask, 300, 500);
    expect(columns).toHaveLength(4);
    expect(columns.every((c) => c.box.top >= 90 && c.cells.length === 10)).toBe(true);
  });

  it('drops what a thick frame line leaves at a column’s end, keeps a flat character with a margin', () => {
    const { mask, fill, frame, column } = page(300, 400);
    frame({ left: 20, top: 20, right: 280, bottom: 380 });
    for (const x of [240, 190, 140, 90]) column(x, 40, 6);
    // The frame line swells down into the first column (ink from the line on, 5 px deep).
    fill(226, 23, 254, 28);
    // 一 at the foot of the second column, a margin above the frame line.
    fill(179, 340, 201, 345);
    const { columns } = analyse(mask, 300, 400);
    expect(columns).toHaveLength(4);
    expect(columns[0]!.cells).toHaveLength(6);
    expect(columns[0]!.cells[0]!.top).toBeGreaterThanOrEqual(40);
    expect(columns[1]!.cells).toHaveLength(7);
    expect(columns[1]!.cells.at(-1)!.top).toBeGreaterThanOrEqual(340);
  });

  it('drops what a rule across the top leaves in each column where the frame is the ink’s extent, keeps 一 of the text', () => {
    const { mask, fill, column } = page(300, 400);
    // No drawn box: a rule across the text's top with a speck above it (so the frame, the ink's extent,
    // begins above the rule and the rule's pieces do not touch the columns' ends).
    fill(150, 10, 153, 13);
    fill(40, 60, 270, 66);
    for (const x of [240, 190, 140, 90]) column(x, 130, 6);
    // 一 heading the third column, a character above where the others begin: a stroke, not a line.
    fill(128, 100, 152, 104);
    const { columns } = analyse(mask, 300, 400);
    expect(columns).toHaveLength(4);
    expect(columns.map((c) => c.cells.length)).toEqual([6, 6, 7, 6]);
    expect(columns.every((c) => c.cells[0]!.top >= 66)).toBe(true);
  });

  it('cuts two touching characters of a short written hand apart, where the stroke between them is thinnest', () => {
    const { mask, fill } = page(300, 400);
    // Four columns of characters 24 px wide and 16 high, 8 px apart; in the second, the third and fourth
    // characters touch through a thin stroke (a run of 34 px: less than two column widths).
    for (const x of [240, 190, 140, 90])
      for (let k = 0; k < 6; k++) {
        const top = 60 + k * 24 - (x === 190 && k === 3 ? 6 : 0);
        fill(x - 12, top, x + 12, top + 16);
      }
    fill(189, 60 + 2 * 24 + 16, 191, 60 + 2 * 24 + 18);
    const { columns } = analyse(mask, 300, 400);
    expect(columns.map((c) => c.cells.length)).toEqual([6, 6, 6, 6]);
    const [, , third, fourth] = columns[1]!.cells;
    expect(third!.bottom).toBeGreaterThanOrEqual(60 + 2 * 24 + 16);
    expect(fourth!.top).toBeLessThanOrEqual(60 + 2 * 24 + 18);
  });

  it('finds a faint side of the frame that leans, and reads the columns beside it', () => {
    const { mask, fill } = page(1000, 1500);
    // Top and bottom lines, a solid right side, and a left side 2 px wide that leans 3 px over its
    // height: at no single x is it inked down half the image.
    fill(50, 100, 950, 104);
    fill(50, 1396, 950, 1400);
    fill(946, 100, 950, 1400);
    for (let y = 100; y < 1400; y++)
      fill(52 + Math.floor(((y - 100) * 4) / 1300), y, 54 + Math.floor(((y - 100) * 4) / 1300), y + 1);
    // Two rules, and a column of six characters between each pair of lines.
    fill(349, 104, 352, 1396);
    fill(649, 104, 652, 1396);
    for (const x of [800, 500, 200])
      for (let k = 0; k < 6; k++) fill(x - 40, 150 + k * 110, x + 40, 230 + k * 110);
    const { columns } = analyse(mask, 1000, 1500);
    expect(columns.map((c) => Math.round((c.box.left + c.box.right) / 200) * 100)).toEqual([800, 500, 200]);
    expect(columns.every((c) => c.cells.length === 6)).toBe(true);
  });
});
