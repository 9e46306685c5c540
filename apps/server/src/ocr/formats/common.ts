/** What the OCR formats share: the spec's groups, import limits and errors, and characters from boxes. */
import { OCR_IMPORT_MAX_CHARS, type OcrJson, type OcrWord } from '@guji/shared';

export const GROUPS = ['header', 'middleSeam', 'content', 'footer', 'others'] as const;
export type Group = (typeof GROUPS)[number];

export { escapeXml } from '../../lib/xml.ts';

export class OcrFormatError extends Error {}

/**
 * Bounds of reading one imported file (besides its size, OCR_IMPORT_MAX_CHARS): a real page's ALTO or
 * hOCR has a few thousand elements nested about ten deep, so anything far past that is refused as soon
 * as it is seen, and the work stays linear in the input.
 */
export const OCR_IMPORT_LIMITS = {
  /** Characters of the file (the request schema refuses longer content first). */
  maxChars: OCR_IMPORT_MAX_CHARS,
  /** Elements of the whole file. */
  maxElements: 100_000,
  /** Elements open at once. */
  maxDepth: 64,
  /** Characters of text read into the page (one ALTO String of several characters counts each). */
  maxWords: 20_000,
} as const;

export type Box = { left: number; top: number; right: number; bottom: number };

/** Counts the characters read against OCR_IMPORT_LIMITS.maxWords. */
export class WordBudget {
  private used = 0;
  constructor(private readonly label: string) {}
  take(n: number): void {
    this.used += n;
    if (this.used > OCR_IMPORT_LIMITS.maxWords)
      throw new OcrFormatError(
        `${this.label} 文件的文字过多（超过 ${OCR_IMPORT_LIMITS.maxWords} 字），不像是一页的文字`,
      );
  }
}

/** An OCR JSON page of the given size with no text yet. */
export function emptyOcr(width: number, height: number): OcrJson {
  return {
    imginfo: { width, height },
    ocr_res: { header: [], footer: [], middleSeam: [], content: [], others: [] },
  };
}

/** The spec's group a block or paragraph id names by its prefix (`middleSeam_2`); content otherwise. */
export function groupOf(id: string | undefined): Group {
  const name = (id ?? '').split(/[_\-\s]/)[0] ?? '';
  return (GROUPS as readonly string[]).includes(name) ? (name as Group) : 'content';
}

/** One box per character; a box holding several characters is divided along its longer side. */
export function splitWord(
  content: string,
  box: { left: number; top: number; right: number; bottom: number },
  confidence: number,
  note: boolean,
): OcrWord[] {
  const chars = [...content].filter((c) => c.trim() !== '');
  const vertical = box.bottom - box.top >= box.right - box.left;
  const step = (vertical ? box.bottom - box.top : box.right - box.left) / Math.max(1, chars.length);
  return chars.map((word, i) => {
    const points = vertical
      ? {
          left: box.left,
          right: box.right,
          top: Math.round(box.top + i * step),
          bottom: Math.round(box.top + (i + 1) * step),
        }
      : {
          top: box.top,
          bottom: box.bottom,
          left: Math.round(box.left + i * step),
          right: Math.round(box.left + (i + 1) * step),
        };
    return {
      word,
      type: note ? ('note' as const) : ('text' as const),
      confidence: Math.min(1, Math.max(0, Number.isFinite(confidence) ? confidence : 1)),
      points,
      fontSize: Math.round(Math.min(points.right - points.left, points.bottom - points.top)),
    };
  });
}

/** A number to three decimals, as the formats write confidences and sizes. */
export const round = (x: number) => Math.round(x * 1000) / 1000;
