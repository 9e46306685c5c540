/**
 * Stage 3b of the OCR pipeline: a scan that holds several pages (a facsimile reprint's sheet of two or
 * four reduced leaves, two separate leaves scanned side by side) split into its pages, each then laid
 * out on its own (issue 28 part 2). The pages of a sheet stand apart by gutters: bands of blank paper
 * that run right across the text, with no detected text and no rule in them, wider than any gap between
 * lines or a blank column. Cut recursively (an XY cut): across first (upper pages before lower), then
 * down (the right page before the left), as a reader of vertical books takes them.
 */
import type { Box, Grey } from './geometry.ts';
import { runs } from './geometry.ts';
import { height, width } from './layout-common.ts';

export const SHEETS = {
  /**
   * A gutter is at least this many column pitches (centre to centre) of blank paper: a gap between two
   * lines, between a column's characters, or a blank ruled column (a pitch less its rule) is narrower.
   */
  gutter: 1.5,
  /**
   * A row (or column) of pixels across the text is blank when at most this share of it is ink: dust and
   * specks, where a rule crossing the band (a page's column rules, a rule between registers) inks more.
   */
  blank: 0.005,
  /** Each page of a sheet spans at least this share of the text's height (or width) on the sheet. */
  share: 0.3,
  /** Cuts within cuts at most this deep (a sheet of 2 × 2 pages needs 2). */
  depth: 3,
};

/**
 * The pages of a sheet, in reading order (the whole image if it holds one page), from the detector's
 * boxes, the ink mask (1 = ink) of the upright page and the text's column width (px).
 */
export function sheetsOf(boxes: Box[], mask: Grey, columnWidth: number): Box[] {
  const whole: Box = { left: 0, top: 0, right: mask.width, bottom: mask.height };
  if (boxes.length === 0 || columnWidth <= 0) return [whole];
  return cut(whole, boxes, mask, pitchOf(boxes, columnWidth), 0);
}

/**
 * The column pitch (px): the median distance from a column's box to the next one on its left that
 * shares its rows, among the boxes at least a column wide; the column width where no two do.
 */
export function pitchOf(boxes: Box[], columnWidth: number): number {
  const columns = boxes.filter((b) => width(b) >= columnWidth * 0.5 && height(b) >= columnWidth);
  const centre = (b: Box) => (b.left + b.right) / 2;
  const gaps: number[] = [];
  for (const b of columns) {
    let next = Infinity;
    for (const o of columns) {
      const shared = Math.min(b.bottom, o.bottom) - Math.max(b.top, o.top);
      if (o !== b && centre(o) < centre(b) && shared > 0.5 * Math.min(height(b), height(o)))
        next = Math.min(next, centre(b) - centre(o));
    }
    if (next < Infinity) gaps.push(next);
  }
  if (gaps.length === 0) return columnWidth;
  gaps.sort((a, b) => a - b);
  return Math.max(columnWidth, gaps[Math.floor(gaps.length / 2)]!);
}

function cut(area: Box, boxes: Box[], mask: Grey, pitch: number, depth: number): Box[] {
  if (depth >= SHEETS.depth || boxes.length < 2) return [area];
  const text = extentOf(boxes);
  for (const across of [true, false]) {
    const at = gutterOf(text, boxes, mask, pitch, across);
    if (at === undefined) continue;
    const first = boxes.filter((b) => (across ? (b.top + b.bottom) / 2 < at : (b.left + b.right) / 2 > at));
    const second = boxes.filter((b) => !first.includes(b));
    // Across: the upper part first; down: the right part first.
    const [a, b]: [Box, Box] = across
      ? [
          { ...area, bottom: at },
          { ...area, top: at },
        ]
      : [
          { ...area, left: at },
          { ...area, right: at },
        ];
    return [...cut(a, first, mask, pitch, depth + 1), ...cut(b, second, mask, pitch, depth + 1)];
  }
  return [area];
}

/** The middle of the widest gutter across (y) or down (x) the text, if one divides it into two pages. */
function gutterOf(text: Box, boxes: Box[], mask: Grey, pitch: number, across: boolean): number | undefined {
  const [from, to] = across ? [text.top, text.bottom] : [text.left, text.right];
  const [spanFrom, spanTo] = across ? [text.left, text.right] : [text.top, text.bottom];
  const length = Math.round(to) - Math.round(from);
  if (length <= 0) return undefined;
  // Ink per row (across) or per column (down) of the text's extent.
  const ink = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    const p = Math.round(from) + i;
    let count = 0;
    for (
      let q = Math.max(0, Math.round(spanFrom));
      q < Math.min(across ? mask.width : mask.height, spanTo);
      q++
    )
      count += mask.data[across ? p * mask.width + q : q * mask.width + p]!;
    ink[i] = count;
  }
  // Rows (columns) that no box crosses.
  const crossed = new Uint8Array(length);
  for (const b of boxes) {
    const [s, e] = across ? [b.top, b.bottom] : [b.left, b.right];
    for (let i = Math.max(0, Math.floor(s - from)); i < Math.min(length, Math.ceil(e - from)); i++)
      crossed[i] = 1;
  }
  const limit = (spanTo - spanFrom) * SHEETS.blank;
  const blank = runs(
    Array.from(ink, (v, i) => (v <= limit && !crossed[i] ? 1 : 0)),
    (v) => v === 1,
  ).filter(([s, e]) => s > 0 && e < length && e - s >= pitch * SHEETS.gutter);
  let best: number | undefined;
  let bestWidth = 0;
  for (const [s, e] of blank) {
    const at = from + (s + e) / 2;
    const centre = (b: Box) => (across ? (b.top + b.bottom) / 2 : (b.left + b.right) / 2);
    const before = boxes.filter((b) => centre(b) < at);
    const after = boxes.filter((b) => centre(b) >= at);
    if (before.length === 0 || after.length === 0) continue;
    const side = (part: Box[]) => (across ? height(extentOf(part)) : width(extentOf(part)));
    if (side(before) < length * SHEETS.share || side(after) < length * SHEETS.share) continue;
    if (e - s > bestWidth) {
      best = at;
      bestWidth = e - s;
    }
  }
  return best;
}

function extentOf(boxes: Box[]): Box {
  return {
    left: Math.min(...boxes.map((b) => b.left)),
    top: Math.min(...boxes.map((b) => b.top)),
    right: Math.max(...boxes.map((b) => b.right)),
    bottom: Math.max(...boxes.map((b) => b.bottom)),
  };
}

/** The part `area` of a grey image, as an image of its own. */
export function cropGrey(image: Grey, area: Box): Grey {
  const left = Math.max(0, Math.round(area.left));
  const top = Math.max(0, Math.round(area.top));
  const right = Math.min(image.width, Math.round(area.right));
  const bottom = Math.min(image.height, Math.round(area.bottom));
  const out = new Uint8Array((right - left) * (bottom - top));
  for (let y = top; y < bottom; y++)
    out.set(image.data.subarray(y * image.width + left, y * image.width + right), (y - top) * (right - left));
  return { width: right - left, height: bottom - top, data: out };
}
