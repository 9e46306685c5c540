/** Columns of one register of the text frame: ruled lines or ink gaps, the centre strip, their cells. */
import { cellsOf } from './cells.ts';
import { profiles, runs, type Box, type Cell, type Column } from './segment-common.ts';

/** The page a register lies on, as analyse has prepared it. */
export interface PageInk {
  /** Ink of the page (scanner margins cleared). */
  mask: Uint8Array;
  /** The cleaner mask (specks removed) the character cells are found on. */
  cellMask: Uint8Array;
  /** The page's width in pixels (the masks' row length). */
  width: number;
  /** Whether the page's columns are ruled. */
  ruled: boolean;
}

/** The columns of one register of the frame (the whole frame, mostly), right to left. */
export function columnsIn(frame: Box, page: PageInk): Column[] {
  const { mask, cellMask, width, ruled } = page;
  const frameHeight = frame.bottom - frame.top;
  const { x: fx } = profiles(mask, width, frame);

  // Columns as inked runs of the smoothed x-profile between two positions; specks and marginal marks
  // (runs much narrower than the others) are dropped.
  const inkRuns = (from: number, to: number): Array<[number, number]> => {
    const smooth = new Float64Array(to - from);
    const r = 3;
    for (let i = 0; i < smooth.length; i++) {
      let sum = 0;
      for (let k = -r; k <= r; k++)
        sum += fx[Math.min(fx.length - 1, Math.max(0, from - frame.left + i + k))]!;
      smooth[i] = sum / (2 * r + 1);
    }
    const peak = Math.max(0, ...smooth);
    if (peak === 0) return [];
    const found = runs(smooth, (v) => v > peak * 0.04).map(
      ([a, b]) => [a + from, b + from] as [number, number],
    );
    const median = [...found.map(([a, b]) => b - a)].sort((a, b) => a - b)[Math.floor(found.length / 2)] ?? 0;
    return found.filter(([a, b]) => b - a > median * 0.35);
  };

  let spans: Array<[number, number]>;
  if (ruled) {
    const lines = runs(fx, (v) => v > frameHeight * 0.6).map(
      ([a, b]) => [a + frame.left, b + frame.left] as [number, number],
    );
    const edges: Array<[number, number]> = [
      [frame.left - 1, frame.left],
      ...lines,
      [frame.right, frame.right + 1],
    ];
    spans = [];
    for (let i = 0; i + 1 < edges.length; i++) {
      const a = edges[i]![1];
      const b = edges[i + 1]![0];
      if (b - a <= 4) continue;
      // A frame whose columns are not ruled (only the border and the centre strip are): the space
      // between two lines then holds several columns, found by their ink.
      // (Thin runs beside a column's text, left over from the rules, do not count.)
      const found = inkRuns(a, b);
      const widest = Math.max(0, ...found.map(([p, q]) => q - p));
      const inside = found.filter(([p, q]) => q - p >= widest * 0.5);
      if (inside.length > 1) spans.push(...inside);
      else spans.push([a, b]);
    }
  } else {
    spans = inkRuns(frame.left, frame.right);
  }

  // Specks in an empty ruled column make runs a few pixels wide: not columns.
  const widest = Math.max(0, ...spans.map(([a, b]) => b - a));
  spans = spans.filter(([a, b]) => b - a >= Math.max(4, widest * 0.3));
  const widths = spans.map(([a, b]) => b - a);
  const typical = [...widths].sort((a, b) => a - b)[Math.floor(widths.length / 2)] ?? 0;
  // The centre strip (版心), by its shape wherever it lies (the middle of a whole leaf, the edge of a
  // half leaf): a fish-tail (魚尾), a solid black band across the strip, or a strip much narrower than
  // the columns at the edge of the frame or in the middle of a ruled page.
  const inside = { top: frame.top + frameHeight * 0.03, bottom: frame.bottom - frameHeight * 0.03 };
  const coverage = (j: number, [a, b]: [number, number]) => {
    let ink = 0;
    for (let i = a; i < b; i++) ink += mask[j * width + i]!;
    return ink / Math.max(1, b - a);
  };
  // A band that runs on across the frame is a frame line or a stain, not a fish-tail.
  const frameSpan: [number, number] = [frame.left, frame.right];
  const fishTail = (k: number) => {
    if (!ruled) return false;
    const span = spans[k]!;
    let solid = 0;
    for (let j = Math.round(inside.top); j < Math.round(inside.bottom); j++) {
      const alone = coverage(j, span) >= 0.7 && coverage(j, frameSpan) < 0.4;
      solid = alone ? solid + 1 : 0;
      if (solid >= Math.max(4, (span[1] - span[0]) * 0.12)) return true;
    }
    return false;
  };
  const nearestMiddle = spans
    .map(([a, b], i) => ({ i, d: Math.abs((a + b) / 2 - width / 2) }))
    .sort((p, q) => p.d - q.d)[0];
  const centre = spans.map((span, i) => {
    if (spans.length < 2) return false;
    const narrow = span[1] - span[0] < typical * 0.6;
    // (Spans run left to right.)
    const atEdge = i === 0 || i === spans.length - 1;
    const inMiddle = ruled && nearestMiddle?.i === i && nearestMiddle.d < width * 0.06;
    return fishTail(i) || (narrow && (atEdge || inMiddle));
  });

  const columns: Column[] = spans.map(([a, b], i) => {
    const box: Box = { left: a, right: b, top: frame.top, bottom: frame.bottom };
    const cells = cellsOf(cellMask, width, box, centre[i] ? typical : b - a);
    // What is left of a frame line or rule that is thick, doubled or wavy: a flat cell at an end of
    // the column with ink at the column's very end (text keeps a margin from the frame; an 一 there
    // does not touch it).
    // Or a flat cell at an end through which a line runs on across the frame (the frame's edge then
    // lies beyond it, as where the frame is the ink's extent); a character's stroke stays in its column.
    const flat = (cell: Cell, ratio: number) => cell.bottom - cell.top < (b - a) * ratio;
    // A line through the row: ink with at most 2 px gaps from half a column before the column to half a
    // column after it (to the frame's edge at either end). A stroke ends inside its column, and the
    // rules between columns are separated from it by paper.
    const from = Math.max(frame.left, Math.round(a - (b - a) / 2));
    const to = Math.min(frame.right, Math.round(b + (b - a) / 2));
    const lineThrough = (j: number) => {
      let gap = 0;
      for (let i = from; i < to; i++) {
        gap = cellMask[j * width + i] ? 0 : gap + 1;
        if (gap > 2) return false;
      }
      return true;
    };
    // Or, where the line is wavy or broken, a row inked across 60 % of the frame (characters of
    // other columns at the same height do not fill that much).
    const crossed = (cell: Cell) => {
      for (let j = cell.top; j < cell.bottom; j++)
        if (lineThrough(j) || coverage(j, frameSpan) >= 0.6) return true;
      return false;
    };
    // (Not a note's cell: a row of two small characters is flat, and rows of them line up across
    // the columns.)
    const remnant = (cell: Cell, touches: boolean) =>
      (flat(cell, 0.35) && touches) || (!cell.note && flat(cell, 0.5) && crossed(cell));
    while (cells.length > 0 && remnant(cells[0]!, cells[0]!.top <= box.top + 1)) cells.shift();
    while (cells.length > 0 && remnant(cells.at(-1)!, cells.at(-1)!.bottom >= box.bottom - 1)) cells.pop();
    return { box, centre: centre[i]!, cells };
  });
  // Reading order: right to left.
  columns.sort((p, q) => q.box.left - p.box.left);
  return columns;
}
