import sharp from 'sharp';
import { chineseNumeral } from '../lib/chinese-numeral.ts';
import type { GlyphSet } from './fonts.ts';
import type { Leaf } from './layout.ts';
import type { OcrJson, OcrLine, OcrWord } from '@guji/shared';
import { INK, noiseSvg, paperSvg, r1 } from './paper.ts';

export interface RenderLeafOptions {
  /** Printed in the centre strip below the fish-tail, e.g. 論語. */
  bookTitle: string;
  /** Printed in the centre strip, e.g. 卷一. */
  volumeName: string;
  /** Glyphs for every character of the leaf, the titles and the leaf number (see {@link leafCharacters}). */
  glyphs: GlyphSet;
  /** Seeds the paper mottling and ink specks: the same seed gives the same image. */
  seed: number;
  /** Image width in pixels (default 2000). */
  width?: number;
  /** Image height in pixels (default 1400). */
  height?: number;
  /** Column rules (界行) between the columns (default true; the OCR benchmark sets false). */
  ruled?: boolean;
}

export interface RenderedLeaf {
  png: Buffer;
  width: number;
  height: number;
  /** Ground truth in the spec's OCR JSON: one `content` line per column, `middleSeam` for the strip. */
  ocr: OcrJson;
}

/** Deterministic PRNG (mulberry32) so a seed always yields the same page. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Positions of everything on a leaf, in image pixels. */
interface LeafGeometry {
  /** Outer edge of the thick border line. */
  outer: { x0: number; y0: number; x1: number; y1: number; stroke: number };
  /** The thin inner border line (centre of the stroke). */
  inner: { x0: number; y0: number; x1: number; y1: number; stroke: number };
  /** The text area inside the inner border. */
  area: { x0: number; y0: number; x1: number; y1: number };
  columnWidth: number;
  cellHeight: number;
  /** Top of the first character cell. */
  textTop: number;
  fontSize: number;
  /** Em of the small characters of double-line notes. */
  noteSize: number;
  strip: { x0: number; x1: number };
  ruleStroke: number;
  /** Horizontal centre of column `index` (reading order). */
  columnCentre(index: number): number;
}

function leafGeometry(leaf: Leaf, width: number, height: number): LeafGeometry {
  const scale = Math.min(width / 2000, height / 1400);
  const thick = 9 * scale;
  const thin = 2.5 * scale;
  const gap = 6 * scale;
  const mx = width * 0.04;
  const my = height * 0.06;
  const outer = { x0: mx, y0: my, x1: width - mx, y1: height - my, stroke: thick };
  const innerInset = thick / 2 + gap + thin / 2;
  const inner = {
    x0: mx + innerInset,
    y0: my + innerInset,
    x1: width - mx - innerInset,
    y1: height - my - innerInset,
    stroke: thin,
  };
  const area = {
    x0: inner.x0 + thin / 2,
    y0: inner.y0 + thin / 2,
    x1: inner.x1 - thin / 2,
    y1: inner.y1 - thin / 2,
  };
  const stripRatio = 1.4;
  const columnWidth = (area.x1 - area.x0) / (leaf.columnsPerHalf * 2 + stripRatio);
  const padY = (area.y1 - area.y0) * 0.012;
  const cellHeight = (area.y1 - area.y0 - 2 * padY) / leaf.charsPerColumn;
  const strip = {
    x1: area.x1 - leaf.columnsPerHalf * columnWidth,
    x0: area.x1 - leaf.columnsPerHalf * columnWidth - stripRatio * columnWidth,
  };
  return {
    outer,
    inner,
    area,
    columnWidth,
    cellHeight,
    textTop: area.y0 + padY,
    fontSize: Math.min(cellHeight * 0.9, columnWidth * 0.72),
    noteSize: Math.min(cellHeight * 0.45, columnWidth * 0.34),
    strip,
    ruleStroke: 1.8 * scale,
    columnCentre(index) {
      const inRight = index < leaf.columnsPerHalf;
      const right = inRight ? area.x1 : strip.x0;
      const slot = inRight ? index : index - leaf.columnsPerHalf;
      return right - (slot + 0.5) * columnWidth;
    },
  };
}

/** Glyph path data at the origin, per glyph set and size, shared by all leaves of a run. */
const pathCache = new WeakMap<GlyphSet, Map<string, string | undefined>>();

function originPath(glyphs: GlyphSet, char: string, fontSize: number): string | undefined {
  let cache = pathCache.get(glyphs);
  if (!cache) {
    cache = new Map();
    pathCache.set(glyphs, cache);
  }
  const key = `${fontSize}:${char}`;
  if (!cache.has(key)) cache.set(key, glyphs.pathData(char, 0, 0, fontSize));
  return cache.get(key);
}

