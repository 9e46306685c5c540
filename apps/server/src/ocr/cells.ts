/** Character cells down a column: double-line notes (雙行小注) found by a seam, then the main text. */
import { median, profiles, runs, type Box, type Cell } from './segment-common.ts';

/**
 * Character cells of a column, in reading order. Double-line notes are found first (see
 * {@link noteZones}); each is read as two narrow columns, right then left. The rest: inked runs of the
 * y-profile, trimmed to their ink; runs much shorter than a character (parts of 三, 二) join their
 * neighbour, runs much longer are divided evenly.
 */
export function cellsOf(mask: Uint8Array, width: number, column: Box, pitch: number): Cell[] {
  const inset = Math.max(1, Math.round((column.right - column.left) * 0.04));
  const inner: Box = { ...column, left: column.left + inset, right: column.right - inset };
  if (inner.right <= inner.left) return [];
  const zones = noteZones(mask, width, inner, pitch);
  const groups: Array<{ top: number; cells: Cell[] }> = [];
  for (const zone of zones) {
    const halfPitch = (inner.right - inner.left) / 2;
    const right = runCells(mask, width, { ...zone, left: zone.split, right: inner.right }, halfPitch, []);
    const left = runCells(mask, width, { ...zone, left: inner.left, right: zone.split }, halfPitch, []);
    groups.push({ top: zone.top, cells: [...right, ...left].map((cell) => ({ ...cell, note: true })) });
  }
  for (const cell of runCells(mask, width, inner, pitch, zones))
    groups.push({ top: cell.top, cells: [cell] });
  return groups.sort((a, b) => a.top - b.top).flatMap((group) => group.cells);
}

/**
 * Double-line notes in a column: stretches where the column splits into two narrow lines. The split
 * is found as a seam: the path down the column, between 30 % and 70 % of its width and moving at most a
 * pixel a row (notes wander off the exact middle), that crosses the least ink. Main characters put a
 * stroke across any such path every few rows; between the two lines of a note it runs blank, but for
 * the odd stroke. A stretch is rows where the seam crosses little ink over a character's height, trimmed
 * to rows blank across the column, with ink in the right line. It is a note when its characters are
 * small: the inked runs down each line (touching characters joined) are at most about half a main
 * character high (so 門, 北, 明, whose halves run the character's full height, are not taken for
 * notes), or the split runs on for more than one and a half characters (no main character is that tall).
 */
