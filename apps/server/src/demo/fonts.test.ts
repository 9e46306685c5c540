import { describe, expect, it } from 'vitest';
import { charPath, lineSvg } from '../features/personal/download.service.ts';
import { DRAWING_FONTS, loadGlyphs, parseFontFaceCss } from './fonts.ts';

describe('parseFontFaceCss', () => {
  it('reads the .woff2 file and unicode ranges of each subset face', () => {
    const css = `
/* noto-serif-tc-[0]-400-normal */
@font-face {
  font-family: 'Noto Serif TC';
  src: url(./files/a-0-400-normal.woff2) format('woff2'), url(./files/a-0-400-normal.woff) format('woff');
  unicode-range: U+3401,U+3d18-3d19,U+4E??;
}
@font-face {
  src: url(./files/full-400-normal.woff) format('woff');
}`;
    expect(parseFontFaceCss(css)).toEqual([
      {
        file: 'a-0-400-normal.woff2',
        ranges: [
          [0x3401, 0x3401],
          [0x3d18, 0x3d19],
          [0x4e00, 0x4eff],
        ],
      },
    ]);
  });
});

describe('loadGlyphs', () => {
  it('gives outlines for the characters the font has and reports the ones it lacks', async () => {
    const glyphs = await loadGlyphs(['學而時習之', '麕', 'A', '\u{e000}']);
    expect(glyphs.has('學')).toBe(true);
    expect(glyphs.has('A')).toBe(true);
    expect(glyphs.missing).toEqual(['麕', '\u{e000}']);
    const d = glyphs.pathData('學', 10, 100, 60);
    expect(d).toMatch(/^M[\d.-]+/);
    expect(glyphs.pathData('麕', 0, 0, 60)).toBeUndefined();
    expect(glyphs.advance('學')).toBe(1);
    expect(glyphs.emBox.ascent + glyphs.emBox.descent).toBeCloseTo(1);
  });

  it('places outlines at the given origin and size', async () => {
    const glyphs = await loadGlyphs('一');
    const xs = (d: string) => [...d.matchAll(/[ML](-?[\d.]+)/g)].map((m) => Number(m[1]));
    const small = xs(glyphs.pathData('一', 0, 0, 50)!);
    const moved = xs(glyphs.pathData('一', 100, 0, 50)!);
    expect(Math.min(...moved)).toBeCloseTo(Math.min(...small) + 100, 0);
    expect(Math.max(...small)).toBeLessThanOrEqual(50);
  });
});

describe('the drawing typefaces (download stamps, print cover sheets)', () => {
  it('draw simplified, traditional and the classics’ rare characters, CJK Ext. A included', async () => {
    // Simplified (the site and reader names, the order summary), traditional, 楚辭's rare characters, Ext. A.
    const text = '古籍数字图书馆 · 演示读者 到馆自取 扫码支付 合计 夏后氏 論語學而 阰纕偭嬃薋 鼂蠥 㐀';
    const glyphs = await loadGlyphs(text, DRAWING_FONTS);
    expect(glyphs.missing).toEqual([]);
    for (const ch of text.replace(/\s/g, '')) expect(glyphs.pathData(ch, 0, 50, 40), ch).toMatch(/^M/);
  });

  it('report what no typeface has, and the line draws a box for it instead of leaving it out', async () => {
    const glyphs = await loadGlyphs('读\u{e000}', DRAWING_FONTS);
    expect(glyphs.missing).toEqual(['\u{e000}']);
    expect(charPath(glyphs, '\u{e000}', 0, 40, 40)).toMatch(/^M[\d.]+ [\d.]+h/);
  });

  it('give every character of a stamp line an outline, none skipped', async () => {
    // The line under a downloaded JPEG: the site, a reader whose name mixes simplified 张, traditional
    // 麗 and 𠮷 (CJK Ext. B), traditional and rare characters of the classics, Ext. A, and a code point
    // no typeface has.
    const line = '古籍数字图书馆 · 张麗𠮷 · 論語學而 阰纕 㐀 · 2026年11月24日 \u{e000}';
    const chars = [...line].filter((ch) => !/\s/u.test(ch));
    const svg = await lineSvg(line, 1600, 40, 24);
    const paths = [...svg.matchAll(/<path d="([^"]+)"/g)].map((m) => m[1]!);
    expect(paths).toHaveLength(chars.length);
    // Every character but the private-use one is a glyph outline from the typeface that has it, in
    // order; that one is the empty box.
    const glyphs = await loadGlyphs(line, DRAWING_FONTS);
    const box = /^M[\d.]+ [\d.]+h/;
    chars.forEach((ch, i) => {
      if (ch === '\u{e000}') expect(paths[i], ch).toMatch(box);
      else {
        expect(glyphs.source(ch), ch).toBeDefined();
        expect(paths[i], ch).not.toMatch(box);
      }
    });
    expect(glyphs.source('张')?.fontPackage).toBe('@fontsource/noto-serif-sc');
    expect(glyphs.source('麗')?.fontPackage).toBe('@fontsource/noto-serif-tc');
    expect(glyphs.source('𠮷')?.fontPackage).toBe('@chinese-fonts/lxgwwenkai');
  });
});
