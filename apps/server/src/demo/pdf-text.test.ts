import * as fontkit from 'fontkit';
import { decodePDFRawStream, PDFDocument, PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { drawnChars, embeddedFonts, pdfPageTexts } from '../../test/pdf.ts';
import { buildTrueType } from '../lib/truetype.ts';
import { DRAWING_FONTS, loadGlyphs } from './fonts.ts';
import { PdfText } from './pdf-text.ts';

/** The decoded content streams of a saved PDF's first page. */
async function pageContent(bytes: Uint8Array): Promise<string> {
  const page = (await PDFDocument.load(bytes)).getPage(0);
  const contents = page.node.Contents();
  const streams = contents && 'asArray' in contents ? contents.asArray() : [contents];
  return streams
    .map((ref) => page.doc.context.lookup(ref))
    .filter((s): s is PDFRawStream => s instanceof PDFRawStream)
    .map((s) => Buffer.from(decodePDFRawStream(s).decode()).toString('latin1'))
    .join('\n');
}

describe('buildTrueType', () => {
  it('gives back the outlines, advances and code points it was given', async () => {
    const chars = ['學', '数', '𠮷', 'A', '¥'];
    const glyphs = await loadGlyphs(chars, DRAWING_FONTS);
    const bytes = buildTrueType({
      name: 'Test-Regular',
      unitsPerEm: 1000,
      ascent: 880,
      descent: -120,
      glyphs: chars.map((ch) => {
        const { glyph } = glyphs.source(ch)!;
        return { codePoint: ch.codePointAt(0)!, advance: glyph.advanceWidth, commands: glyph.path.commands };
      }),
    });
    const font = fontkit.create(Buffer.from(bytes));
    if (!('unitsPerEm' in font)) throw new Error('not a font');
    expect(font.postscriptName).toBe('Test-Regular');
    expect(font.numGlyphs).toBe(chars.length + 1);
    for (const ch of chars) {
      const source = glyphs.source(ch)!.glyph;
      const made = font.glyphForCodePoint(ch.codePointAt(0)!);
      expect(made.id, ch).not.toBe(0);
      expect(made.advanceWidth, ch).toBe(source.advanceWidth);
      expect(made.path.toSVG(), ch).toBe(source.path.toSVG());
    }
    expect(font.glyphForCodePoint('一'.codePointAt(0)!).id).toBe(0);
  });
});

describe('PdfText', () => {
  it('draws simplified, traditional and rare characters as text, each from its first typeface', async () => {
    const line = '古籍数字图书馆 · 读者 张麗𠮷 論語學而 阰纕 㐀';
    const pdf = await PDFDocument.create();
    const text = await PdfText.embed(pdf, [line]);
    expect(text.runs('读者 张麗𠮷')).toEqual([
      { fontPackage: '@fontsource/noto-serif-sc', text: '读' },
      { fontPackage: '@fontsource/noto-serif-tc', text: '者 ' },
      { fontPackage: '@fontsource/noto-serif-sc', text: '张' },
      { fontPackage: '@fontsource/noto-serif-tc', text: '麗' },
      { fontPackage: '@chinese-fonts/lxgwwenkai', text: '𠮷' },
    ]);
    text.draw(pdf.addPage([595, 842]), line, { x: 40, y: 800, size: 14 });
    const bytes = await pdf.save();
    expect((await pdfPageTexts(bytes))[0]).toContain(line);
    const fonts = await embeddedFonts(bytes);
    // One font per typeface used, holding just the characters drawn (and a space).
    expect(fonts).toHaveLength(3);
    expect(fonts.reduce((n, f) => n + f.numGlyphs, 0)).toBeLessThan(40);
    expect(drawnChars(fonts, line).join('')).toBe(line.replace(/\s/g, ''));
    // No box: nothing stroked.
    expect(await pageContent(bytes)).not.toMatch(/^S$/m);
  });

  it('draws a character no typeface has as an empty box, left out of the text', async () => {
    const line = '读者\u{e000}书';
    const pdf = await PDFDocument.create();
    const text = await PdfText.embed(pdf, [line]);
    expect(text.runs(line).map((r) => r.fontPackage)).toEqual([
      '@fontsource/noto-serif-sc',
      '@fontsource/noto-serif-tc',
      undefined,
      '@fontsource/noto-serif-sc',
    ]);
    const size = 20;
    const end = text.draw(pdf.addPage([300, 100]), line, { x: 10, y: 50, size });
    // The box takes a character's width, so 书 stands where it would.
    expect(end - 10).toBeCloseTo(text.width('读者书', size) + size, 1);
    const bytes = await pdf.save();
    // The box's place reads as a gap.
    expect((await pdfPageTexts(bytes))[0]).toBe('读者 书');
    // One box: one stroked square path.
    expect((await pageContent(bytes)).match(/^S$/gm)).toHaveLength(1);
    expect(() => text.runs('未')).toThrow(/not embedded/);
  });

  it('wraps a line at the width, keeping a short last word whole', async () => {
    const pdf = await PDFDocument.create();
    const line = '1. 《钦定四库全书总目提要》卷一百二十三 第 12 页  子部三十三 杂家类七  A4';
    const text = await PdfText.embed(pdf, [line]);
    const lines = text.wrap(line, 12, 200);
    expect(lines.length).toBeGreaterThan(1);
    for (const part of lines) expect(text.width(part, 12)).toBeLessThanOrEqual(200);
    expect(lines.join('').replace(/\s/g, '')).toBe(line.replace(/\s/g, ''));
    expect(lines.at(-1)).toMatch(/A4$/);
    expect(text.wrap('短', 12, 200)).toEqual(['短']);
  });
});
