/** Down one column of the layout: runs of main text and double-line notes, in reading order. */
import { centreX, height, LAYOUT, overlapY, quantile, width, type Lane } from './layout-common.ts';
import type { Box } from './geometry.ts';

/**
 * Down a column: runs of main text and of double-line notes, in reading order. A note is two lines of small
 * characters side by side, seen as two narrow boxes next to each other by either detector pass (the
 * squeezed one that joins columns, or the plain one that keeps a note's lines apart), or as a narrow box
 * off the column's middle (its other line missed). Its right line is read before its left one; the rest
 * of the column's text, between the notes, is main text.
 */
export function linesOf(lane: Lane, columnWidth: number, fine: Box[]): Array<{ box: Box; note: boolean }> {
  const laneWidth = lane.ruled ? width(lane) : Math.max(columnWidth, ...lane.boxes.map(width));
  const laneMid = lane.ruled
    ? centreX(lane)
    : (Math.min(...lane.boxes.map((b) => b.left)) + Math.max(...lane.boxes.map((b) => b.right))) / 2;
  const boxes = [...lane.boxes].sort((a, b) => a.top - b.top);
  const narrow = (b: Box) => width(b) < laneWidth * LAYOUT.noteWidth;
  // Narrow boxes in this column, from both passes (the fine pass's only where they stand upright).
  const inLane = (b: Box) =>
    centreX(b) >= lane.left && centreX(b) <= lane.right && b.bottom > lane.top && b.top < lane.bottom;
  const narrowBoxes = [
    ...boxes.filter(narrow),
    ...fine.filter((b) => inLane(b) && narrow(b) && height(b) >= width(b) * 1.5),
  ];
  // Note stretches: a narrow box with a neighbour beside it (its rows shared), or off the middle.
  const notes: Array<{ top: number; bottom: number; split: number }> = [];
  for (const box of narrowBoxes) {
    const beside = narrowBoxes.filter(
      (o) =>
        o !== box &&
        overlapY(o, box) > 0.5 * Math.min(height(o), height(box)) &&
        (o.right <= centreX(box) + width(box) * 0.25 || o.left >= centreX(box) - width(box) * 0.25) &&
        Math.abs(centreX(o) - centreX(box)) >= width(box) * 0.5,
    );
    const off = Math.abs(centreX(box) - laneMid) > laneWidth * LAYOUT.offCentre;
    if (beside.length === 0 && !(off && boxes.includes(box))) continue;
    const split =
      beside.length > 0
        ? (centreX(box) + quantile(beside.map(centreX), 0.5)) / 2
        : centreX(box) > laneMid
          ? box.left
          : box.right;
    notes.push({ top: box.top, bottom: box.bottom, split });
  }
  notes.sort((a, b) => a.top - b.top);
  const merged: typeof notes = [];
  for (const n of notes) {
    const last = merged.at(-1);
    if (last && n.top <= last.bottom) {
      last.bottom = Math.max(last.bottom, n.bottom);
      last.split = (last.split + n.split) / 2;
    } else merged.push({ ...n });
  }
  // The column's text, top to bottom, cut into main and note stretches.
  const text = { top: Math.min(...boxes.map((b) => b.top)), bottom: Math.max(...boxes.map((b) => b.bottom)) };
  const lines: Array<{ box: Box; note: boolean }> = [];
  const extent = (top: number, bottom: number, from = -Infinity, to = Infinity) => {
    const over = (from === -Infinity && to === Infinity ? boxes : [...boxes, ...narrowBoxes]).filter(
      (b) => b.bottom > top && b.top < bottom && centreX(b) >= from && centreX(b) <= to,
    );
    if (over.length === 0) return undefined;
    return {
      left: Math.max(lane.left, from, Math.min(...over.map((b) => b.left))),
      right: Math.min(lane.right, to, Math.max(...over.map((b) => b.right))),
    };
  };
  let at = text.top;
  const main = (top: number, bottom: number) => {
    if (bottom - top < columnWidth * 0.2) return;
    const x = extent(top, bottom);
    if (x && x.right > x.left) lines.push({ box: { ...x, top, bottom }, note: false });
  };
  for (const note of merged) {
    const top = Math.max(at, note.top);
    main(at, top);
    for (const [from, to] of [
      [note.split, Infinity],
      [-Infinity, note.split],
    ] as const) {
      const x = extent(top, note.bottom, from, to);
      if (x && x.right > x.left) lines.push({ box: { ...x, top, bottom: note.bottom }, note: true });
    }
    at = Math.max(at, note.bottom);
  }
  main(at, text.bottom);
  return lines;
}
