/**
 * Stage 4 of the OCR pipeline: the page's layout from the text detector's boxes (issue 28). The boxes say
 * where text is (not seals, stains, show-through or rules) and how wide its lines are; ruled lines and ink
 * profiles only help: they give a ruled page's columns their edges and split a box that holds two lines.
 *
 * Output, in reading order: registers top first; in each, the half-leaves right first (a full opened
 * leaf with its centre strip in the middle); in each, the columns right to left; down each column its
 * runs of main text and of double-line notes (a note's right line, then its left line). The centre strip
 * (版心) and lines outside the text frame (leaf numbers, 函號) are kept apart.
 */
import sharp from 'sharp';
import type { TextBox } from './detector.ts';
import { findRulings, type Rulings } from './rulings.ts';
import type { Box, Grey } from './segment-common.ts';

export type ColumnKind = 'text' | 'note' | 'centre' | 'other';

/** One line to recognise: a run of main text, one line of a note, the centre strip, a margin line. */
export interface LayoutColumn {
  box: Box;
  kind: ColumnKind;
  /** The page column it belongs to (numbered in reading order). */
  slot: number;
}

export interface BoxLayout {
  columns: LayoutColumn[];
  /** The main text's column width (px), the unit of the layout's shares. */
  columnWidth: number;
  /** How many columns of text the page has (slots holding main text or notes). */
  slots: number;
  /** Full opened leaf: the centre strip's x-range, between the right and the left half-leaf. */
  centre?: [number, number];
  /** How many text boxes the detector gave (before specks and show-through were dropped). */
  detected: number;
  /** A ruled page: how many columns its rules hold inside the frame (what `slots` should be near). */
  expectedColumns?: number;
}

/** The layout's parameters, each a share of a named length. */
export const LAYOUT = {
  /** Boxes narrower and shorter than this share of the column width are specks, not text. */
  speck: 0.3,
  /** A box narrower than this share of the column width and over two columns' widths long is a rule. */
  rule: 0.2,
  /**
   * Show-through: a box whose darkest tenth of pixels is lighter than this share of the way from the
   * page's ink to its paper is text printed on the other side of the leaf, seen through it.
   */
  ghost: 0.55,
  /** A line narrower than this share of its column's width is a line of small characters (a note). */
  noteWidth: 0.62,
  /** A narrow box whose centre is this share of the column's width off its middle is a note's line. */
  offCentre: 0.15,
  /** Paper above and below a line, as a share of its width, up to a horizontal rule. */
  endMargin: 0.25,
  /** An unruled page: a box wider than this share of the column width holds two lines, split apart. */
  merged: 1.5,
  /** A page's column rules are taken for its columns' spacing when this many gaps between them agree. */
  lattice: 5,
  /** A piece of a box cut at a rule narrower than this share of the column width is margin, not a line. */
  sliver: 0.3,
  /** A column's edges snap to rules within this share of the column width of its boxes. */
  snap: 0.6,
  /** Margin beyond a frame rule: at most this share of the text (by box area)… */
  marginArea: 0.1,
  /** …in a strip at most this share of a column wide (a margin line, half a centre strip). */
  marginWidth: 0.6,
  /** A ruled column at the frame's edge narrower than this share of the others is the centre strip's half. */
  edgeStrip: 0.75,
  /** A centre strip: the share of its width a fish-tail mark inks across a row… */
  fishTailInk: 0.75,
  /** …over at least this share of the strip's (or a column's, if wider) width in height (a stroke is thinner). */
  fishTailHeight: 0.14,
};

const width = (b: Box) => b.right - b.left;
const height = (b: Box) => b.bottom - b.top;
const centreX = (b: Box) => (b.left + b.right) / 2;
const overlapY = (a: Box, b: Box) => Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** Grey values of a box's pixels (every `step`-th row and column). */
function pixels(image: Grey, box: Box, step: number): number[] {
  const out: number[] = [];
  for (let y = Math.max(0, Math.floor(box.top)); y < Math.min(image.height, box.bottom); y += step)
    for (let x = Math.max(0, Math.floor(box.left)); x < Math.min(image.width, box.right); x += step)
      out.push(image.data[y * image.width + x]!);
  return out;
}

