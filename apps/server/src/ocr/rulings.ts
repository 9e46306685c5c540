/**
 * Ruled lines of a page (the frame, the rules between columns, a rule between registers): a helper of
 * the layout (layout.ts), which finds text by the detector and uses rules to give columns their edges.
 */
import type { Box } from './geometry.ts';

export interface Rulings {
  /** Vertical rules, left to right (x-range, and the rows they run over). */
  vertical: Box[];
  /** Horizontal rules, top to bottom. */
  horizontal: Box[];
}

export const RULINGS = {
  /**
   * A rule runs over at least this share of the page's height (vertical) or width (horizontal): the
   * frame's and the columns' rules run over most of it, a seal's border or a drawn box does not.
   */
  length: 0.5,
  /** Gaps in a rule up to this share of the page's side are bridged (worn or broken lines). */
  gap: 0.01,
  /** A rule is at most this share of the column width thick (thicker is ink of another kind). */
  thickness: 0.25,
  /** A line may lean or waver by this many pixels either way and still be counted whole. */
  wobble: 1,
};

/** The rules of an ink mask (1 = ink) of `width` × `height`, `columnWidth` the text's column width. */
export function findRulings(mask: Uint8Array, width: number, height: number, columnWidth: number): Rulings {
  const maxThick = Math.max(4, columnWidth * RULINGS.thickness);
  // Ink within RULINGS.wobble pixels across the line's direction counts (lines that lean or waver).
  const r = RULINGS.wobble;
  const acrossX = new Uint8Array(mask.length);
  const acrossY = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      for (let d = -r; d <= r; d++) {
        if (x + d >= 0 && x + d < width) acrossX[y * width + x + d] = 1;
        if (y + d >= 0 && y + d < height) acrossY[(y + d) * width + x] = 1;
      }
    }
  // Vertical lines: for each x, runs down the page (transposed so each x is one contiguous row).
  const transposed = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) transposed[x * height + y] = acrossX[y * width + x]!;
  const vertical = lines(transposed, width, height, maxThick).map(({ from, to, start, end }): Box => ({
    left: from,
    right: to,
    top: start,
    bottom: end,
  }));
  const horizontal = lines(acrossY, height, width, maxThick).map(({ from, to, start, end }): Box => ({
    left: start,
    right: end,
    top: from,
    bottom: to,
  }));
  return { vertical, horizontal };
}

/**
 * Lines along one direction of `rows` (one row of `along` values per position across): per position,
 * the longest run of ink with gaps bridged; positions with a long run, side by side, form a line at most
 * `maxThick` thick.
 */
function lines(
  rows: Uint8Array,
  across: number,
  along: number,
  maxThick: number,
): Array<{ from: number; to: number; start: number; end: number }> {
  const gap = Math.max(2, Math.round(along * RULINGS.gap));
  const need = along * RULINGS.length;
  const long: Array<{ at: number; start: number; end: number }> = [];
  for (let a = 0; a < across; a++) {
    const row = a * along;
    let best = 0;
    let bestStart = 0;
    let runStart = 0;
    let lastInk = -Infinity;
    for (let t = 0; t < along; t++) {
      if (!rows[row + t]) continue;
      if (t - lastInk > gap) runStart = t;
      lastInk = t;
      if (t - runStart + 1 > best) {
        best = t - runStart + 1;
        bestStart = runStart;
      }
    }
    if (best >= need) long.push({ at: a, start: bestStart, end: bestStart + best });
  }
  const out: Array<{ from: number; to: number; start: number; end: number }> = [];
  for (let i = 0; i < long.length;) {
    let j = i;
    while (j + 1 < long.length && long[j + 1]!.at === long[j]!.at + 1) j++;
    const group = long.slice(i, j + 1);
    // The wobble widens every line by its reach on each side.
    const from = group[0]!.at + RULINGS.wobble;
    const to = group.at(-1)!.at - RULINGS.wobble + 1;
    if (to - from <= maxThick)
      out.push({
        from: Math.min(from, to - 1),
        to: Math.max(to, from + 1),
        start: Math.min(...group.map((g) => g.start)),
        end: Math.max(...group.map((g) => g.end)),
      });
    i = j + 1;
  }
  return out;
}
