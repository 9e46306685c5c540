import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import zlib from 'node:zlib';

/**
 * The few opentype.js calls used here. Declared locally because `@types/opentype.js` pulls the DOM
 * library into the whole server program (`/// <reference lib="dom" />`).
 */
interface OpentypePath {
  toPathData(decimalPlaces: number): string;
}
interface OpentypeGlyph {
  advanceWidth?: number;
  getPath(x: number, y: number, fontSize: number): OpentypePath;
}
interface OpentypeFont {
  unitsPerEm: number;
  tables: { os2?: { sTypoAscender?: number; sTypoDescender?: number } };
  charToGlyphIndex(char: string): number;
  glyphs: { get(index: number): OpentypeGlyph };
}
interface Opentype {
  parse(buffer: ArrayBuffer): OpentypeFont;
}

const require = createRequire(import.meta.url);
const opentype = require('opentype.js') as Opentype;

/** One `@font-face` of the package's `400.css`: a subset file and the code points it covers. */
interface FontSubset {
  file: string;
  ranges: [number, number][];
}

/** A code point range of one subset, for binary search over all subsets. */
interface RangeEntry {
  start: number;
  end: number;
  subset: number;
}

interface SubsetIndex {
  subsets: FontSubset[];
  /** Sorted by start; ranges of different subsets may overlap. */
  ranges: RangeEntry[];
  /** maxEnd[i]: the largest end among ranges[0..i], which bounds the backward scan for overlaps. */
  maxEnd: number[];
}

/** The demo library's typeface (a dependency of the server). */
export const DEFAULT_FONT_PACKAGE = '@fontsource/noto-serif-tc';

const subsetIndexes = new Map<string, SubsetIndex>();
const fontCache = new Map<string, Promise<OpentypeFont>>();

/** The folder of an installed fontsource package. */
function fontPackageDir(fontPackage: string): string {
  return path.dirname(require.resolve(`${fontPackage}/package.json`));
}

/**
 * Parses the `src` (.woff) and `unicode-range` of every `@font-face` in a fontsource CSS file.
 * Faces without a `unicode-range` are left out: they are whole-language fallbacks, not subsets.
 */
export function parseFontFaceCss(css: string): FontSubset[] {
  const subsets: FontSubset[] = [];
  for (const face of css.matchAll(/@font-face\s*\{([^}]*)\}/g)) {
    const body = face[1] ?? '';
    const file = /url\(\.\/files\/([^)]+\.woff)\)/.exec(body)?.[1];
    const range = /unicode-range:\s*([^;]+);/.exec(body)?.[1];
    if (!file || !range) continue;
    const ranges: [number, number][] = [];
    for (const part of range.split(',')) {
      const m = /U\+([0-9a-f?]+)(?:-([0-9a-f]+))?/i.exec(part.trim());
      if (!m?.[1]) continue;
      if (m[1].includes('?')) {
        ranges.push([parseInt(m[1].replace(/\?/g, '0'), 16), parseInt(m[1].replace(/\?/g, 'f'), 16)]);
      } else {
        const start = parseInt(m[1], 16);
        ranges.push([start, m[2] ? parseInt(m[2], 16) : start]);
      }
    }
    subsets.push({ file, ranges });
  }
  return subsets;
}

function loadSubsetIndex(fontPackage: string): SubsetIndex {
  const known = subsetIndexes.get(fontPackage);
  if (known) return known;
  const css = fs.readFileSync(path.join(fontPackageDir(fontPackage), '400.css'), 'utf8');
  const subsets = parseFontFaceCss(css).filter((s) => s.file.endsWith('-400-normal.woff'));
  const ranges: RangeEntry[] = [];
  subsets.forEach((s, subset) => {
    for (const [start, end] of s.ranges) ranges.push({ start, end, subset });
  });
  ranges.sort((a, b) => a.start - b.start);
  const maxEnd: number[] = [];
  ranges.forEach((r, i) => maxEnd.push(Math.max(r.end, i > 0 ? maxEnd[i - 1]! : -1)));
  const index = { subsets, ranges, maxEnd };
  subsetIndexes.set(fontPackage, index);
  return index;
}