/** The page's layout from the detector's boxes on the upright grey image (ink darker than threshold). */
export function layoutFromBoxes(
  detected: TextBox[],
  image: Grey,
  threshold: number,
  /** The detector's boxes without the squeeze (a note's two lines apart), if it was run so too. */
  fine: TextBox[] = [],
): BoxLayout {
  const empty: BoxLayout = { columns: [], columnWidth: 0, slots: 0, detected: detected.length };
  if (detected.length === 0) return empty;
  // The column width: what the taller boxes (runs of characters) are wide, the wider among them (a
  // note's lines are narrower).
  const tall = detected.filter((b) => height(b) >= 1.5 * width(b));
  let columnWidth = quantile((tall.length >= 3 ? tall : detected).map(width), 0.75);
  // Specks (small every way), and ruled lines the detector took for text (thin and long).
  let boxes = detected.filter(
    (b) =>
      (width(b) >= columnWidth * LAYOUT.speck || height(b) >= columnWidth * LAYOUT.speck) &&
      !(width(b) < columnWidth * LAYOUT.rule && height(b) > columnWidth * 2),
  );
  boxes = withoutShowThrough(boxes, image);
  if (boxes.length === 0) return empty;
  // Ink: darker than Otsu's threshold of the pixels inside the text boxes (ink on paper), where the
  // whole page's may split paper from a white margin instead.
  const ink = textThreshold(image, boxes) ?? threshold;
  const mask = new Uint8Array(image.data.length);
  for (let i = 0; i < mask.length; i++) mask[i] = image.data[i]! < ink ? 1 : 0;
  const rulings = findRulings(mask, image.width, image.height, columnWidth);
  // On a ruled page the rules' spacing is the column width (the boxes may all be a note's lines).
  columnWidth = ruledColumnWidth(rulings) ?? columnWidth;
  const frame = frameOf(boxes, rulings, columnWidth);
  const registers = registersOf(frame, rulings, boxes);
  const columns: LayoutColumn[] = [];
  let slot = 0;
  let centre: [number, number] | undefined;
  // Lines outside the frame: margin lines, or half of a centre strip cut by the scan's edge.
  for (const box of boxes) {
    if (centreX(box) >= frame.left && centreX(box) <= frame.right) continue;
    const strip = stripAround(box, rulings, image.width);
    const kind = strip && hasFishTail(mask, image.width, strip, frame, columnWidth) ? 'centre' : 'other';
    columns.push({ box, kind, slot: -1 });
  }
  for (const register of registers) {
    const inside = boxes.filter(
      (b) =>
        centreX(b) >= frame.left &&
        centreX(b) <= frame.right &&
        (b.top + b.bottom) / 2 >= register.top &&
        (b.top + b.bottom) / 2 < register.bottom,
    );
    const lanes = lanesOf(inside, columnWidth, rulings, mask, image.width);
    const ruledWidths = lanes.filter((l) => l.ruled).map(width);
    const typical = ruledWidths.length >= 3 ? quantile(ruledWidths, 0.5) : columnWidth;
    const third = (frame.right - frame.left) / 3;
    for (const [i, lane] of lanes.entries()) {
      const edge = i === 0 || i === lanes.length - 1;
      const middle = centreX(lane) > frame.left + third && centreX(lane) < frame.right - third;
      // (An outer column beyond the outermost rule has no rule to give its width: its boxes' width.)
      const outer =
        !lane.ruled &&
        rulings.vertical.every((r) => centreX(r) < lane.left) !==
          rulings.vertical.every((r) => centreX(r) > lane.right);
      const narrow =
        ruledWidths.length >= 3 && (lane.ruled || outer) && width(lane) < typical * LAYOUT.edgeStrip;
      const fishTail =
        (edge || middle) &&
        hasFishTail(mask, image.width, lane, { ...frame, ...clampY(register, frame) }, columnWidth);
      // A half-leaf's centre strip at the frame's edge: an outer column much narrower than the others
      // (the strip cut by the scan's edge), or one with a fish-tail mark. A full opened leaf's: a column
      // in the middle of the frame with a fish-tail mark.
      if (process.env.LAYOUT_DEBUG)
        console.log('lane', Math.round(lane.left), Math.round(lane.right), {
          edge,
          middle,
          narrow,
          fishTail,
          outer,
          ruled: lane.ruled,
          typical,
        });
      if ((edge || middle) && lanes.length >= 3 && (narrow || fishTail)) {
        lane.centre = true;
        if (middle) centre = [lane.left, lane.right];
      }
    }
    for (const lane of lanes) {
      const lines = linesOf(lane, columnWidth, fine);
      if (lines.length === 0) continue;
      for (const line of lines)
        columns.push({
          box: withEndMargins(line.box, rulings),
          kind: lane.centre ? 'centre' : line.note ? 'note' : 'text',
          slot: lane.centre ? -1 : slot,
        });
      if (!lane.centre) slot++;
    }
  }
  return { columns, columnWidth, slots: slot, ...(centre ? { centre } : {}), detected: detected.length };
}

