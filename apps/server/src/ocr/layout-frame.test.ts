import { describe, expect, it } from 'vitest';
import { registersOf } from './layout-frame.ts';

describe('registers (上下欄) of a ruled page', () => {
  const frame = { left: 0, top: 0, right: 1000, bottom: 1400 };
  const rule = { left: 0, right: 1000, top: 698, bottom: 702 };
  const column = (x: number, top: number, bottom: number) => ({
    left: x,
    right: x + 80,
    top,
    bottom,
    score: 1,
  });
  const cw = 100;

  it('cuts the frame at a rule across it when the text stops at the rule', () => {
    const boxes = [
      column(100, 20, 680),
      column(300, 20, 690),
      column(100, 720, 1380),
      column(300, 730, 1300),
    ];
    const registers = registersOf(frame, { vertical: [], horizontal: [rule] }, boxes, cw);
    expect(registers.map((r) => [r.top, r.bottom])).toEqual([
      [-Infinity, 700],
      [700, Infinity],
    ]);
  });

  it("does not cut where a column runs on through the line (a seal's border printed over the text)", () => {
    const boxes = [column(100, 20, 680), column(300, 20, 1380), column(100, 720, 1380)];
    expect(registersOf(frame, { vertical: [], horizontal: [rule] }, boxes, cw)).toHaveLength(1);
  });
});
