import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, DIALECTS, type TestContext } from '../../test/helpers.ts';
import type { IndexedPage, TextIndex } from './text-index.ts';
import { findMatch, tokenChars } from './text-index.ts';
import { textGrams } from './text-index.postgres.ts';

/**
 * The conformance suite of the full-text index: the same expectations on SQLite (FTS5) and PostgreSQL
 * (tsvector + pg_trgm).
 */
describe.each(DIALECTS)('full-text index on %s', (dialect) => {
  let t: TestContext;
  let index: TextIndex;
  const pages: Record<string, { pageId: number; bookId: number; volumeId: number }> = {};
  const texts: Record<string, string> = {
    lunyu1: '學而時習之不亦說乎有朋自遠方來不亦樂乎',
    lunyu2: '子曰：巧言令色，鮮矣仁。曾子曰：吾日三省吾身',
    lunyu3: '爲政以德譬如北辰居其所而衆星共之',
    mengzi1: '孟子見梁惠王王曰叟不遠千里而來亦將有以利吾國乎',
    mengzi2: '淸風徐來水波不興學而時習之',
    rare: '𠀀𠀁天地玄黃宇宙洪荒ABC abc 123',
  };

  beforeAll(async () => {
    t = await createTestContext(dialect);
    index = t.context.textIndex;
    const cat = t.context.repos.catalog;
    for (const [book, keys] of [
      ['論語', ['lunyu1', 'lunyu2', 'lunyu3']],
      ['孟子', ['mengzi1', 'mengzi2', 'rare']],
    ] as const) {
      const bookId = await cat.createBook({ title: book, is_visible: 1, is_open: 1 });
      const volumeId = await cat.createVolume({ bookId, name: '卷一', introduction: null, sort: 0 });
      for (const [i, key] of keys.entries()) {
        const pageId = await cat.createPage({
          volumeId,
          bookId,
          seq: i + 1,
          name: key,
          width: 10,
          height: 10,
          masterKey: 'm',
          ocrJson: null,
        });
        pages[key] = { pageId, bookId, volumeId };
      }
    }
  });
  // Every test starts from the same index (one of them replaces and removes pages).
  beforeEach(async () => {
    await index.upsert(Object.entries(pages).map(([key, p]) => ({ ...p, text: texts[key]! })));
  });
  afterAll(async () => t.close());

  const find = async (text: string, bookId?: number, offset = 0, limit = 10) => {
    const result = await index.search({ text, offset, limit, ...(bookId === undefined ? {} : { bookId }) });
    const names = result.hits.map((h) => Object.keys(pages).find((k) => pages[k]!.pageId === h.pageId));
    return { total: result.total, names, hits: result.hits };
  };

  it('finds phrases of 1 to 4 characters with exact counts, in book order', async () => {
    expect(await find('而')).toMatchObject({ total: 4, names: ['lunyu1', 'lunyu3', 'mengzi1', 'mengzi2'] });
    expect(await find('學而')).toMatchObject({ total: 2, names: ['lunyu1', 'mengzi2'] });
    expect(await find('學而時')).toMatchObject({ total: 2 });
    expect(await find('學而時習')).toMatchObject({ total: 2 });
    expect(await find('時學')).toMatchObject({ total: 0, names: [] });
    expect(await find('鑫')).toMatchObject({ total: 0 });
  });

  it('matches simplified, traditional and variant forms alike', async () => {
    expect(await find('学而时习')).toMatchObject({ total: 2 });
    expect(await find('为政')).toMatchObject({ total: 1, names: ['lunyu3'] });
    expect(await find('為政')).toMatchObject({ total: 1, names: ['lunyu3'] });
    expect(await find('众星')).toMatchObject({ total: 1, names: ['lunyu3'] });
    expect(await find('清风')).toMatchObject({ total: 1, names: ['mengzi2'] });
  });

  it('ignores punctuation in the text and in the query, and gives the match position in the original', async () => {
    const result = await find('色鮮');
    expect(result).toMatchObject({ total: 1, names: ['lunyu2'] });
    const hit = result.hits[0]!;
    expect([...hit.text].slice(hit.matchStart, hit.matchStart + hit.matchLength).join('')).toBe('色，鮮');
    expect((await find('巧言，令色')).total).toBe(1);
    expect((await find('，。')).total).toBe(0);
  });

  it('handles characters outside the basic plane and Latin letters case-insensitively', async () => {
    expect(await find('𠀁天')).toMatchObject({ total: 1, names: ['rare'] });
    const hit = (await find('𠀁天')).hits[0]!;
    expect(hit.matchStart).toBe(1);
    expect((await find('abc')).total).toBe(1);
    expect((await find('CA')).total).toBe(1);
  });

  it('searches within one book, and pages through results', async () => {
    expect(await find('學而', pages.mengzi2!.bookId)).toMatchObject({ total: 1, names: ['mengzi2'] });
    expect(await find('而', undefined, 1, 2)).toMatchObject({ total: 4, names: ['lunyu3', 'mengzi1'] });
  });

  it('gives every page holding a phrase as the candidates of a query, in a book or all', async () => {
    const names = async (text: string, bookId?: number) =>
      (await index.candidates(tokenChars(text), bookId))
        .map((id) => Object.keys(pages).find((k) => pages[k]!.pageId === id))
        .sort();
    // 1–2 characters and 3 or more take different paths on PostgreSQL; the answers are the same.
    expect(await names('而')).toEqual(['lunyu1', 'lunyu3', 'mengzi1', 'mengzi2']);
    expect(await names('学而')).toEqual(['lunyu1', 'mengzi2']);
    expect(await names('學而時習')).toEqual(['lunyu1', 'mengzi2']);
    expect(await names('學而', pages.mengzi2!.bookId)).toEqual(['mengzi2']);
    expect(await names('鑫')).toEqual([]);
    expect(await index.candidates([])).toEqual([]);
  });

  it('replaces a page’s text, and removes pages and books', async () => {
    await index.upsert([{ ...pages.lunyu3!, text: '道千乘之國' }]);
    expect((await find('為政')).total).toBe(0);
    expect(await find('千乘')).toMatchObject({ total: 1, names: ['lunyu3'] });
    await index.remove([pages.lunyu3!.pageId]);
    expect((await find('千乘')).total).toBe(0);
    await index.removeBook(pages.mengzi1!.bookId);
    expect(await find('而')).toMatchObject({ total: 1, names: ['lunyu1'] });
    expect(await index.count()).toBe(2);
    await index.upsert([{ ...pages.lunyu1!, text: '，。' }]);
    expect(await index.count()).toBe(1);
  });

  it('keeps exact counts through replacements, removals and a deleted book', async () => {
    // PostgreSQL counts 1–2 character queries from a table its triggers keep: check those counts
    // against the pages themselves after every kind of change, a cascade from deleted pages included.
    const cat = t.context.repos.catalog;
    const bookId = await cat.createBook({ title: '詩經', is_visible: 1, is_open: 1 });
    const volumeId = await cat.createVolume({ bookId, name: '卷一', introduction: null, sort: 0 });
    const poem: IndexedPage[] = [];
    for (const [i, text] of ['關關雎鳩在河之洲', '窈窕淑女君子好逑而', '參差荇菜左右流之'].entries()) {
      const pageId = await cat.createPage({
        ...{ volumeId, bookId, seq: i + 1, name: `p${i}`, width: 10, height: 10 },
        ...{ masterKey: 'm', ocrJson: null },
      });
      poem.push({ pageId, bookId, volumeId, text });
    }
    const grams = ['而', '之', '學而', '君子', '關', '河之', '不', '子曰', '之洲'];
    const consistent = async () => {
      for (const gram of grams) {
        const { total } = await find(gram);
        expect(total, gram).toBe((await index.candidates(tokenChars(gram))).length);
      }
    };
    await index.upsert(poem);
    expect((await find('之')).total).toBe(5);
    await consistent();
    await index.upsert([
      { ...poem[0]!, text: '子曰學而' },
      { ...pages.mengzi2!, text: '之' },
    ]);
    expect((await find('學而')).total).toBe(2);
    await consistent();
    await index.remove([pages.lunyu1!.pageId]);
    await consistent();
    await cat.deleteBook(bookId);
    expect((await find('之')).total).toBe(2);
    expect((await find('子曰')).total).toBe(1);
    await consistent();
  });
});

describe('match positions', () => {
  it('finds the folded query in the original text, skipping punctuation', () => {
    expect(findMatch('子曰：學而時習之', tokenChars('学而'))).toEqual({ start: 3, length: 2 });
    expect(findMatch('巧言令色，鮮矣仁', tokenChars('色鲜'))).toEqual({ start: 3, length: 3 });
    expect(findMatch('巧言令色', tokenChars('仁'))).toBeUndefined();
  });
});

describe('PostgreSQL gram lexemes', () => {
  it('are the same whether the server or the database (migration 0020) makes them', async () => {
    const t = await createTestContext('postgres');
    try {
      for (const text of ['學而時習之，不亦說乎', '𠀀𠀁天地', 'abcab', '之', '之之之']) {
        const tokens = tokenChars(text);
        const { rows } = await sql<{
          grams: string[];
        }>`select guji_text_grams(${tokens.join('')}) as grams`.execute(t.context.database.db);
        expect([...rows[0]!.grams].sort(), text).toEqual(textGrams(tokens).sort());
      }
    } finally {
      await t.close();
    }
  });
});
