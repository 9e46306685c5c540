import { describe, expect, it } from 'vitest';
import { loadGlyphs, parseFontFaceCss } from './fonts.ts';

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
