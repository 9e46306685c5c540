/** The characters of the text pane, in either view: their classes and their text as shown. */
import type { OcrJson, OcrWord } from '@guji/shared';
import type { TextConverter } from '../../language/index.ts';

/** Spec §9: the recognised text is drawn at 0.7 of its measured size. */
export const OCR_FONT_SCALE = 0.7;

/** Spec §9: confidence at or below 0.5 is shown red, up to 0.7 yellow. */
export function confidenceClass(confidence: number): 'ocr-low' | 'ocr-mid' | undefined {
  if (confidence <= 0.5) return 'ocr-low';
  if (confidence <= 0.7) return 'ocr-mid';
  return undefined;
}

/** The classes of a character: its view's own, note (小注), confidence colour, search hit. */
export function charClassName(base: string, word: OcrWord, hit: boolean): string {
  return [
    base,
    word.type === 'note' ? 'ocr-note' : undefined,
    confidenceClass(word.confidence),
    hit ? 'is-hit' : undefined,
  ]
    .filter(Boolean)
    .join(' ');
}

/** A character as shown: converted to simplified while 「简体显示」 is on (`convert`), else as recorded. */
export function charText(word: OcrWord, convert: TextConverter | null): string {
  return convert ? convert(word.word) : word.word;
}

/**
 * The page's body text as the pane shows it, for 复制全文: columns in reading order, one a line, notes
 * included, each character as shown.
 */
export function pageText(ocr: OcrJson, convert: TextConverter | null): string {
  return ocr.ocr_res.content
    .filter((line) => line.words.length > 0)
    .map((line) => line.words.map((word) => charText(word, convert)).join(''))
    .join('\n');
}

/** The tooltip of a character: how sure the recognition was; none for certain text (typeset, proofread). */
export function charTitle(word: OcrWord): string | undefined {
  return word.confidence < 1 ? `置信度 ${word.confidence.toFixed(2)}` : undefined;
}