/** Collects glyph definitions and placed characters, and the OCR words they make. */
class GlyphWriter {
  private readonly ids = new Map<string, string>();
  private readonly defs: string[] = [];
  private readonly uses: string[] = [];

  constructor(
    private readonly glyphs: GlyphSet,
    private readonly random: () => number,
  ) {}

  /**
   * Draws `char` upright and centred on (cx, cy) with an em of `fontSize`; returns its OCR word,
   * or undefined (blank cell) when the font lacks it.
   */
  place(
    char: string,
    cx: number,
    cy: number,
    fontSize: number,
    type: OcrWord['type'] = 'text',
  ): OcrWord | undefined {
    const size = r1(fontSize);
    const key = `${size}:${char}`;
    let id = this.ids.get(key);
    if (id === undefined) {
      const d = originPath(this.glyphs, char, size);
      if (d === undefined) return undefined;
      id = `g${this.ids.size}`;
      this.ids.set(key, id);
      this.defs.push(`<path id="${id}" d="${d}"/>`);
    }
    const { ascent, descent } = this.glyphs.emBox;
    const x = cx - (this.glyphs.advance(char) * size) / 2;
    const baseline = cy + (ascent - (ascent + descent) / 2) * size;
    // Uneven inking, as on a woodblock: each impression a little lighter or darker.
    const opacity = (0.86 + this.random() * 0.14).toFixed(2);
    this.uses.push(`<use xlink:href="#${id}" x="${r1(x)}" y="${r1(baseline)}" fill-opacity="${opacity}"/>`);
    const half = size / 2;
    return {
      word: char,
      type,
      confidence: 1,
      points: {
        left: Math.round(cx - half),
        top: Math.round(cy - half),
        right: Math.round(cx + half),
        bottom: Math.round(cy + half),
      },
      fontSize: Math.round(size),
    };
  }

  defsSvg(): string {
    return `<defs>${this.defs.join('')}</defs>`;
  }

  /**
   * The placed characters. (A hairline stroke would thicken them to a woodblock's weight, but
   * stroking costs ~40 ms a leaf, a third of the budget.)
   */
  usesSvg(): string {
    return `<g fill="${INK}">${this.uses.join('')}</g>`;
  }
}

/** The frame: double border (四周雙邊), column rules (界行), centre strip lines and the fish-tail (魚尾). */
function frameSvg(leaf: Leaf, g: LeafGeometry, ruled = true): { svg: string; fishTailBottom: number } {
  const { outer, inner, area, strip } = g;
  const parts: string[] = [];
  const o = outer.stroke / 2;
  parts.push(
    `<rect x="${r1(outer.x0 + o)}" y="${r1(outer.y0 + o)}" width="${r1(outer.x1 - outer.x0 - 2 * o)}" ` +
      `height="${r1(outer.y1 - outer.y0 - 2 * o)}" fill="none" stroke="${INK}" stroke-width="${r1(outer.stroke)}"/>`,
    `<rect x="${r1(inner.x0)}" y="${r1(inner.y0)}" width="${r1(inner.x1 - inner.x0)}" ` +
      `height="${r1(inner.y1 - inner.y0)}" fill="none" stroke="${INK}" stroke-width="${r1(inner.stroke)}"/>`,
  );
  const rules: number[] = [];
  for (let i = 1; ruled && i < leaf.columnsPerHalf; i++) {
    rules.push(area.x1 - i * g.columnWidth, strip.x0 - i * g.columnWidth);
  }
  rules.push(strip.x0, strip.x1);
  const d = rules.map((x) => `M${r1(x)} ${r1(area.y0)}V${r1(area.y1)}`).join('');
  parts.push(`<path d="${d}" stroke="${INK}" stroke-width="${r1(g.ruleStroke)}" stroke-opacity="0.9"/>`);

  // Fish-tail: a black band across the strip whose lower edge is cut by a V notch.
  const top = area.y0 + (area.y1 - area.y0) * 0.1;
  const bandHeight = g.columnWidth * 0.42;
  const notch = bandHeight * 0.6;
  const x0 = strip.x0;
  const x1 = strip.x1;
  const cx = (x0 + x1) / 2;
  const bottom = top + bandHeight;
  parts.push(
    `<path d="M${r1(x0)} ${r1(top)}H${r1(x1)}V${r1(bottom)}L${r1(cx)} ${r1(bottom - notch)}L${r1(x0)} ${r1(bottom)}Z" fill="${INK}"/>`,
    // The thin line that closes the fish-tail's upper edge in many editions.
    `<path d="M${r1(x0)} ${r1(top - bandHeight * 0.35)}H${r1(x1)}" stroke="${INK}" stroke-width="${r1(g.ruleStroke)}"/>`,
  );
  return { svg: parts.join(''), fishTailBottom: bottom };
}

