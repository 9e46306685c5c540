import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_CLASSIFICATION, DEMO_EDITION, loadDemoBooks, type DemoClass } from './books.ts';

const classicsDir = path.resolve(import.meta.dirname, '../../demo-data/classics');
const books = loadDemoBooks(classicsDir);
const byKey = new Map(books.map((b) => [b.key, b]));

describe('loadDemoBooks', () => {
  it('describes the six demo books with their volumes', () => {
    expect(books.map((b) => [b.key, b.title, b.volumes.map((v) => v.name)])).toEqual([
      ['lunyu', '論語', ['卷一', '卷二']],
      ['mengzi', '孟子', ['卷一', '卷二']],
      ['daxue', '大學', ['卷一']],
      ['zhongyong', '中庸', ['卷一']],
      ['shijing', '詩經', ['卷一']],
      ['qianziwen', '千字文', ['卷一']],
    ]);
  });

  it('splits 論語 after 鄉黨 and converts it to traditional characters', () => {
    const [first, second] = byKey.get('lunyu')!.volumes;
    expect(first!.chapters.map((c) => c.title)).toEqual([
      '學而第一',
      '為政第二',
      '八佾第三',
      '里仁第四',
      '公冶長第五',
      '雍也第六',
      '述而第七',
      '泰伯第八',
      '子罕第九',
      '鄉黨第十',
    ]);
    expect(second!.chapters[0]!.title).toBe('先進第十一');
    expect(second!.chapters.at(-1)!.title).toBe('堯曰第二十');
    expect(first!.chapters[0]!.paragraphs[0]).toContain('學而時習之');
    const text = byKey
      .get('lunyu')!
      .volumes.flatMap((v) => v.chapters.flatMap((c) => c.paragraphs))
      .join('');
    expect(text).not.toMatch(/[学时习说乐远]/);
  });

  it('keeps only the first four chapters of 孟子, two per volume', () => {
    const titles = byKey.get('mengzi')!.volumes.map((v) => v.chapters.map((c) => c.title));
    expect(titles).toEqual([
      ['梁惠王章句上', '梁惠王章句下'],
      ['公孫丑章句上', '公孫丑章句下'],
    ]);
  });

  it('keeps the 周南 and 召南 poems of 詩經, one chapter per poem, in traditional characters', () => {
    const poems = byKey.get('shijing')!.volumes[0]!.chapters;
    expect(poems).toHaveLength(25);
    expect(poems[0]!.title).toBe('關雎');
    expect(poems[0]!.paragraphs[0]).toContain('關關雎鳩');
    expect(poems.at(-1)!.title).toBe('騶虞');
  });

  it('prints 千字文 as running text under one title', () => {
    const [chapter] = byKey.get('qianziwen')!.volumes[0]!.chapters;
    expect(chapter!.title).toBe('千字文');
    expect(chapter!.paragraphs).toHaveLength(1);
    expect(chapter!.paragraphs[0]!.startsWith('天地玄黃宇宙洪荒')).toBe(true);
  });

  it('gives catalogue fields: honest edition, unique call numbers, known classes, access', () => {
    const codes = new Set<string>();
    const walk = (nodes: DemoClass[]) =>
      nodes.forEach((n) => {
        codes.add(n.code);
        walk(n.children);
      });
    walk(DEMO_CLASSIFICATION);
    for (const book of books) {
      expect(book.coverageDynasty).toBe(DEMO_EDITION);
      expect(codes.has(book.classCode)).toBe(true);
      expect(book.author).not.toBe('');
    }
    expect(new Set(books.map((b) => b.callNumber)).size).toBe(books.length);
    expect(books.filter((b) => b.isOpen).map((b) => b.key)).toEqual([
      'lunyu',
      'daxue',
      'shijing',
      'qianziwen',
    ]);
    expect(byKey.get('shijing')!.classCode).toBe('JING.SHI');
    expect(byKey.get('qianziwen')!.classCode).toBe('ZI.MENGXUE');
  });
});
