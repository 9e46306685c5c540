/** The layout's page-level helpers: ink threshold, show-through, frame, registers, centre strip, margins. */
import type { TextBox } from './detector.ts';
import { otsuOf } from './binarize.ts';
import { centreX, height, LAYOUT, pixels, quantile, width } from './layout-common.ts';
import type { Rulings } from './rulings.ts';
import type { Box, Grey } from './geometry.ts';

/**
 * A line's box with paper added above and below (LAYOUT.endMargin of its width: the detector's box may end
 * inside its first or last character), but not across a horizontal rule (read as 一).
 */
export function withEndMargins(box: Box, rulings: Rulings): Box {
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
export function ruledColumnWidth(rulings: Rulings): number | undefined {
  const xs = rulings.vertical.map(centreX);
  const gaps = xs.slice(1).map((x, i) => x - xs[i]!);
  const typical = quantile(gaps, 0.5);
  const regular = gaps.filter((g) => Math.abs(g - typical) <= typical * 0.15).length;
  return regular >= LAYOUT.lattice ? typical : undefined;
}

export function clampY(register: Box, frame: Box): { top: number; bottom: number } {
  return { top: Math.max(register.top, frame.top), bottom: Math.min(register.bottom, frame.bottom) };
}

/** Grey values sampled in each box (about a million pixels' worth of the page), for the two below. */
export function boxSamples(image: Grey, boxes: Box[]): number[][] {
  const step = Math.max(1, Math.round(Math.sqrt((image.width * image.height) / 1_000_000)));
  return boxes.map((b) => pixels(image, b, step));
}

/** Otsu's threshold of the pixels sampled inside the boxes, or undefined when there are too few. */
export function textThreshold(samples: number[][]): number | undefined {
  const histogram = new Array<number>(256).fill(0);
  let total = 0;
  for (const box of samples)
    for (const v of box) {
      histogram[v]!++;
      total++;
    }
  return total < 100 ? undefined : otsuOf(histogram);
}

/**
 * Which boxes are show-through (the indices kept are the others): where a box's darkest pixels are much
 * lighter than the ink of the page's other boxes, it is text from the other side of the leaf.
 */
export function notShowThrough(samples: number[][], image: Grey): boolean[] {
  const step = Math.max(1, Math.round(Math.sqrt((image.width * image.height) / 1_000_000)));
  const dark = samples.map((s) => quantile(s, 0.1));
  const paper = quantile(
    pixels(image, { left: 0, top: 0, right: image.width, bottom: image.height }, step * 4),
    0.5,
  );
  // The page's ink: the darkness of the boxes holding most of the text (the darker half by area).
  const ink = quantile(dark, 0.25);
  return dark.map((d) => d <= ink + (paper - ink) * LAYOUT.ghost);
}

/**
 * The text frame: between its outermost vertical rules, where beyond each there is only margin;
 * otherwise as wide as the long horizontal rules drawn along its top and bottom; otherwise the boxes'
 * extent. Lines beyond it are margin lines (or a half-leaf's centre strip).
 */
export function frameOf(boxes: TextBox[], rulings: Rulings, columnWidth: number): Box {
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

/**
 * Registers (上下欄): the frame cut by horizontal rules that cross it and that no line of text crosses,
 * top first.
 */
export function registersOf(frame: Box, rulings: Rulings, boxes: TextBox[], columnWidth: number): Box[] {
  const overrun = columnWidth * LAYOUT.crossing;
  const cuts = rulings.horizontal
    .filter(
      (line) =>
        line.left <= frame.left + width(frame) * LAYOUT.registerReach &&
        line.right >= frame.right - width(frame) * LAYOUT.registerReach,
    )
    .map((line) => (line.top + line.bottom) / 2)
    .filter((y) => boxes.some((b) => b.bottom <= y) && boxes.some((b) => b.top >= y))
    .filter((y) => !boxes.some((b) => b.top < y - overrun && b.bottom > y + overrun))
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
export function stripAround(box: Box, rulings: Rulings, pageWidth: number): Box | undefined {
  const x = centreX(box);
  const left = Math.max(0, ...rulings.vertical.filter((l) => l.right <= x).map((l) => l.right));
  const right = Math.min(pageWidth, ...rulings.vertical.filter((l) => l.left >= x).map((l) => l.left));
  return right > left ? { left, right, top: box.top, bottom: box.bottom } : undefined;
}

/**
 * Whether the strip holds a fish-tail mark (魚尾): a solid dark band across it, rows inked across most of
 * its width over a good part of its width in height, within the rows of `within` (the frame).
 */
export function hasFishTail(
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
