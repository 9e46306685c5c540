/**
 * Ruled lines of a page (the frame, the rules between columns, a rule between registers): a helper of
 * the layout (layout.ts), which finds text by the detector and uses rules to give columns their edges.
 */
import type { Box } from './segment-common.ts';

export interface Rulings {
  /** Vertical rules, left to right (x-range, and the rows they run over). */
  vertical: Box[];
  /** Horizontal rules, top to bottom. */
  horizontal: Box[];
}

export const RULINGS = {
  /** A rule runs over at least this share of the page's height (vertical) or width (horizontal). */
  length: 0.3,
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
  const vertical = lines(
    width,
    height,
    (along, across) => mask[along * width + across]!,
    (from, to, start, end): Box => ({ left: from, right: to, top: start, bottom: end }),
    maxThick,
  );
  const horizontal = lines(
    height,
    width,
    (along, across) => mask[across * width + along]!,
    (from, to, start, end): Box => ({ left: start, right: end, top: from, bottom: to }),
    maxThick,
  );
  return { vertical, horizontal };
}

/**
 * Lines along one direction: for each position across (x for vertical lines), the longest run along the
 * page where that position or its neighbours within RULINGS.wobble hold ink, gaps bridged; positions with
 * a long run form lines, at most `maxThick` thick.
 */
function lines(
  across: number,
  along: number,
  ink: (along: number, across: number) => number,
  box: (from: number, to: number, start: number, end: number) => Box,
  maxThick: number,
): Box[] {
  const step = Math.max(1, Math.floor(along / 2000));
  const gap = Math.max(2, Math.round((along * RULINGS.gap) / step));
  const need = (along * RULINGS.length) / step;
  const long: Array<{ at: number; start: number; end: number }> = [];
  for (let a = 0; a < across; a++) {
    let best = 0;
    let bestStart = 0;
    let runStart = -1;
    let lastInk = -Infinity;
    let k = 0;
    for (let t = 0; t < along; t += step, k++) {
      let hit = false;
      for (let d = -RULINGS.wobble; d <= RULINGS.wobble && !hit; d++) {
        const c = a + d;
        if (c >= 0 && c < across && ink(t, c)) hit = true;
      }
      if (!hit) continue;
      if (k - lastInk > gap) runStart = k;
      lastInk = k;
      if (k - runStart + 1 > best) {
        best = k - runStart + 1;
        bestStart = runStart;
      }
    }
    if (best >= need) long.push({ at: a, start: bestStart * step, end: (bestStart + best) * step });
  }
  const out: Box[] = [];
  for (let i = 0; i < long.length; ) {
    let j = i;
    while (j + 1 < long.length && long[j + 1]!.at === long[j]!.at + 1) j++;
    const group = long.slice(i, j + 1);
    // The wobble widens every line by its reach on each side.
    const from = group[0]!.at + RULINGS.wobble;
    const to = group.at(-1)!.at - RULINGS.wobble + 1;
    if (to - from <= maxThick)
      out.push(
        box(
          Math.min(from, to - 1),
          Math.max(to, from + 1),
          Math.min(...group.map((g) => g.start)),
          Math.max(...group.map((g) => g.end)),
        ),
      );
    i = j + 1;
  }
  return out;
}
