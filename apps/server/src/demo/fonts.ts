import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

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

/**
 * Where an installed web-font package keeps its subsets: the CSS of its `@font-face`s (with
 * unicode-range) and the folder of its .woff2 files, relative to the package. fontsource packages
 * (`400.css`, `files/`) need no entry.
 */
const FONT_LAYOUTS: Record<string, { css: string; dir: string; only?: string }> = {
  '@chinese-fonts/lxgwwenkai': {
    css: 'dist/LXGWWenKai-Regular/result.css',
    dir: 'dist/LXGWWenKai-Regular',
  },
};

function layoutOf(fontPackage: string): { css: string; dir: string; only?: string } {
  return FONT_LAYOUTS[fontPackage] ?? { css: '400.css', dir: 'files', only: '-400-normal.woff2' };
}

/**
 * The typefaces everything the server draws uses (download stamps, print cover sheets), tried in
 * order for each character: Noto Serif TC (traditional, the look of the books), Noto Serif SC (the
 * simplified characters TC lacks, in the same design), LXGW WenKai (a Kai face with the rare
 * characters of the classics, CJK Ext. A and much of Ext. B). A character none of them has is drawn
 * as an empty box, never left out.
 */
export const DRAWING_FONTS = [
  '@fontsource/noto-serif-tc',
  '@fontsource/noto-serif-sc',
  '@chinese-fonts/lxgwwenkai',
] as const;

const subsetIndexes = new Map<string, SubsetIndex>();
const require = createRequire(import.meta.url);
const fontCache = new Map<string, Promise<fontkit.Font>>();

/** The folder of an installed fontsource package. */
function fontPackageDir(fontPackage: string): string {
  return path.dirname(require.resolve(`${fontPackage}/package.json`));
}

/**
 * Parses the `src` (.woff2) and `unicode-range` of every `@font-face` in a fontsource CSS file.
 * Faces without a `unicode-range` are left out: they are whole-language fallbacks, not subsets.
 */
export function parseFontFaceCss(css: string): FontSubset[] {
  const subsets: FontSubset[] = [];
  for (const face of css.matchAll(/@font-face\s*\{([^}]*)\}/g)) {
    const body = face[1] ?? '';
    // fontsource: url(./files/x.woff2); cn-font-split (@chinese-fonts): url("./x.woff2").
    const file = /url\("?\.\/(?:files\/)?([^")]+\.woff2)"?\)/.exec(body)?.[1];
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
  const layout = layoutOf(fontPackage);
  const css = fs.readFileSync(path.join(fontPackageDir(fontPackage), layout.css), 'utf8');
  const subsets = parseFontFaceCss(css).filter((s) => !layout.only || s.file.endsWith(layout.only));
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
 * One subset file, read by fontkit (WOFF2; its WOFF 1.0 reader rejects two of Noto Serif TC's subsets,
 * and WOFF2 is the smaller, faster read).
 */
function loadFont(fontPackage: string, file: string): Promise<fontkit.Font> {
  const key = path.join(fontPackageDir(fontPackage), layoutOf(fontPackage).dir, file);
  let font = fontCache.get(key);
  if (!font) {
    font = fs.promises.readFile(key).then((bytes) => {
      const parsed = fontkit.create(bytes);
      if (!('unitsPerEm' in parsed)) throw new Error(`${file}: a font collection, not one font`);
      return parsed;
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
  /** Where `char`'s glyph comes from (a PDF embeds it from there), or undefined when no typeface has it. */
  source(char: string): GlyphSource | undefined;
}

/** A character's glyph and the typeface it was taken from. */
export interface GlyphSource {
  /** The typeface: one of the packages asked for (`DRAWING_FONTS`). */
  fontPackage: string;
  /** The subset file of that typeface holding the glyph. */
  font: fontkit.Font;
  glyph: fontkit.Glyph;
}

type LoadedGlyph = GlyphSource & { unitsPerEm: number };

/**
 * Loads the glyphs of `chars` (strings iterated by code point; whitespace ignored), opening only
 * the font subsets whose unicode-range covers them. Subset files are parsed once per process and shared between calls.
 * `fonts` names the typeface, or several tried in order for each character (`DRAWING_FONTS`): an
 * installed fontsource package, or one laid out in `FONT_LAYOUTS` (the OCR benchmark sets other
 * typefaces with it).
 */
export async function loadGlyphs(
  chars: Iterable<string>,
  fonts: string | readonly string[] = DEFAULT_FONT_PACKAGE,
): Promise<GlyphSet> {
  const wanted = new Set<string>();
  for (const text of chars) for (const ch of text) if (!/\s/u.test(ch)) wanted.add(ch);

  const glyphs = new Map<string, LoadedGlyph>();
  let emBox = { ascent: 0.88, descent: 0.12 };
  let emBoxFound = false;

  let remaining = [...wanted];
  for (const fontPackage of typeof fonts === 'string' ? [fonts] : fonts) {
    if (remaining.length === 0) break;
    const index = loadSubsetIndex(fontPackage);
    const candidates = remaining.map((ch) => ({ ch, subsets: subsetsFor(index, ch.codePointAt(0)!) }));
    const files = new Set(candidates.flatMap((c) => c.subsets.map((s) => index.subsets[s]!.file)));
    const loaded = new Map<string, fontkit.Font>();
    await Promise.all(
      [...files].map(async (file) => {
        loaded.set(file, await loadFont(fontPackage, file));
      }),
    );
    const notFound: string[] = [];
    for (const { ch, subsets } of candidates) {
      const font = subsets
        .map((s) => loaded.get(index.subsets[s]!.file)!)
        .find((f) => f.hasGlyphForCodePoint(ch.codePointAt(0)!));
      if (!font) {
        notFound.push(ch);
        continue;
      }
      glyphs.set(ch, {
        fontPackage,
        font,
        glyph: font.glyphForCodePoint(ch.codePointAt(0)!),
        unitsPerEm: font.unitsPerEm,
      });
      const os2 = font['OS/2'];
      if (!emBoxFound && os2?.typoAscender !== undefined && os2.typoDescender !== undefined) {
        emBox = { ascent: os2.typoAscender / font.unitsPerEm, descent: -os2.typoDescender / font.unitsPerEm };
        emBoxFound = true;
      }
    }
    remaining = notFound;
  }
  const missing = remaining;

  return {
    has: (char) => glyphs.has(char),
    pathData(char, x, y, fontSize) {
      const g = glyphs.get(char);
      if (!g) return undefined;
      // Font units, y up → pixels, y down, origin at (x, y) on the baseline.
      const k = fontSize / g.unitsPerEm;
      return g.glyph.path.scale(k, -k).translate(x, y).toSVG();
    },
    advance(char) {
      const g = glyphs.get(char);
      return g ? (g.glyph.advanceWidth ?? g.unitsPerEm) / g.unitsPerEm : 1;
    },
    emBox,
    missing,
    source(char) {
      const g = glyphs.get(char);
      return g && { fontPackage: g.fontPackage, font: g.font, glyph: g.glyph };
    },
  };
}
