/** Plain-text output of an OCR JSON page. */
import type { OcrJson } from '@guji/shared';

/** The page's body text in reading order, one column a line. */
export function toText(ocr: OcrJson): string {
  return ocr.ocr_res.content.map((line) => line.words.map((w) => w.word).join('')).join('\n') + '\n';
}