/**
 * A line's box with paper added above and below (LAYOUT.endMargin of its width: the detector's box may end
 * inside its first or last character), but not across a horizontal rule (read as 一).
 */
function withEndMargins(box: Box, rulings: Rulings): Box {
  const margin = width(box) * LAYOUT.endMargin;
  let top = box.top - margin;
  let bottom = box.bottom + margin;
  for (const rule of rulings.horizontal) {
    if (rule.right <= box.left || rule.left >= box.right) continue;
    if (rule.bottom <= box.top && rule.bottom > top) top = rule.bottom;
    if (rule.top >= box.bottom && rule.top < bottom) bottom = rule.top;
  }
  return { ...box, top, bottom };
}

/**
 * The spacing of a page's column rules, where they are regular: at least LAYOUT.lattice gaps between
 * consecutive vertical rules within 15 % of their median (rules found only in part say nothing).
 */
function ruledColumnWidth(rulings: Rulings): number | undefined {
  const xs = rulings.vertical.map(centreX);
  const gaps = xs.slice(1).map((x, i) => x - xs[i]!);
  const typical = quantile(gaps, 0.5);
  const regular = gaps.filter((g) => Math.abs(g - typical) <= typical * 0.15).length;
  return regular >= LAYOUT.lattice ? typical : undefined;
}

function clampY(register: Box, frame: Box): { top: number; bottom: number } {
  return { top: Math.max(register.top, frame.top), bottom: Math.min(register.bottom, frame.bottom) };
}

/** Otsu's threshold of the pixels inside the boxes (sampled), or undefined when there are too few. */
function textThreshold(image: Grey, boxes: Box[]): number | undefined {
  const step = Math.max(1, Math.round(Math.sqrt((image.width * image.height) / 1_000_000)));
  const histogram = new Array<number>(256).fill(0);
  let total = 0;
  for (const box of boxes)
    for (const v of pixels(image, box, step)) {
      histogram[v]!++;
      total++;
    }
  if (total < 100) return undefined;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * histogram[i]!;
  let sumB = 0;
  let weightB = 0;
  let best = -1;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    weightB += histogram[t]!;
    if (weightB === 0) continue;
    const weightF = total - weightB;
    if (weightF === 0) break;
    sumB += t * histogram[t]!;
    const between = weightB * weightF * (sumB / weightB - (sum - sumB) / weightF) ** 2;
    if (between > best) {
      best = between;
      threshold = t + 1;
    }
  }
  return threshold;
}

/**
 * Boxes of show-through dropped: where a box's darkest pixels are much lighter than the ink of the
 * page's other boxes, it is text from the other side of the leaf.
 */