/** Characters a leaf prints: its columns, the centre-strip title and volume name, and the leaf number. */
export function leafCharacters(leaf: Leaf, bookTitle: string, volumeName: string): string {
  return leaf.columns.map((c) => c.text).join('') + bookTitle + volumeName + chineseNumeral(leaf.leafNumber);
}

/**
 * Renders one leaf as a woodblock-style page: paper, double border, column rules, centre strip with
 * fish-tail, book title, volume name and leaf number, characters upright in their cells. Returns the
 * PNG and its OCR ground truth (characters the font lacks leave a blank cell and no OCR word).
 */
export async function renderLeaf(leaf: Leaf, options: RenderLeafOptions): Promise<RenderedLeaf> {
  const width = options.width ?? 2000;
  const height = options.height ?? 1400;
  const random = prng(options.seed);
  const g = leafGeometry(leaf, width, height);
  const writer = new GlyphWriter(options.glyphs, random);

  const content = placeColumns(leaf, g, writer);
  const frame = frameSvg(leaf, g, options.ruled ?? true);
  const middleSeam = placeStrip(leaf, options, g, writer, frame.fishTailBottom);

  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ` +
    `width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    paperSvg(width, height, random) +
    writer.defsSvg() +
    frame.svg +
    writer.usesSvg() +
    noiseSvg(width, height, random) +
    `</svg>`;

  const png = await sharp(Buffer.from(svg))
    .removeAlpha()
    .png({ compressionLevel: 3, adaptiveFiltering: false })
    .toBuffer();

  return {
    png,
    width,
    height,
    ocr: {
      imginfo: { width, height },
      ocr_res: { header: [], footer: [], middleSeam, content, others: [] },
    },
  };
}

type Geometry = ReturnType<typeof leafGeometry>;

/** The characters of the leaf's columns in their cells (a note in two half-width lines): its OCR lines. */
function placeColumns(leaf: Leaf, g: Geometry, writer: GlyphWriter): OcrLine[] {
  const content: OcrLine[] = [];
  for (const column of leaf.columns) {
    const cx = g.columnCentre(column.index);
    const words: OcrWord[] = [];
    const chars = [...column.text];
    const half = g.cellHeight / 2;
    // Down the column in half-cells: a main character takes two, a row of a note one.
    let cursor = 2 * column.indent;
    for (let i = 0; i < chars.length;) {
      const note = column.notes?.find((n) => n.start === i);
      if (note) {
        // Right line first, then the left line, each at half the column's width.
        const rows = Math.ceil(note.length / 2);
        const offset = g.columnWidth * 0.23;
        for (let k = 0; k < note.length; k++) {
          const row = k < rows ? k : k - rows;
          const x = k < rows ? cx + offset : cx - offset;
          const word = writer.place(
            chars[i + k]!,
            x,
            g.textTop + (cursor + row + 0.5) * half,
            g.noteSize,
            'note',
          );
          if (word) words.push(word);
        }
        cursor += rows;
        i += note.length;
        continue;
      }
      const word = writer.place(chars[i]!, cx, g.textTop + (cursor + 1) * half, g.fontSize);
      if (word) words.push(word);
      cursor += 2;
      i++;
    }
    if (words.length > 0) content.push({ words });
  }
  return content;
}

/**
 * The centre strip's texts below the fish-tail (book title, volume name, leaf number), each at its usual
 * place or lower when a long text above would reach it: their OCR lines.
 */
function placeStrip(
  leaf: Leaf,
  options: RenderLeafOptions,
  g: Geometry,
  writer: GlyphWriter,
  fishTailBottom: number,
): OcrLine[] {
  const stripCentre = (g.strip.x0 + g.strip.x1) / 2;
  const stripWidth = g.strip.x1 - g.strip.x0;
  const stripFont = Math.min(stripWidth * 0.5, g.cellHeight * 0.72);
  const areaHeight = g.area.y1 - g.area.y0;
  const stripPitch = stripFont * 1.08;
  // Each strip text starts at its usual place, or lower when a long text above would reach it.
  let stripCursor = fishTailBottom + stripFont * 0.5;
  const stripLine = (text: string, usualTop: number): OcrLine => {
    const top = Math.max(usualTop, stripCursor);
    const words: OcrWord[] = [];
    [...text].forEach((char, i) => {
      const word = writer.place(char, stripCentre, top + (i + 0.5) * stripPitch, stripFont);
      if (word) words.push(word);
    });
    stripCursor = top + ([...text].length + 1) * stripPitch;
    return { words };
  };
  return [
    stripLine(options.bookTitle, stripCursor),
    stripLine(options.volumeName, g.area.y0 + areaHeight * 0.42),
    stripLine(chineseNumeral(leaf.leafNumber), g.area.y0 + areaHeight * 0.66),
  ].filter((line) => line.words.length > 0);
}
