/**
 * The characters of a page's recognised text as the reader links them between the text pane and the
 * page image: a key per character of the body text (`ocr_res.content`), its box on the image, the
 * character under a point of the image and the characters under search hits.
 */
import type { OcrJson, OcrPoints } from '@guji/shared';

/** `${lineIndex}:${wordIndex}` in ocr_res.content. */
export type WordKey = string;

export function wordKey(line: number, index: number): WordKey {
  return `${line}:${index}`;
}

/** The line and word of a key; null for anything that is not a key. */
function parseKey(key: WordKey): [number, number] | null {
  const match = /^(\d+):(\d+)$/.exec(key);
  return match ? [Number(match[1]), Number(match[2])] : null;
}

/** The box of a character on the image (image px); null when the page has no such character. */
export function wordBox(ocr: OcrJson, key: WordKey): OcrPoints | null {
  const parsed = parseKey(key);
  if (!parsed) return null;
  return ocr.ocr_res.content[parsed[0]]?.words[parsed[1]]?.points ?? null;
}

/** A line's bounding box and the largest half character size in it, for skipping whole lines. */
interface LineBounds {
  box: OcrPoints;
  reach: number;
}

const linesOf = new WeakMap<OcrJson, (LineBounds | null)[]>();

/** The bounds of every body line, worked out once per OCR result. */
function lineBounds(ocr: OcrJson): (LineBounds | null)[] {
  let bounds = linesOf.get(ocr);
  if (!bounds) {
    bounds = ocr.ocr_res.content.map(({ words }) => {
      if (words.length === 0) return null;
      const box = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
      let reach = 0;
      for (const { points } of words) {
        box.left = Math.min(box.left, points.left);
        box.top = Math.min(box.top, points.top);
        box.right = Math.max(box.right, points.right);
        box.bottom = Math.max(box.bottom, points.bottom);
        reach = Math.max(reach, halfSize(points));
      }
      return { box, reach };
    });
    linesOf.set(ocr, bounds);
  }
  return bounds;
}

/** Half the size of a character: how far off its box a point still picks it. */
function halfSize(box: OcrPoints): number {
  return Math.max(box.right - box.left, box.bottom - box.top) / 2;
}

/** How far a point lies outside a box (0 inside it or on its edge). */
function distance(box: OcrPoints, { x, y }: { x: number; y: number }): number {
  const dx = Math.max(box.left - x, 0, x - box.right);
  const dy = Math.max(box.top - y, 0, y - box.bottom);
  return Math.hypot(dx, dy);
}

/** The content word whose box holds the image point; if none, the nearest within half a character size; else null. */
export function wordAtPoint(ocr: OcrJson, point: { x: number; y: number }): WordKey | null {
  const lines = lineBounds(ocr);
  let nearest: WordKey | null = null;
  let nearestDistance = Infinity;
  for (const [l, bounds] of lines.entries()) {
    if (!bounds || distance(bounds.box, point) > bounds.reach) continue;
    const words = ocr.ocr_res.content[l]!.words;
    for (const [w, { points }] of words.entries()) {
      const d = distance(points, point);
      if (d === 0) return wordKey(l, w);
      if (d <= halfSize(points) && d < nearestDistance) {
        nearest = wordKey(l, w);
        nearestDistance = d;
      }
    }
  }
  return nearest;
}

/**
 * How much two boxes share, as a share of the smaller one: boxes that only touch or graze each other
 * (neighbouring characters of a scan often do by a pixel or two) share little.
 */
function sharedShare(a: OcrPoints, b: OcrPoints): number {
  const width = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const height = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  if (width <= 0 || height <= 0) return 0;
  const area = (box: OcrPoints) => Math.max(box.right - box.left, 0) * Math.max(box.bottom - box.top, 0);
  const smaller = Math.min(area(a), area(b));
  return smaller > 0 ? (width * height) / smaller : 0;
}

/** Words whose boxes overlap any of the boxes (search hits are given as boxes in image px). */
export function wordsInBoxes(ocr: OcrJson, boxes: readonly OcrPoints[]): Set<WordKey> {
  const found = new Set<WordKey>();
  if (boxes.length === 0) return found;
  const lines = lineBounds(ocr);
  for (const [l, bounds] of lines.entries()) {
    if (!bounds) continue;
    const near = boxes.filter((box) => sharedShare(box, bounds.box) > 0);
    if (near.length === 0) continue;
    for (const [w, { points }] of ocr.ocr_res.content[l]!.words.entries()) {
      // Over half of the smaller box: the character itself, not a neighbour it grazes.
      if (near.some((box) => sharedShare(box, points) > 0.5)) found.add(wordKey(l, w));
    }
  }
  return found;
}

/** Characters of one body column to correct: the column, the first character's place, the text. */
export interface CorrectionRange {
  line: number;
  start: number;
  original: string;
}

/**
 * The characters a reader chose to correct: the selected ones when they are one unbroken run of one
 * column (else null), or the one character linked (tapped) when nothing is selected.
 */
export function correctionRange(
  ocr: OcrJson,
  selected: readonly WordKey[],
  linked: WordKey | null,
): CorrectionRange | null {
  const keys = selected.length > 0 ? selected : linked ? [linked] : [];
  const cells = keys.map(parseKey);
  if (cells.length === 0 || cells.some((cell) => cell === null)) return null;
  const line = cells[0]![0];
  const indexes = cells.map((cell) => cell![1]).sort((a, b) => a - b);
  if (cells.some((cell) => cell![0] !== line)) return null;
  if (indexes.some((index, i) => i > 0 && index !== indexes[i - 1]! + 1)) return null;
  const words = ocr.ocr_res.content[line]?.words.slice(indexes[0], indexes[indexes.length - 1]! + 1) ?? [];
  if (words.length !== indexes.length) return null;
  return { line, start: indexes[0]!, original: words.map((word) => word.word).join('') };
}
