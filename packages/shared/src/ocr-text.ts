import type { OcrJson, OcrPoints, OcrWord } from './api/ocr.ts';
import type { Snippet } from './api/search.ts';

/**
 * The recognised characters of a page's body (the `content` group: text and small notes), in reading
 * order: columns as stored (right to left), each top to bottom. Headers, footers and the centre strip
 * are not part of the text that is searched or selected.
 */
export function contentWords(ocr: OcrJson): OcrWord[] {
  return ocr.ocr_res.content.flatMap((line) => line.words);
}

/** The page's body text: one code point per recognised character, in reading order. */
export function pageText(ocr: OcrJson): string {
  return contentWords(ocr)
    .map((word) => word.word)
    .join('');
}

/** Snippet lengths of spec §9. */
export const SNIPPET_LEAD = 80;
export const SNIPPET_LENGTH = 140;

/**
 * A snippet around a match (spec §9): if the match lies past character 80, the window starts 80
 * before it and is 140 long; otherwise the first 140 characters. An ellipsis marks each cut.
 * Positions count code points (rare characters outside the BMP are one character).
 */
export function makeSnippet(
  text: string,
  matchStart: number,
  matchLength: number,
  /** Every occurrence on the page (the first is `matchStart`); those inside the snippet are highlighted. */
  all: ReadonlyArray<{ start: number; length: number }> = [],
): Snippet {
  const chars = [...text];
  const from = matchStart > SNIPPET_LEAD ? matchStart - SNIPPET_LEAD : 0;
  const to = Math.min(chars.length, from + SNIPPET_LENGTH);
  const before = from > 0 ? '…' : '';
  const after = to < chars.length ? '…' : '';
  const found = matchStart >= 0 && matchLength > 0;
  const occurrences = all.length > 0 ? all : found ? [{ start: matchStart, length: matchLength }] : [];
  return {
    text: before + chars.slice(from, to).join('') + after,
    highlightStart: found ? matchStart - from + before.length : -1,
    highlightLength: found ? Math.max(0, Math.min(matchLength, to - matchStart)) : 0,
    highlights: occurrences
      .filter((m) => m.start >= from && m.start < to && m.length > 0)
      .map((m) => ({ start: m.start - from + before.length, length: Math.min(m.length, to - m.start) })),
  };
}

/** The smallest box around the given boxes (a column of characters, a matched phrase, merged cells). */
export function boundingBox(boxes: readonly OcrPoints[]): OcrPoints {
  return {
    left: Math.min(...boxes.map((b) => b.left)),
    top: Math.min(...boxes.map((b) => b.top)),
    right: Math.max(...boxes.map((b) => b.right)),
    bottom: Math.max(...boxes.map((b) => b.bottom)),
  };
}