export function noteZones(
  mask: Uint8Array,
  width: number,
  inner: Box,
  pitch: number,
): Array<Box & { split: number }> {
  const w = inner.right - inner.left;
  const rows = inner.bottom - inner.top;
  if (w < 8 || rows < 4) return [];
  const from = Math.round(w * 0.3);
  const to = Math.round(w * 0.7);
  const span = to - from + 1;
  // Seam by dynamic programming: cost[j][x] = ink at (x, j) + least cost above within one pixel.
  const cost = new Float64Array(rows * span);
  const back = new Int8Array(rows * span);
  for (let j = 0; j < rows; j++) {
    const row = (inner.top + j) * width + inner.left;
    for (let k = 0; k < span; k++) {
      const here = mask[row + from + k] ? 1 : 0;
      if (j === 0) {
        cost[k] = here;
        continue;
      }
      let best = cost[(j - 1) * span + k]!;
      let move = 0;
      if (k > 0 && cost[(j - 1) * span + k - 1]! < best) {
        best = cost[(j - 1) * span + k - 1]!;
        move = -1;
      }
      if (k + 1 < span && cost[(j - 1) * span + k + 1]! < best) {
        best = cost[(j - 1) * span + k + 1]!;
        move = 1;
      }
      cost[j * span + k] = best + here;
      back[j * span + k] = move;
    }
  }
  const seam = new Int32Array(rows);
  let k = 0;
  for (let i = 1; i < span; i++) {
    const last = (rows - 1) * span;
    if (
      cost[last + i]! < cost[last + k]! ||
      (cost[last + i] === cost[last + k] && Math.abs(i - span / 2) < Math.abs(k - span / 2))
    )
      k = i;
  }
  for (let j = rows - 1; j >= 0; j--) {
    seam[j] = inner.left + from + k;
    k += back[j * span + k]!;
  }
  const centre = new Uint8Array(rows);
  const leftInk = new Uint8Array(rows);
  const rightInk = new Uint8Array(rows);
  for (let j = 0; j < rows; j++) {
    const row = (inner.top + j) * width;
    if (mask[row + seam[j]!]) centre[j] = 1;
    for (let i = inner.left; i < inner.right; i++) {
      if (!mask[row + i] || i === seam[j]) continue;
      if (i < seam[j]!) leftInk[j] = 1;
      else rightInk[j] = 1;
    }
  }
  const inked = (j: number) => leftInk[j] === 1 || rightInk[j] === 1;
  // Rows whose neighbourhood (a main character's height) has the seam cross ink at most once, briefly.
  const window = Math.max(3, Math.round(pitch * 0.8));
  const crossings = new Int32Array(rows + 1);
  const crossed = new Int32Array(rows + 1);
  for (let j = 0; j < rows; j++) {
    crossings[j + 1] = crossings[j]! + (centre[j] === 1 && (j === 0 || centre[j - 1] === 0) ? 1 : 0);
    crossed[j + 1] = crossed[j]! + centre[j]!;
  }
  const open = new Uint8Array(rows);
  for (let j = 0; j < rows; j++) {
    const a = Math.max(0, j - (window >> 1));
    const b = Math.min(rows, a + window);
    const events = crossings[b]! - crossings[a]!;
    if (events <= 1 && crossed[b]! - crossed[a]! <= Math.max(2, pitch * 0.06)) open[j] = 1;
  }
  const stretches = runs(open, (v) => v === 1);
  const zones: Array<Box & { split: number }> = [];
  for (const [a, b] of stretches) {
    let top = a;
    let bottom = b;
    // Where a stretch begins or ends at a stroke through the band, the rows up to the first blank row
    // belong to that character (the legs under the top of 而, the bottom of 習).
    if (a > 0) while (top < bottom && inked(top)) top++;
    if (b < rows) while (bottom > top && inked(bottom - 1)) bottom--;
    while (top < bottom && !inked(top)) top++;
    while (bottom > top && !inked(bottom - 1)) bottom--;
    if (bottom - top < pitch * 0.3) continue;
    // Blocks of rows inked anywhere across the column (joined over a pixel or two). A main character
    // is about square; a row of two note characters side by side about twice as wide as high, with the
    // seam running clear between them (it cuts through 二, 三, 四, whose strokes cross the column);
    // note characters whose rows do not line up chain into a block much taller than wide, with short
    // runs down each line.
    const blocks: Array<{ top: number; bottom: number; aspect: number; clear: boolean; sides: number }> = [];
    const gapJoin = Math.max(1, pitch * 0.03);
    for (const run of runs(
      Uint8Array.from({ length: bottom - top }, (_, j) => (inked(top + j) ? 1 : 0)),
      (v) => v === 1,
    )) {
      const last = blocks.at(-1);
      if (last && top + run[0] - last.bottom <= gapJoin) last.bottom = top + run[1];
      else blocks.push({ top: top + run[0], bottom: top + run[1], aspect: 0, clear: true, sides: 0 });
    }
    for (const block of blocks) {
      let minX = inner.right;
      let maxX = inner.left;
      let crossed = 0;
      let leftRows = 0;
      let rightRows = 0;
      for (let j = block.top; j < block.bottom; j++) {
        crossed += centre[j]!;
        leftRows += leftInk[j]!;
        rightRows += rightInk[j]!;
        const row = (inner.top + j) * width;
        for (let i = inner.left; i < inner.right; i++) {
          if (!mask[row + i]) continue;
          if (i < minX) minX = i;
          if (i > maxX) maxX = i;
        }
      }
      block.aspect = (block.bottom - block.top) / Math.max(1, maxX - minX + 1);
      block.clear = crossed <= (block.bottom - block.top) * 0.1;
      block.sides = (leftRows > 0 ? 1 : 0) + (rightRows > 0 ? 1 : 0);
    }
    // Main characters taken into the stretch at either end are not notes (a note's last character,
    // alone on its line, has ink on one side of the seam only).
    const mainLike = (block: (typeof blocks)[number]) =>
      block.aspect >= 0.75 && block.aspect < 1.6 && block.sides === 2;
    let first = 0;
    let last = blocks.length;
    while (first < last && (mainLike(blocks[first]!) || blocks[first]!.aspect < 0.25)) first++;
    while (last > first && (mainLike(blocks[last - 1]!) || blocks[last - 1]!.aspect < 0.25)) last--;
    const kept = blocks.slice(first, last);
    if (kept.length === 0) continue;
    const zoneTop = kept[0]!.top;
    const zoneBottom = kept.at(-1)!.bottom;
    const side = (ink: Uint8Array) => {
      const found = runs(ink.subarray(zoneTop, zoneBottom), (v) => v === 1);
      // Gaps of a pixel or two inside a character (strokes that do not quite touch) are not gaps.
      const joined: Array<[number, number]> = [];
      for (const run of found) {
        const previous = joined.at(-1);
        if (previous && run[0] - previous[1] <= gapJoin) previous[1] = run[1];
        else joined.push([run[0], run[1]]);
      }
      return joined.filter(([p, q]) => q - p >= Math.max(2, pitch * 0.05));
    };
    const left = side(leftInk);
    const right = side(rightInk);
    if (left.length === 0 || right.length === 0) continue;
    // (Blocks much flatter than a row of notes are strokes: 一, a rule, the frame; they say nothing.)
    const shaped = kept
      .filter((block) => block.aspect >= 0.3 && (block.clear || block.aspect >= 0.75))
      .map((block) => block.aspect)
      .sort((p, q) => p - q);
    const flat = shaped.length >= 2 && shaped[Math.floor(shaped.length / 2)]! <= 0.65;
    const sideTypical = median([...left, ...right].map(([p, q]) => q - p)) / (inner.right - inner.left);
    const chained =
      kept.length <= 2 &&
      kept.some((block) => block.aspect >= 1.6) &&
      left.length >= 3 &&
      right.length >= 3 &&
      sideTypical <= 0.45;
    if (!flat && !chained) continue;
    zones.push({
      left: inner.left,
      right: inner.right,
      top: inner.top + zoneTop,
      bottom: inner.top + zoneBottom,
      split: Math.round(median(seam.subarray(zoneTop, zoneBottom))),
    });
  }
  return zones;
}

