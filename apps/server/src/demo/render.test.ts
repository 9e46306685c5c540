import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadGlyphs, type GlyphSet } from './fonts.ts';
import { layoutVolume, leafText, type Leaf } from './layout.ts';
import { OcrJson } from '@guji/shared';
import { leafCharacters, renderLeaf } from './render.ts';

const chapters = [
  {
    title: '學而第一',
    paragraphs: [
      '子曰：「學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？人不知而不慍，不亦君子乎？」',
      '有子曰：「其為人也孝弟，而好犯上者，鮮矣；不好犯上而好作亂者，未之有也。君子務本，本立而道生。孝弟也者，其為仁之本與！」',
      '子曰：「巧言令色，鮮矣仁！」',
      '曾子曰：「吾日三省吾身：為人謀而不忠乎？與朋友交而不信乎？傳不習乎？」',
      '子曰：「道千乘之國，敬事而信，節用而愛人，使民以時。」',
      '子曰：「弟子入則孝，出則弟，謹而信，汎愛眾而親仁。行有餘力，則以學文。」',
      '子夏曰：「賢賢易色；事父母，能竭其力；事君，能致其身；與朋友交，言而有信。雖曰未學，吾必謂之學矣。」',
    ],
  },
];

let leaf: Leaf;
let glyphs: GlyphSet;

beforeAll(async () => {
  [leaf] = layoutVolume(chapters).leaves as [Leaf];
  glyphs = await loadGlyphs(leafCharacters(leaf, '論語', '卷一'));
});

describe('renderLeaf', () => {
  it('renders a PNG of the requested size with OCR ground truth in the spec format', async () => {
    const page = await renderLeaf(leaf, { bookTitle: '論語', volumeName: '卷一', glyphs, seed: 7 });
    const meta = await sharp(page.png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 2000, 1400]);
    expect([page.width, page.height]).toEqual([2000, 1400]);
    expect(OcrJson.parse(page.ocr)).toEqual(page.ocr);
    expect(page.ocr.imginfo).toEqual({ width: 2000, height: 1400 });

    const { content, middleSeam } = page.ocr.ocr_res;
    // The word sequence is the leaf's text, one line per column.
    expect(content.map((line) => line.words.map((w) => w.word).join(''))).toEqual(
      leaf.columns.map((c) => c.text),
    );
    expect(content.flatMap((l) => l.words.map((w) => w.word)).join('')).toBe(leafText(leaf));
    expect(middleSeam.map((line) => line.words.map((w) => w.word).join(''))).toEqual(['論語', '卷一', '一']);

    const all = [...content, ...middleSeam].flatMap((l) => l.words);
    for (const { points, type, confidence, fontSize } of all) {
      expect(points.left).toBeGreaterThanOrEqual(0);
      expect(points.top).toBeGreaterThanOrEqual(0);
      expect(points.right).toBeLessThanOrEqual(2000);
      expect(points.bottom).toBeLessThanOrEqual(1400);
      expect(points.right).toBeGreaterThan(points.left);
      expect(points.bottom).toBeGreaterThan(points.top);
      expect([type, confidence]).toEqual(['text', 1]);
      expect(fontSize).toBeGreaterThan(20);
    }

    // Reading order: columns right to left, characters top to bottom.
    const centreX = (l: (typeof content)[number]) => (l.words[0]!.points.left + l.words[0]!.points.right) / 2;
    for (let i = 1; i < content.length; i++)
      expect(centreX(content[i]!)).toBeLessThan(centreX(content[i - 1]!));
    for (const line of content) {
      for (let i = 1; i < line.words.length; i++) {
        expect(line.words[i]!.points.top).toBeGreaterThanOrEqual(line.words[i - 1]!.points.bottom - 1);
      }
    }
    // The centre strip lies between the two halves.
    const stripX = centreX(middleSeam[0]!);
    const rightHalf = content.filter((_, i) => leaf.columns[i]!.index < leaf.columnsPerHalf);
    const leftHalf = content.filter((_, i) => leaf.columns[i]!.index >= leaf.columnsPerHalf);
    expect(leftHalf.length).toBeGreaterThan(0);
    for (const line of rightHalf) expect(centreX(line)).toBeGreaterThan(stripX);
    for (const line of leftHalf) expect(centreX(line)).toBeLessThan(stripX);
  });

  it('is deterministic for a seed, and draws ink where the OCR says a character is', async () => {
    const options = { bookTitle: '論語', volumeName: '卷一', glyphs, seed: 3, width: 1000, height: 700 };
    const [a, b] = await Promise.all([renderLeaf(leaf, options), renderLeaf(leaf, options)]);
    expect(a.png.equals(b.png)).toBe(true);
    expect(a.ocr.imginfo).toEqual({ width: 1000, height: 700 });

    const { data, info } = await sharp(a.png).greyscale().raw().toBuffer({ resolveWithObject: true });
    const darkFraction = (p: { left: number; top: number; right: number; bottom: number }) => {
      let dark = 0;
      let all = 0;
      for (let y = p.top; y < p.bottom; y++) {
        for (let x = p.left; x < p.right; x++) {
          all++;
          if (data[y * info.width + x]! < 110) dark++;
        }
      }
      return dark / all;
    };
    const first = a.ocr.ocr_res.content[0]!.words[0]!;
    expect(darkFraction(first.points)).toBeGreaterThan(0.05);
    // The blank cell below the last character of a short title column has no ink.
    const titleLast = a.ocr.ocr_res.content[0]!.words.at(-1)!;
    const h = titleLast.points.bottom - titleLast.points.top;
    expect(
      darkFraction({
        ...titleLast.points,
        top: titleLast.points.bottom + 4,
        bottom: titleLast.points.bottom + h,
      }),
    ).toBeLessThan(0.01);
  });

  it('sets a double-line note as small characters, right line then left line, typed note', async () => {
    const [noted] = layoutVolume([
      { title: '', paragraphs: ['子曰學而時習之〔天命之謂性率性之謂道〕不亦說乎'] },
    ]).leaves as [Leaf];
    const small = await loadGlyphs(leafCharacters(noted, '論語', '卷一'), '@fontsource/lxgw-wenkai-tc');
    const page = await renderLeaf(noted, { bookTitle: '論語', volumeName: '卷一', glyphs: small, seed: 1 });
    const words = page.ocr.ocr_res.content[0]!.words;
    expect(words.map((w) => w.word).join('')).toBe('子曰學而時習之天命之謂性率性之謂道不亦說乎');
    const note = words.slice(7, 17);
    const main = words[0]!;
    expect(note.every((w) => w.type === 'note')).toBe(true);
    expect(words.filter((w) => w.type === 'text')).toHaveLength(11);
    for (const w of note) expect(w.fontSize).toBeLessThan(main.fontSize * 0.6);
    // 天命之謂性 down the right line, 率性之謂道 down the left, side by side, row by row.
    const x = (w: (typeof words)[number]) => (w.points.left + w.points.right) / 2;
    for (let k = 0; k < 5; k++) {
      expect(x(note[k]!)).toBeGreaterThan(x(main));
      expect(x(note[k + 5]!)).toBeLessThan(x(main));
      expect(note[k]!.points.top).toBe(note[k + 5]!.points.top);
    }
    // The main text goes on below the note.
    expect(words[17]!.points.top).toBeGreaterThanOrEqual(note[4]!.points.bottom - 1);
  });
});
