/** The layout's columns (lanes): boxes grouped across the page, cut at rules, snapped to them. */
import type { TextBox } from './detector.ts';
import { centreX, height, LAYOUT, width, type Lane } from './layout-common.ts';
import type { Rulings } from './rulings.ts';
import type { Box } from './geometry.ts';

/**
 * The columns of a register. The boxes, cut where a vertical rule runs through them and where a box two
 * lines wide has its least ink, are grouped by where they stand across the page (the tallest first; a
 * box joins the column its centre lies in; columns that overlap, or narrow ones side by side that
 * together are one column wide, are one). A column between two rules takes the rules as its edges.
 */
export function lanesOf(
  boxes: TextBox[],
  columnWidth: number,
  rulings: Rulings,
  mask: Uint8Array,
  pageWidth: number,
): Lane[] {
  const rules = rulings.vertical.map((l) => ({ x: centreX(l), top: l.top, bottom: l.bottom }));
  const pieces: Box[] = boxes
    .flatMap((b) => cutAtRules(b, rules, columnWidth))
    .flatMap((b) => splitWide(b, columnWidth, mask, pageWidth));
  let lanes: Lane[] = [];
  for (const box of [...pieces].sort((a, b) => height(b) - height(a))) {
    const x = centreX(box);
    const lane = lanes.find((l) => x >= l.left && x <= l.right);
    if (lane) lane.boxes.push(box);
    else lanes.push({ ...box, boxes: [box], ruled: false });
  }
  const merge = (a: Lane, b: Lane): Lane => ({
    left: Math.min(a.left, b.left),
    right: Math.max(a.right, b.right),
    top: Math.min(a.top, b.top),
    bottom: Math.max(a.bottom, b.bottom),
    boxes: [...a.boxes, ...b.boxes],
    ruled: a.ruled,
  });
  /** Joins neighbouring lanes (by x) while `same` holds for a pair. */
  const joinWhile = (list: Lane[], same: (a: Lane, b: Lane) => boolean): Lane[] => {
    const sorted = [...list].sort((a, b) => a.left - b.left);
    for (let i = 0; i + 1 < sorted.length;) {
      if (same(sorted[i]!, sorted[i + 1]!)) sorted.splice(i, 2, merge(sorted[i]!, sorted[i + 1]!));
      else i++;
    }
    return sorted;
  };
  const overlap = (a: Box, b: Box) => Math.min(a.right, b.right) - Math.max(a.left, b.left);
  // Columns that overlap are one.
  lanes = joinWhile(lanes, (a, b) => overlap(a, b) >= 0.3 * Math.min(width(a), width(b)));
  for (const lane of lanes) {
    lane.top = Math.min(...lane.boxes.map((b) => b.top));
    lane.bottom = Math.max(...lane.boxes.map((b) => b.bottom));
  }
  // Edges from the rules on either side, where the lane lies between two (within a column's width);
  // lanes between the same two rules are one column.
  const reach = columnWidth * LAYOUT.snap;
  for (const lane of lanes) {
    const along = rules.filter((r) => r.top <= lane.bottom && r.bottom >= lane.top);
    const left = along.filter((r) => r.x <= lane.left + reach * 0.5 && r.x >= lane.left - reach);
    const right = along.filter((r) => r.x >= lane.right - reach * 0.5 && r.x <= lane.right + reach);
    if (left.length === 0 || right.length === 0) continue;
    const l = Math.max(...left.map((r) => r.x));
    const r = Math.min(...right.map((r) => r.x));
    if (r - l < columnWidth * 0.5 || r - l > columnWidth * 1.5) continue;
    lane.left = l;
    lane.right = r;
    lane.ruled = true;
  }
  lanes = joinWhile(lanes, (a, b) => a.ruled && b.ruled && a.left === b.left && a.right === b.right);
  // A lane left without rules whose boxes stand inside a ruled one (a note's line) belongs to it.
  for (const lane of lanes.filter((l) => !l.ruled)) {
    const host = lanes.find((l) => l.ruled && centreX(lane) > l.left && centreX(lane) < l.right);
    if (!host) continue;
    host.boxes.push(...lane.boxes);
    host.top = Math.min(host.top, lane.top);
    host.bottom = Math.max(host.bottom, lane.bottom);
    lanes.splice(lanes.indexOf(lane), 1);
  }
  // Narrow unruled lanes side by side, with no rule between them, that together are about one column
  // wide: the two lines of a note.
  const narrow = (l: Box) => width(l) < columnWidth * LAYOUT.noteWidth;
  lanes = joinWhile(
    lanes,
    (a, b) =>
      !a.ruled &&
      !b.ruled &&
      narrow(a) &&
      narrow(b) &&
      overlap(a, b) > -columnWidth * 0.3 &&
      Math.max(a.right, b.right) - Math.min(a.left, b.left) <= columnWidth * 1.3 &&
      !rules.some((r) => r.x > Math.min(a.right, b.left) && r.x < Math.max(a.right, b.left)),
  );
  const out = lanes;
  return out.sort((a, b) => b.right - a.right);
}

/** A box cut at the vertical rules that run through it (well inside it, along its height). */
function cutAtRules(
  box: Box,
  rules: Array<{ x: number; top: number; bottom: number }>,
  columnWidth: number,
): Box[] {
  const inner = columnWidth * 0.2;
  const xs = rules
    .filter(
      (r) =>
        r.x > box.left + inner &&
        r.x < box.right - inner &&
        r.top <= box.top + height(box) * 0.5 &&
        r.bottom >= box.bottom - height(box) * 0.5,
    )
    .map((r) => r.x)
    .sort((a, b) => a - b);
  if (xs.length === 0) return [box];
  const edges = [box.left, ...xs, box.right];
  // (What a box reaches beyond a rule, a margin of paper round its line, is no line of its own.)
  return edges
    .slice(1)
    .map((right, i) => ({ ...box, left: edges[i]!, right }))
    .filter((piece) => width(piece) >= columnWidth * LAYOUT.sliver);
}

/** A box `merged` column widths wide or more, cut into lines at the x where least ink runs down it. */
function splitWide(box: Box, columnWidth: number, mask: Uint8Array, pageWidth: number): Box[] {
  const parts = Math.round(width(box) / columnWidth);
  if (width(box) < columnWidth * LAYOUT.merged || parts < 2) return [box];
  const profile: number[] = [];
  for (let x = Math.floor(box.left); x < Math.ceil(box.right); x++) {
    let ink = 0;
    for (let y = Math.floor(box.top); y < Math.ceil(box.bottom); y++) ink += mask[y * pageWidth + x]!;
    profile.push(ink);
  }
  const cuts = [box.left];
  for (let k = 1; k < parts; k++) {
    const even = (profile.length * k) / parts;
    const reach = profile.length / parts / 3;
    let best = Math.round(even);
    for (let i = Math.round(even - reach); i <= Math.round(even + reach); i++)
      if (i > 0 && i < profile.length && profile[i]! < profile[best]!) best = i;
    cuts.push(box.left + best);
  }
  cuts.push(box.right);
  return cuts.slice(1).map((right, i) => ({ ...box, left: cuts[i]!, right }));
}