/** Cells of main text: the y-runs of a region outside the given note zones. */
function runCells(mask: Uint8Array, width: number, inner: Box, pitch: number, skip: Box[]): Cell[] {
  const { y } = profiles(mask, width, inner);
  for (const zone of skip) y.fill(0, Math.max(0, zone.top - inner.top), Math.max(0, zone.bottom - inner.top));
  const minInk = Math.max(1, (inner.right - inner.left) * 0.02);
  let spans = runs(y, (v) => v >= minInk).map(([a, b]) => [a + inner.top, b + inner.top] as [number, number]);
  const size = Math.max(4, pitch * 0.92);
  // Join fragments: while a run is short and the gap to the next is small, merge.
  const joined: Array<[number, number]> = [];
  for (const span of spans) {
    const last = joined.at(-1);
    if (
      last &&
      span[1] - last[0] <= size * 1.05 &&
      (last[1] - last[0] < size * 0.6 || span[1] - span[0] < size * 0.35)
    ) {
      last[1] = span[1];
    } else joined.push([span[0], span[1]]);
  }
  spans = joined.filter(([a, b]) => b - a >= Math.max(3, size * 0.12));
  // The height of this column's characters, from its runs that hold one (when there are enough): a
  // written hand's characters can be much shorter than the column is wide, and two that touch then
  // make a run of less than two pitches.
  const single = spans.map(([a, b]) => b - a).filter((h) => h >= size * 0.5 && h <= size * 1.2);
  const unit = single.length >= 3 ? Math.max(size * 0.6, Math.min(size, median(single) * 1.08)) : size;
  const cells: Cell[] = [];
  for (const [a, b] of spans) {
    const n = Math.max(1, Math.round((b - a) / unit));
    // Cuts where the least ink crosses the column near each even division (touching characters meet
    // at a thin stroke).
    const cuts = [a];
    for (let k = 1; k < n; k++) {
      const even = a + ((b - a) * k) / n;
      const reach = ((b - a) / n) * 0.2;
      let best = Math.round(even);
      for (let j = Math.round(even - reach); j <= Math.round(even + reach); j++)
        if (y[j - inner.top]! < y[best - inner.top]!) best = j;
      cuts.push(best);
    }
    cuts.push(b);
    for (let k = 0; k < n; k++)
      cells.push({ left: inner.left, right: inner.right, top: cuts[k]!, bottom: cuts[k + 1]! });
  }
  return cells;
}