function withoutShowThrough(boxes: TextBox[], image: Grey): TextBox[] {
  const step = Math.max(1, Math.round(Math.sqrt((image.width * image.height) / 1_000_000)));
  const dark = boxes.map((b) => quantile(pixels(image, b, step), 0.1));
  const paper = quantile(
    pixels(image, { left: 0, top: 0, right: image.width, bottom: image.height }, step * 4),
    0.5,
  );
  // The page's ink: the darkness of the boxes holding most of the text (the darker half by area).
  const ink = quantile(dark, 0.25);
  return boxes.filter((_, i) => dark[i]! <= ink + (paper - ink) * LAYOUT.ghost);
}

/**
 * The text frame: between its outermost vertical rules, where most of the text lies between them;
 * otherwise as wide as the long horizontal rules drawn along its top and bottom; otherwise the boxes'
 * extent. Lines beyond it are margin lines (or a half-leaf's centre strip).
 */
function frameOf(boxes: TextBox[], rulings: Rulings, columnWidth: number): Box {
  const extent = {
    left: Math.min(...boxes.map((b) => b.left)),
    right: Math.max(...boxes.map((b) => b.right)),
    top: Math.min(...boxes.map((b) => b.top)),
    bottom: Math.max(...boxes.map((b) => b.bottom)),
  };
  const area = (b: Box) => width(b) * height(b);
  const total = boxes.reduce((sum, b) => sum + area(b), 0);
  /** Whether the boxes beyond x (on one side) are margin: little of the text, in a strip narrower than a column. */
  const margin = (beyond: TextBox[]) =>
    beyond.length > 0 &&
    beyond.reduce((sum, b) => sum + area(b), 0) <= total * LAYOUT.marginArea &&
    Math.max(...beyond.map((b) => b.right)) - Math.min(...beyond.map((b) => b.left)) <=
      columnWidth * LAYOUT.marginWidth;
  const xs = rulings.vertical.map(centreX).sort((a, b) => a - b);
  const frame = { ...extent };
  // The outermost rule on each side is the frame's side if beyond it there is only margin.
  if (xs.length > 0 && margin(boxes.filter((b) => centreX(b) < xs[0]!))) frame.left = xs[0]!;
  if (xs.length > 0 && margin(boxes.filter((b) => centreX(b) > xs.at(-1)!))) frame.right = xs.at(-1)!;
  if (frame.left !== extent.left || frame.right !== extent.right || xs.length >= 2) return frame;
  // Rules at least half as wide as the text, above or below most of it.
  const long = rulings.horizontal.filter((l) => width(l) >= width(extent) * 0.5);
  if (long.length < 2) return extent;
  const widest = long.reduce((a, b) => (width(b) > width(a) ? b : a));
  const slack = width(widest) * 0.01;
  return { ...extent, left: widest.left - slack, right: widest.right + slack };
}

/** Registers (上下欄): the frame cut by horizontal rules that cross it, top first. */
function registersOf(frame: Box, rulings: Rulings, boxes: TextBox[]): Box[] {
  const cuts = rulings.horizontal
    .filter(
      (line) =>
        line.left <= frame.left + width(frame) * 0.2 && line.right >= frame.right - width(frame) * 0.2,
    )
    .map((line) => (line.top + line.bottom) / 2)
    .filter((y) => boxes.some((b) => b.bottom <= y) && boxes.some((b) => b.top >= y))
    .sort((a, b) => a - b);
  const registers: Box[] = [];
  let top = -Infinity;
  for (const y of [...cuts, Infinity]) {
    const register = { left: frame.left, right: frame.right, top, bottom: y };
    // A band holding no box's centre (between a double rule) is no register.
    if (boxes.some((b) => (b.top + b.bottom) / 2 >= register.top && (b.top + b.bottom) / 2 < register.bottom))
      registers.push(register);
    top = y;
  }
  return registers;
}

/** The rules round a box outside the frame (its strip), or none. */
function stripAround(box: Box, rulings: Rulings, pageWidth: number): Box | undefined {
  const x = centreX(box);
  const left = Math.max(0, ...rulings.vertical.filter((l) => l.right <= x).map((l) => l.right));
  const right = Math.min(pageWidth, ...rulings.vertical.filter((l) => l.left >= x).map((l) => l.left));
  return right > left ? { left, right, top: box.top, bottom: box.bottom } : undefined;
}

