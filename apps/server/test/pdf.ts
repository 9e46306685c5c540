import * as fontkit from 'fontkit';
import { decodePDFRawStream, PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { extractText } from 'unpdf';

/**
 * What a PDF text extractor (PDF.js, through unpdf) reads on each page, runs of whitespace made one
 * space (PDF.js does so itself).
 */
export async function pdfPageTexts(bytes: Uint8Array): Promise<string[]> {
  const { text } = await extractText(bytes.slice());
  return text.map(squeeze);
}

/** `text` with each run of whitespace made one space, as a PDF text extractor gives it. */
export function squeeze(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/** The TrueType fonts a PDF embeds (its FontFile2 streams), read by fontkit. */
export async function embeddedFonts(bytes: Uint8Array): Promise<fontkit.Font[]> {
  const pdf = await PDFDocument.load(bytes);
  const fonts: fontkit.Font[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.get(PDFName.of('Type')) !== PDFName.of('FontDescriptor'))
      continue;
    const file = pdf.context.lookup(object.get(PDFName.of('FontFile2')));
    if (!(file instanceof PDFRawStream)) continue;
    const font = fontkit.create(Buffer.from(decodePDFRawStream(file).decode()));
    if ('unitsPerEm' in font) fonts.push(font);
  }
  return fonts;
}

/** The characters of `text` (whitespace aside) that one of `fonts` draws: a glyph with an outline. */
export function drawnChars(fonts: fontkit.Font[], text: string): string[] {
  return [...text.replace(/\s/g, '')].filter((ch) =>
    fonts.some((font) => {
      const glyph = font.glyphForCodePoint(ch.codePointAt(0)!);
      return glyph.id !== 0 && glyph.path.commands.length > 0;
    }),
  );
}
