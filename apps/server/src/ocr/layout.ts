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
import type { TextBox } from './detector.ts';
import { centreX, height, LAYOUT, quantile, width, type Lane } from './layout-common.ts';
import {
  boxSamples,
  clampY,
  frameOf,
  hasFishTail,
  notShowThrough,
  registersOf,
  ruledColumnWidth,
  stripAround,
  textThreshold,
  withEndMargins,
} from './layout-frame.ts';
import { lanesOf } from './layout-lanes.ts';
import { linesOf } from './layout-lines.ts';
import { findRulings, type Rulings } from './rulings.ts';
import type { Box, Grey } from './geometry.ts';

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

/**
 * The text's column width (px) from the detector's boxes: what the taller boxes (runs of characters) are
 * wide, the wider among them (a note's lines are narrower).
 */
export function columnWidthOf(detected: Box[]): number {
  const tall = detected.filter((b) => height(b) >= 1.5 * width(b));
  return quantile((tall.length >= 3 ? tall : detected).map(width), 0.75);
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
  let columnWidth = columnWidthOf(detected);
  // Specks (small every way), and ruled lines the detector took for text (thin and long).
  let boxes = detected.filter(
    (b) =>
      (width(b) >= columnWidth * LAYOUT.speck || height(b) >= columnWidth * LAYOUT.speck) &&
      !(width(b) < columnWidth * LAYOUT.rule && height(b) > columnWidth * 2),
  );
  // Each box's pixels sampled once, for show-through and for the ink's threshold.
  let samples = boxSamples(image, boxes);
  const kept = notShowThrough(samples, image);
  boxes = boxes.filter((_, i) => kept[i]);
  samples = samples.filter((_, i) => kept[i]);
  if (boxes.length === 0) return empty;
  // Ink: darker than Otsu's threshold of the pixels inside the text boxes (ink on paper), where the
  // whole page's may split paper from a white margin instead.
  const ink = textThreshold(samples) ?? threshold;
  const mask = new Uint8Array(image.data.length);
  for (let i = 0; i < mask.length; i++) mask[i] = image.data[i]! < ink ? 1 : 0;
  const rulings = findRulings(mask, image.width, image.height, columnWidth);
  // On a ruled page the rules' spacing is the column width (the boxes may all be a note's lines).
  const ruledWidth = ruledColumnWidth(rulings);
  columnWidth = ruledWidth ?? columnWidth;
  const frame = frameOf(boxes, rulings, columnWidth);
  const registers = registersOf(frame, rulings, boxes, columnWidth);
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
    centre =
      markCentreStrips(lanes, { frame, register, rulings, mask, imageWidth: image.width, columnWidth }) ??
      centre;
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
  // A ruled page's columns by its rules: the frame's width in column widths, less the centre strip's.
  const expectedColumns =
    ruledWidth !== undefined
      ? Math.round((frame.right - frame.left) / ruledWidth) - (centre ? 1 : 0)
      : undefined;
  return {
    columns,
    columnWidth,
    slots: slot,
    ...(centre ? { centre } : {}),
    detected: detected.length,
    ...(expectedColumns !== undefined ? { expectedColumns } : {}),
  };
}

export { LAYOUT } from './layout-common.ts';

/** What marking a register's centre strips needs to know of the page. */
interface StripContext {
  frame: Box;
  register: Box;
  rulings: Rulings;
  mask: Uint8Array;
  imageWidth: number;
  columnWidth: number;
}

/**
 * Marks the lanes of one register that are a leaf's centre strip (`lane.centre`): at the frame's edge, an
 * outer column much narrower than the others (the strip cut by the scan's edge) or one with a fish-tail
 * mark; in the middle of the frame, a column with a fish-tail mark (a full opened leaf), whose span it
 * answers.
 */
function markCentreStrips(
  lanes: Lane[],
  { frame, register, rulings, mask, imageWidth, columnWidth }: StripContext,
): [number, number] | undefined {
  let centre: [number, number] | undefined;
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
      hasFishTail(mask, imageWidth, lane, { ...frame, ...clampY(register, frame) }, columnWidth);
    // A half-leaf's centre strip at the frame's edge: an outer column much narrower than the others
    // (the strip cut by the scan's edge), or one with a fish-tail mark. A full opened leaf's: a column
    // in the middle of the frame with a fish-tail mark.
    if ((edge || middle) && lanes.length >= 3 && (narrow || fishTail)) {
      lane.centre = true;
      if (middle) centre = [lane.left, lane.right];
    }
  }
  return centre;
}
