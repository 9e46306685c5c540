/** The layout's parameters and the geometry its stages share (layout.ts and the files beside it). */
import type { Box, Grey } from './geometry.ts';

/** The layout's parameters, each a share of a named length (what it separates in its comment). */
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
  /** A rule between registers reaches within this share of the frame's width of each of its sides. */
  registerReach: 0.2,
  /**
   * A horizontal rule is no cut between registers if a text box runs on past it by more than this share
   * of the column width on both sides (a seal's border printed over the columns, not a rule between them).
   */
  crossing: 0.5,
  /** A ruled column at the frame's edge narrower than this share of the others is the centre strip's half. */
  edgeStrip: 0.75,
  /** A centre strip: the share of its width a fish-tail mark inks across a row… */
  fishTailInk: 0.75,
  /** …over at least this share of the strip's (or a column's, if wider) width in height (a stroke is thinner). */
  fishTailHeight: 0.14,
};

export const width = (b: Box) => b.right - b.left;
export const height = (b: Box) => b.bottom - b.top;
export const centreX = (b: Box) => (b.left + b.right) / 2;
export const overlapY = (a: Box, b: Box) =>
  Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** Grey values of a box's pixels (every `step`-th row and column). */
export function pixels(image: Grey, box: Box, step: number): number[] {
  const out: number[] = [];
  for (let y = Math.max(0, Math.floor(box.top)); y < Math.min(image.height, box.bottom); y += step)
    for (let x = Math.max(0, Math.floor(box.left)); x < Math.min(image.width, box.right); x += step)
      out.push(image.data[y * image.width + x]!);
  return out;
}

/** A column of the page (a lane) with the boxes in it. */
export interface Lane extends Box {
  boxes: Box[];
  /** Whether the lane's width is the column's own (between rules) or taken from its boxes. */
  ruled: boolean;
  centre?: boolean;
}