/** Indexes of the subsets whose unicode-range covers `codePoint`, in CSS order. */
function subsetsFor(index: SubsetIndex, codePoint: number): number[] {
  const { ranges, maxEnd } = index;
  // Last range starting at or before the code point; overlapping ranges sit just before it.
  let lo = 0;
  let hi = ranges.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid]!.start <= codePoint) {
      last = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  const found = new Set<number>();
  for (let i = last; i >= 0 && maxEnd[i]! >= codePoint; i--) {
    const r = ranges[i]!;
    if (r.start <= codePoint && codePoint <= r.end) found.add(r.subset);
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * Unpacks a WOFF 1.0 file into the plain sfnt (TrueType/OpenType) it wraps. opentype.js 0.7's
 * own WOFF reader (tiny-inflate) rejects some of these subsets with "Data error"; node's zlib reads
 * them all.
 */
export function woffToSfnt(woff: Buffer): Buffer<ArrayBuffer> {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF file');
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, i) => {
    const entry = 44 + i * 20;
    const offset = woff.readUInt32BE(entry + 4);
    const compLength = woff.readUInt32BE(entry + 8);
    const origLength = woff.readUInt32BE(entry + 12);
    const stored = woff.subarray(offset, offset + compLength);
    return {
      tag: woff.subarray(entry, entry + 4),
      checksum: woff.readUInt32BE(entry + 16),
      data: compLength < origLength ? zlib.inflateSync(stored) : stored,
    };
  });
  const headerSize = 12 + numTables * 16;
  const padded = (n: number) => (n + 3) & ~3;
  const total = tables.reduce((sum, t) => sum + padded(t.data.length), headerSize);
  const out = Buffer.alloc(total);
  const entrySelector = Math.floor(Math.log2(numTables));
  const searchRange = 2 ** entrySelector * 16;
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(searchRange, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(numTables * 16 - searchRange, 10);
  let offset = headerSize;
  tables.forEach((t, i) => {
    const record = 12 + i * 16;
    t.tag.copy(out, record);
    out.writeUInt32BE(t.checksum, record + 4);
    out.writeUInt32BE(offset, record + 8);
    out.writeUInt32BE(t.data.length, record + 12);
    t.data.copy(out, offset);
    offset += padded(t.data.length);
  });
  return out;
}

function loadFont(fontPackage: string, file: string): Promise<OpentypeFont> {
  const key = path.join(fontPackageDir(fontPackage), 'files', file);
  let font = fontCache.get(key);
  if (!font) {
    font = fs.promises.readFile(key).then((woff) => {
      const buf = woffToSfnt(woff);
      const bytes = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
      return opentype.parse(bytes);
    });
    // A failed read is not remembered, so a later call can retry.
    font.catch(() => fontCache.delete(key));
    fontCache.set(key, font);
  }
  return font;
}

/** Glyph outlines for a set of characters, from one typeface (Noto Serif TC Regular by default). */
export interface GlyphSet {
  /** Whether the font has a glyph for `char`. */
  has(char: string): boolean;
  /**
   * SVG path data (`d`) for `char` with its baseline origin at (x, y) and an em of `fontSize`
   * pixels, or undefined when the font lacks it.
   */
  pathData(char: string, x: number, y: number, fontSize: number): string | undefined;
  /** Advance width in ems (1 for ideographs). */
  advance(char: string): number;
  /**
   * The ideographic em box, in ems above (ascent) and below (descent) the baseline; an upright
   * ideograph is centred in a cell by centring this box.
   */
  readonly emBox: { ascent: number; descent: number };
  /** Characters asked for that the font lacks, in first-seen order: layout skips them. */
  readonly missing: readonly string[];
}

interface LoadedGlyph {
  glyph: OpentypeGlyph;
  unitsPerEm: number;
}

/**
 * Loads the glyphs of `chars` (strings iterated by code point; whitespace ignored), opening only
 * the font subsets whose unicode-range covers them. Subset files are parsed once per process and shared between calls.
 * `fontPackage` names another installed fontsource package of the same layout (the OCR benchmark sets
 * other typefaces with it).
 */
export async function loadGlyphs(
  chars: Iterable<string>,
  fontPackage: string = DEFAULT_FONT_PACKAGE,
): Promise<GlyphSet> {
  const index = loadSubsetIndex(fontPackage);
  const wanted = new Set<string>();
  for (const text of chars) for (const ch of text) if (!/\s/u.test(ch)) wanted.add(ch);

  const glyphs = new Map<string, LoadedGlyph>();
  const missing: string[] = [];
  let emBox = { ascent: 0.88, descent: 0.12 };
  let emBoxFound = false;

  const candidates = [...wanted].map((ch) => ({ ch, subsets: subsetsFor(index, ch.codePointAt(0)!) }));
  const files = new Set(candidates.flatMap((c) => c.subsets.map((s) => index.subsets[s]!.file)));
  const fonts = new Map<string, OpentypeFont>();
  await Promise.all(
    [...files].map(async (file) => {
      fonts.set(file, await loadFont(fontPackage, file));
    }),
  );

  for (const { ch, subsets } of candidates) {
    let found = false;
    for (const s of subsets) {
      const font = fonts.get(index.subsets[s]!.file)!;
      const glyphIndex = font.charToGlyphIndex(ch);
      if (glyphIndex > 0) {
        glyphs.set(ch, { glyph: font.glyphs.get(glyphIndex), unitsPerEm: font.unitsPerEm });
        const os2 = font.tables.os2;
        if (!emBoxFound && os2?.sTypoAscender !== undefined && os2.sTypoDescender !== undefined) {
          emBox = {
            ascent: os2.sTypoAscender / font.unitsPerEm,
            descent: -os2.sTypoDescender / font.unitsPerEm,
          };
          emBoxFound = true;
        }
        found = true;
        break;
      }
    }
    if (!found) missing.push(ch);
  }

  return {
    has: (char) => glyphs.has(char),
    pathData(char, x, y, fontSize) {
      return glyphs.get(char)?.glyph.getPath(x, y, fontSize).toPathData(1);
    },
    advance(char) {
      const g = glyphs.get(char);
      return g ? (g.glyph.advanceWidth ?? g.unitsPerEm) / g.unitsPerEm : 1;
    },
    emBox,
    missing,
  };
}
