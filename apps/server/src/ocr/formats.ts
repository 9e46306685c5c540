/**
 * OCR JSON (spec §3) to and from ALTO XML (v4) and hOCR, so a library can take our text elsewhere and
 * bring text from another OCR system. One character is one ALTO `String` / one hOCR `ocrx_word`; a
 * column is a `TextLine` / `ocr_line`; the spec's groups are `TextBlock`s / `ocr_par`s with the group's
 * name as their id prefix; confidence is ALTO `WC` (0–1) and hOCR `x_wconf` (0–100); small notes carry
 * `STYLEREFS="note"` / `class="ocrx_word note"`. Files are read with a streaming parser (htmlparser2:
 * XML mode for ALTO, HTML mode for hOCR) within OCR_IMPORT_LIMITS, never with regular expressions.
 * One module per format under formats/ (alto.ts, hocr.ts, text.ts, with common.ts and markup-reader.ts
 * shared); this module is their entry point.
 */
import type { OcrJson } from '@guji/shared';
import { altoReader, type OcrReadOptions } from './formats/alto.ts';
import { hocrReader } from './formats/hocr.ts';
import { checkSize, type MarkupReader } from './formats/markup-reader.ts';
export { fromAlto, toAlto, type OcrReadOptions } from './formats/alto.ts';
export { OCR_IMPORT_LIMITS, OcrFormatError } from './formats/common.ts';
export { fromHocr, toHocr } from './formats/hocr.ts';
export { toText } from './formats/text.ts';

export type OcrFormat = 'alto' | 'hocr' | 'txt';

/** How much of the file is parsed between two turns of the event loop. */
const CHUNK_CHARS = 16 * 1024;

function readerFor(format: 'alto' | 'hocr', options: OcrReadOptions): MarkupReader {
  return format === 'alto' ? altoReader(options) : hocrReader();
}

/**
 * fromAlto / fromHocr for a request: the file is parsed a slice at a time, giving the event loop a
 * turn between slices, so a large file never holds up other requests.
 */
export async function readOcrFile(
  format: 'alto' | 'hocr',
  content: string,
  options: OcrReadOptions = {},
): Promise<OcrJson> {
  checkSize(format, content);
  const reader = readerFor(format, options);
  for (let at = 0; at < content.length; at += CHUNK_CHARS) {
    reader.write(content.slice(at, at + CHUNK_CHARS));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return reader.end();
}
