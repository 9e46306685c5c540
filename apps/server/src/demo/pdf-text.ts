import { createHash } from 'node:crypto';
import * as fontkit from 'fontkit';
import { rgb, type Color, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import { buildTrueType, type TrueTypeGlyph } from '../lib/truetype.ts';
import { DRAWING_FONTS, loadGlyphs, type GlyphSet } from './fonts.ts';

/** pdf-lib reads the fonts it embeds with fontkit; the ones made here are plain TrueType. */
const fontReader = {
  create: (bytes: Uint8Array) => fontkit.create(Buffer.from(bytes)),
} as unknown as Parameters<PDFDocument['registerFontkit']>[0];

/**
 * The PostScript names the embedded fonts go by (the subsets' own name tables give Noto's as
 * "…ExtraLight-Regular", the variable font's default instance, though the outlines are the Regular's).
 */
const FONT_NAMES: Record<string, string> = {
  '@fontsource/noto-serif-tc': 'NotoSerifTC-Regular',
  '@fontsource/noto-serif-sc': 'NotoSerifSC-Regular',
  '@chinese-fonts/lxgwwenkai': 'LXGWWenKai-Regular',
};

/** A space's advance, in ems (as the SVG stamps space words). */
const SPACE = 0.3;

/**
 * Consecutive characters of a line drawn with one typeface: the first of `DRAWING_FONTS` that has each
 * of them, so also the first that has all of them. `fontPackage` is undefined for characters no
 * typeface has, drawn as empty boxes. Whitespace (as a space) joins the run it falls in.
 */
export interface TextRun {
  fontPackage: string | undefined;
  text: string;
}

export interface DrawOptions {
  x: number;
  /** The baseline. */
  y: number;
  size: number;
  color?: Color;
}

/**
 * Real text in a PDF: the characters a document shows, embedded once per typeface as a TrueType font of
 * exactly those glyphs (taken from the typefaces' .woff2 subsets), so the PDF's text can be selected,
 * searched and copied and no system font is needed to show it. A character no typeface has is an empty
 * box, drawn as a rectangle, and is not in the text layer.
 */
export class PdfText {
  private constructor(
    private readonly glyphs: GlyphSet,
    private readonly fonts: Map<string, PDFFont>,
    private readonly prepared: Set<string>,
  ) {}

  /** Embeds into `pdf` the glyphs of every character of `texts`: all the text it will draw. */
  static async embed(pdf: PDFDocument, texts: Iterable<string>): Promise<PdfText> {
    const chars = new Set<string>();
    for (const text of texts) for (const ch of text) if (!/\s/u.test(ch)) chars.add(ch);
    const glyphs = await loadGlyphs(chars, DRAWING_FONTS);
    const byPackage = new Map<string, { name: string; font: fontkit.Font; glyphs: TrueTypeGlyph[] }>();
    for (const ch of chars) {
      const source = glyphs.source(ch);
      if (!source) continue;
      let face = byPackage.get(source.fontPackage);
      if (!face) {
        const name =
          FONT_NAMES[source.fontPackage] ??
          (source.font.postscriptName || 'Font').replace(/[^A-Za-z0-9-]/g, '');
        face = { name, font: source.font, glyphs: [] };
        byPackage.set(source.fontPackage, face);
      }
      face.glyphs.push({
        codePoint: ch.codePointAt(0)!,
        advance: source.glyph.advanceWidth,
        commands: source.glyph.path.commands,
      });
    }
    pdf.registerFontkit(fontReader);
    const fonts = new Map<string, PDFFont>();
    for (const [fontPackage, face] of byPackage) {
      const { unitsPerEm, hhea } = face.font;
      const bytes = buildTrueType({
        name: face.name,
        unitsPerEm,
        ascent: hhea.ascent,
        descent: hhea.descent,
        glyphs: [...face.glyphs, { codePoint: 0x20, advance: SPACE * unitsPerEm, commands: [] }],
      });
      // A subset's name starts with a tag of six capitals and '+' (PDF 32000-1 §9.6.4), here one
      // derived from the font, so the same characters give the same name.
      const tag = [...createHash('sha256').update(bytes).digest().subarray(0, 6)]
        .map((b) => String.fromCharCode(65 + (b % 26)))
        .join('');
      fonts.set(
        fontPackage,
        await pdf.embedFont(bytes, { subset: false, customName: `${tag}+${face.name}` }),
      );
    }
    return new PdfText(glyphs, fonts, chars);
  }

  /** The runs `text` is drawn in, whitespace made plain spaces. */
  runs(text: string): TextRun[] {
    const runs: TextRun[] = [];
    let leading = '';
    for (const ch of text) {
      const last = runs[runs.length - 1];
      if (/\s/u.test(ch)) {
        if (last) last.text += ' ';
        else leading += ' ';
        continue;
      }
      if (!this.prepared.has(ch)) throw new Error(`PdfText: ${ch} was not embedded`);
      const fontPackage = this.glyphs.source(ch)?.fontPackage;
      if (last && last.fontPackage === fontPackage) last.text += ch;
      else runs.push({ fontPackage, text: runs.length === 0 ? leading + ch : ch });
    }
    return runs;
  }

  /** The width of `text` at `size`. */
  width(text: string, size: number): number {
    return this.runs(text).reduce((sum, run) => sum + this.runWidth(run, size), 0);
  }

  /** Draws `text` on `page` from (x, baseline y); returns the x where it ends. */
  draw(page: PDFPage, text: string, { x, y, size, color = rgb(0, 0, 0) }: DrawOptions): number {
    for (const run of this.runs(text)) {
      const font = run.fontPackage === undefined ? undefined : this.fonts.get(run.fontPackage);
      if (font) {
        page.drawText(run.text, { x, y, size, font, color });
      } else {
        // As `charPath` in the SVG stamps: a hollow square the size of a character, on the baseline.
        let at = x;
        for (const ch of run.text) {
          if (ch !== ' ') {
            const border = Math.max(0.5, size * 0.06);
            page.drawRectangle({
              x: at + size * 0.1 + border / 2,
              y: y + size * 0.05 + border / 2,
              width: size * 0.8 - border,
              height: size * 0.8 - border,
              borderColor: color,
              borderWidth: border,
            });
          }
          at += (ch === ' ' ? SPACE : 1) * size;
        }
      }
      x += this.runWidth(run, size);
    }
    return x;
  }

  /**
   * `text` broken into lines no wider than `maxWidth` at `size`: at spaces where it can, else between
   * characters (ideographs need no space to break at).
   */
  wrap(text: string, size: number, maxWidth: number): string[] {
    const lines: string[] = [];
    let line = '';
    for (const ch of text) {
      const next = line + ch;
      if (line === '' || this.width(next, size) <= maxWidth) {
        line = next;
        continue;
      }
      // A short last word (a number, a paper size) moves down whole; otherwise the line breaks here.
      const space = line.lastIndexOf(' ');
      const [keep, carry] =
        space > 0 && !/\s/u.test(ch) && [...line.slice(space + 1)].length <= 16
          ? [line.slice(0, space), line.slice(space + 1)]
          : [line, ''];
      lines.push(keep.trimEnd());
      line = /\s/u.test(ch) ? carry : carry + ch;
    }
    if (line.trim() !== '' || lines.length === 0) lines.push(line.trimEnd());
    return lines;
  }

  private runWidth(run: TextRun, size: number): number {
    const font = run.fontPackage === undefined ? undefined : this.fonts.get(run.fontPackage);
    if (font) return font.widthOfTextAtSize(run.text, size);
    return [...run.text].reduce((sum, ch) => sum + (ch === ' ' ? SPACE : 1) * size, 0);
  }
}
