/**
 * Character cells down one detected line (a column's run of main text, or one line of a note), for a
 * recogniser that reads one character per cell (PP-OCRv4's, through line-recognizer.ts): count-guided
 * cutting, the line's own width taken as the characters' pitch (issue 14 measured it: cells cut to the
 * right count took the clean-page error from 0.46 to 0.24).
 */
import { runs, type Box } from './geometry.ts';

export const CELLS = {
  /** A row is inked when this share of the line's width is ink. */
  inkedRow: 0.02,
  /** Characters are about as tall as the line is wide: the pitch, as a share of the line's width. */
  pitch: 0.95,
  /** A blank stretch longer than this share of the pitch separates two groups of characters. */
  gap: 0.35,
  /** Inked stretches shorter than this share of the pitch are specks, not characters. */
  speck: 0.15,
  /** A cut is moved to the row of least ink within this share of the pitch of its even place. */
  reach: 0.2,
};

/** The cells of `box` on the upright grey `image` (ink darker than `threshold`), top to bottom. */
export function cutCells(image: { width: number; data: Uint8Array }, threshold: number, box: Box): Box[] {
  const left = Math.max(0, Math.floor(box.left));
  const right = Math.min(image.width, Math.ceil(box.right));
  const top = Math.max(0, Math.floor(box.top));
  const bottom = Math.ceil(box.bottom);
  const w = right - left;
  if (w <= 0 || bottom <= top) return [];
  const profile = new Float64Array(bottom - top);
  for (let y = top; y < bottom; y++) {
    const row = y * image.width;
    let ink = 0;
    for (let x = left; x < right; x++) if (image.data[row + x]! < threshold) ink++;
    profile[y - top] = ink;
  }
  const pitch = w * CELLS.pitch;
  // Inked stretches, joined over gaps shorter than CELLS.gap of the pitch (strokes of one character).
  const groups: Array<[number, number]> = [];
  for (const [a, b] of runs(profile, (v) => v >= Math.max(1, w * CELLS.inkedRow))) {
    const last = groups.at(-1);
    if (last && a - last[1] < pitch * CELLS.gap) last[1] = b;
    else groups.push([a, b]);
  }
  const cells: Box[] = [];
  for (const [a, b] of groups) {
    if (b - a < pitch * CELLS.speck) continue;
    const n = Math.max(1, Math.round((b - a) / pitch));
    const cuts = [a];
    for (let k = 1; k < n; k++) {
      const even = a + ((b - a) * k) / n;
      const reach = pitch * CELLS.reach;
      let best = Math.round(even);
      for (let j = Math.round(even - reach); j <= Math.round(even + reach); j++)
        if (j > a && j < b && profile[j]! < profile[best]!) best = j;
      cuts.push(best);
    }
    cuts.push(b);
    for (let k = 0; k < n; k++) cells.push({ left, right, top: top + cuts[k]!, bottom: top + cuts[k + 1]! });
  }
  return cells;
}
