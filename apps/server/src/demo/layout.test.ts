import { describe, expect, it } from 'vitest';
import { chineseNumeral } from '../lib/chinese-numeral.ts';
import { layoutVolume, leafText, stripPunctuation, type LayoutChapter } from './layout.ts';

const chapters: LayoutChapter[] = [
  {
    title: '學而第一',
    paragraphs: [
      '子曰：「學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？人不知而不慍，不亦君子乎？」',
      '有子曰：「其為人也孝弟，而好犯上者，鮮矣；不好犯上而好作亂者，未之有也。」',
    ],
  },
  { title: '為政第二', paragraphs: ['子曰：「為政以德，譬如北辰，居其所而眾星共之。」'] },
  { title: '八佾第三', paragraphs: ['孔子謂季氏：「八佾舞於庭，是可忍也，孰不可忍也？」'] },
];

describe('stripPunctuation', () => {
  it('drops modern punctuation and spaces and keeps every other character in order', () => {
    expect(stripPunctuation('子曰：「學而時習之，不亦說乎？」『詩』《書》、；！ 。')).toBe(
      '子曰學而時習之不亦說乎詩書',
    );
  });
});

describe('layoutVolume', () => {
  it('fills columns of at most charsPerColumn characters, indent included', () => {
    const { leaves } = layoutVolume(chapters, { charsPerColumn: 18 });
    for (const leaf of leaves) {
      for (const column of leaf.columns) {
        expect(column.text.length).toBeGreaterThan(0);
        expect(column.indent + column.text.length).toBeLessThanOrEqual(18);
      }
    }
  });

  it('lays out a small example exactly: titles indented, each chapter and paragraph on a new column', () => {
    const { leaves, directory } = layoutVolume(
      [
        { title: '甲篇', paragraphs: ['一二三四五，六', '七八'] },
        { title: '乙篇', paragraphs: ['九十'] },
      ],
      { columnsPerHalf: 2, charsPerColumn: 4, titleIndent: 1 },
    );
    expect(leaves.map((l) => l.columns.map((c) => [c.index, c.text, c.isTitle, c.indent]))).toEqual([
      [
        [0, '甲篇', true, 1],
        [1, '一二三四', false, 0],
        [2, '五六', false, 0],
        [3, '七八', false, 0],
      ],
      [
        [0, '乙篇', true, 1],
        [1, '九十', false, 0],
      ],
    ]);
    expect(leaves.map((l) => l.leafNumber)).toEqual([1, 2]);
    expect(directory).toEqual([
      { name: '甲篇', leafIndex: 0, leafNumber: 1 },
      { name: '乙篇', leafIndex: 1, leafNumber: 2 },
    ]);
  });

  it('numbers columns in reading order from the right half, 2 × columnsPerHalf per leaf', () => {
    const { leaves } = layoutVolume(chapters, { columnsPerHalf: 3, charsPerColumn: 6 });
    expect(leaves.length).toBeGreaterThan(1);
    for (const leaf of leaves.slice(0, -1))
      expect(leaf.columns.map((c) => c.index)).toEqual([0, 1, 2, 3, 4, 5]);
    const last = leaves.at(-1)!;
    expect(last.columns.map((c) => c.index)).toEqual(last.columns.map((_, i) => i));
  });

  it('starts every chapter on a new column with its title, and the directory points at that leaf', () => {
    const { leaves, directory } = layoutVolume(chapters, { columnsPerHalf: 2, charsPerColumn: 10 });
    expect(directory.map((d) => d.name)).toEqual(chapters.map((c) => c.title));
    for (const entry of directory) {
      const leaf = leaves[entry.leafIndex]!;
      expect(entry.leafNumber).toBe(entry.leafIndex + 1);
      expect(leaf.columns.some((c) => c.isTitle && c.text === entry.name)).toBe(true);
      // No earlier leaf holds this title.
      const earlier = leaves.slice(0, entry.leafIndex).flatMap((l) => l.columns);
      expect(earlier.some((c) => c.isTitle && c.text === entry.name)).toBe(false);
    }
  });

  it('prints no punctuation and preserves the text in order', () => {
    const { leaves } = layoutVolume(chapters);
    const printed = leaves.map(leafText).join('');
    expect(printed).not.toMatch(/\p{P}/u);
    const expected = chapters.map((c) => stripPunctuation(c.title + c.paragraphs.join(''))).join('');
    expect(printed).toBe(expected);
  });

  it('leaves out characters the font lacks and reports them once', () => {
    const { leaves, omitted } = layoutVolume(
      [{ title: '野有死麕', paragraphs: ['野有死麕，白茅包之。麕'] }],
      {
        omitChars: ['麕'],
      },
    );
    expect(leaves.map(leafText).join('')).toBe('野有死野有死白茅包之');
    expect(omitted).toEqual(['麕']);
  });

  it('gives no leaves for no text, and rejects impossible options', () => {
    expect(layoutVolume([]).leaves).toEqual([]);
    expect(() => layoutVolume(chapters, { charsPerColumn: 1 })).toThrow(RangeError);
    expect(() => layoutVolume(chapters, { titleIndent: 18 })).toThrow(RangeError);
  });
});

describe('chineseNumeral', () => {
  it('writes leaf numbers as printed', () => {
    const cases: [number, string][] = [
      [1, '一'],
      [10, '十'],
      [12, '十二'],
      [20, '二十'],
      [35, '三十五'],
      [100, '一百'],
      [101, '一百零一'],
      [110, '一百一十'],
      [1001, '一千零一'],
    ];
    for (const [n, text] of cases) expect(chineseNumeral(n)).toBe(text);
    expect(() => chineseNumeral(0)).toThrow(RangeError);
  });

  it('sets text between 〔 and 〕 as a double-line note: two small characters to a half-cell row', () => {
    // 16 main characters take 32 half-cells of a 36-half-cell column; the note's first 8 characters
    // fill the 4 rows left, its last 2 go on in the next column.
    const { leaves } = layoutVolume(
      [{ title: '', paragraphs: ['一二三四五六七八九十一二三四五六〔甲乙丙丁戊己庚辛壬癸〕七八'] }],
      { charsPerColumn: 18 },
    );
    const [first, second] = leaves[0]!.columns;
    expect(first).toMatchObject({
      text: '一二三四五六七八九十一二三四五六甲乙丙丁戊己庚辛',
      notes: [{ start: 16, length: 8 }],
    });
    expect(second).toMatchObject({ text: '壬癸七八', notes: [{ start: 0, length: 2 }] });
    expect(leafText(leaves[0]!)).toBe('一二三四五六七八九十一二三四五六甲乙丙丁戊己庚辛壬癸七八');
  });
});