/**
 * Whether the strip holds a fish-tail mark (魚尾): a solid dark band across it, rows inked across most of
 * its width over a good part of its width in height, within the rows of `within` (the frame).
 */
function hasFishTail(
  mask: Uint8Array,
  pageWidth: number,
  strip: Box,
  within: Box,
  columnWidth: number,
): boolean {
  const w = Math.round(width(strip));
  if (w < 4) return false;
  const from = Math.max(0, Math.round(within.top));
  const to = Math.min(mask.length / pageWidth, Math.round(within.bottom));
  const inset = Math.round(w * 0.1);
  let run = 0;
  for (let y = from; y < to; y++) {
    let ink = 0;
    for (let x = Math.round(strip.left) + inset; x < Math.round(strip.right) - inset; x++)
      ink += mask[y * pageWidth + x]!;
    if (ink >= (w - 2 * inset) * LAYOUT.fishTailInk) {
      if (++run >= Math.max(w, columnWidth) * LAYOUT.fishTailHeight) return true;
    } else run = 0;
  }
  return false;
}

/** A column of the page (a lane) with the boxes in it. */
interface Lane extends Box {
  boxes: Box[];
  /** Whether the lane's width is the column's own (between rules) or taken from its boxes. */
  ruled: boolean;
  centre?: boolean;
}

/**
 * The columns of a register. The boxes, cut where a vertical rule runs through them and where a box two
 * lines wide has its least ink, are grouped by where they stand across the page (the tallest first; a
 * box joins the column its centre lies in; columns that overlap, or narrow ones side by side that
 * together are one column wide, are one). A column between two rules takes the rules as its edges.
 */
function lanesOf(
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

/**
 * Down a column: runs of main text and of double-line notes, in reading order. A note is two lines of small
 * characters side by side, seen as two narrow boxes next to each other by either detector pass (the
 * squeezed one that joins columns, or the plain one that keeps a note's lines apart), or as a narrow box
 * off the column's middle (its other line missed). Its right line is read before its left one; the rest
 * of the column's text, between the notes, is main text.
 */
function linesOf(lane: Lane, columnWidth: number, fine: Box[]): Array<{ box: Box; note: boolean }> {
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

/** Width of the recogniser's input (px). */
export const CROP_WIDTH = 48;

/** A column cut for the recogniser, with where it lies on the page. */
export interface ColumnCrop extends Grey {
  placement: {
    /** The page row of the crop's first row. */
    top: number;
    /** Crop pixels per page pixel. */
    scale: number;
    /** Rows of the crop that hold the page (below them is padding to a multiple of 8). */
    height: number;
  };
}

/** A column's box cut from the page and scaled to the recogniser's width, its height a multiple of 8. */
export async function columnCrop(image: Grey, box: Box): Promise<ColumnCrop> {
  const left = Math.max(0, Math.floor(box.left));
  const top = Math.max(0, Math.floor(box.top));
  const right = Math.min(image.width, Math.ceil(box.right));
  const bottom = Math.min(image.height, Math.ceil(box.bottom));
  const w = Math.max(1, right - left);
  const h = Math.max(1, bottom - top);
  const scaledHeight = Math.max(8, Math.round((h * CROP_WIDTH) / w));
  const outHeight = Math.ceil(scaledHeight / 8) * 8;
  const scaled = await sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), {
    raw: { width: image.width, height: image.height, channels: 1 },
  })
    .extract({ left, top, width: w, height: h })
    .resize(CROP_WIDTH, scaledHeight, { fit: 'fill', kernel: 'lanczos3' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const data = new Uint8Array(CROP_WIDTH * outHeight).fill(255);
  data.set(scaled.subarray(0, CROP_WIDTH * scaledHeight));
  return {
    width: CROP_WIDTH,
    height: outHeight,
    data,
    placement: { top, scale: CROP_WIDTH / w, height: scaledHeight },
  };
}
