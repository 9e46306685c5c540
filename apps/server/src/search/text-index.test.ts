import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, DIALECTS, type TestContext } from '../../test/helpers.ts';
import type { IndexedPage, TextIndex } from './text-index.ts';
import { findMatch, tokenChars } from './text-index.ts';
import { textGrams } from './text-grams.ts';

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
      const bookId = await cat.createBook({ title: book, is_visible: 1, is_open: 1 }, t.context.database.db);
      const volumeId = await cat.createVolume(
        { bookId, name: '卷一', introduction: null, sort: 0 },
        t.context.database.db,
      );
      for (const [i, key] of keys.entries()) {
        const pageId = await cat.createPage(
          {
            volumeId,
            bookId,
            seq: i + 1,
            name: key,
            width: 10,
            height: 10,
            masterKey: 'm',
            ocrJson: null,
          },
          t.context.database.db,
        );
        pages[key] = { pageId, bookId, volumeId };
      }
    }
  });
  // Every test starts from the same index (one of them replaces and removes pages).
  beforeEach(async () => {
    await index.upsert(
      Object.entries(pages).map(([key, p]) => ({ ...p, text: texts[key]! })),
      t.context.database.db,
    );
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
    await index.upsert([{ ...pages.lunyu3!, text: '道千乘之國' }], t.context.database.db);
    expect((await find('為政')).total).toBe(0);
    expect(await find('千乘')).toMatchObject({ total: 1, names: ['lunyu3'] });
    await index.remove([pages.lunyu3!.pageId], t.context.database.db);
    expect((await find('千乘')).total).toBe(0);
    await index.removeBook(pages.mengzi1!.bookId, t.context.database.db);
    expect(await find('而')).toMatchObject({ total: 1, names: ['lunyu1'] });
    expect(await index.count()).toBe(2);
    await index.upsert([{ ...pages.lunyu1!, text: '，。' }], t.context.database.db);
    expect(await index.count()).toBe(1);
  });

  it('keeps exact counts through replacements, removals and a deleted book', async () => {
    // PostgreSQL counts 1–2 character queries from a table its triggers keep: check those counts
    // against the pages themselves after every kind of change, a cascade from deleted pages included.
    const cat = t.context.repos.catalog;
    const bookId = await cat.createBook({ title: '詩經', is_visible: 1, is_open: 1 }, t.context.database.db);
    const volumeId = await cat.createVolume(
      { bookId, name: '卷一', introduction: null, sort: 0 },
      t.context.database.db,
    );
    const poem: IndexedPage[] = [];
    for (const [i, text] of ['關關雎鳩在河之洲', '窈窕淑女君子好逑而', '參差荇菜左右流之'].entries()) {
      const pageId = await cat.createPage(
        {
          ...{ volumeId, bookId, seq: i + 1, name: `p${i}`, width: 10, height: 10 },
          ...{ masterKey: 'm', ocrJson: null },
        },
        t.context.database.db,
      );
      poem.push({ pageId, bookId, volumeId, text });
    }
    const grams = ['而', '之', '學而', '君子', '關', '河之', '不', '子曰', '之洲'];
    const consistent = async () => {
      for (const gram of grams) {
        const { total } = await find(gram);
        expect(total, gram).toBe((await index.candidates(tokenChars(gram))).length);
      }
    };
    await index.upsert(poem, t.context.database.db);
    expect((await find('之')).total).toBe(5);
    await consistent();
    await index.upsert(
      [
        { ...poem[0]!, text: '子曰學而' },
        { ...pages.mengzi2!, text: '之' },
      ],
      t.context.database.db,
    );
    expect((await find('學而')).total).toBe(2);
    await consistent();
    await index.remove([pages.lunyu1!.pageId], t.context.database.db);
    await consistent();
    await cat.deleteBook(bookId, t.context.database.db);
    expect((await find('之')).total).toBe(2);
    expect((await find('子曰')).total).toBe(1);
    await consistent();
  });

  it('rebuilds the whole index while searches answer, keeping what is written meanwhile', async () => {
    const cat = t.context.repos.catalog;
    const newBook = async (title: string, text: string): Promise<IndexedPage> => {
      const bookId = await cat.createBook({ title, is_visible: 1, is_open: 1 }, t.context.database.db);
      const volumeId = await cat.createVolume(
        { bookId, name: '卷一', introduction: null, sort: 0 },
        t.context.database.db,
      );
      const pageId = await cat.createPage(
        {
          ...{ volumeId, bookId, seq: 1, name: 'p1', width: 10, height: 10 },
          ...{ masterKey: 'm', ocrJson: null },
        },
        t.context.database.db,
      );
      return { pageId, bookId, volumeId, text };
    };
    const left = await newBook('左傳', '天下歸仁焉'); // indexed now, not named by the rebuild
    await index.upsert([left], t.context.database.db);
    const gone = await newBook('國語', '周穆王將征犬戎'); // read by the rebuild, then deleted
    const kept = await newBook('戰國策', '秦興師臨周而求九鼎'); // rebuilt; deleted after, by cascade
    const lunyu = pages.lunyu1!.bookId;
    const mengzi = pages.mengzi1!.bookId;
    const page = (key: string, text = texts[key]!) => ({ ...pages[key]!, text });
    async function* books() {
      yield { bookId: gone.bookId, pages: [gone] };
      yield { bookId: lunyu, pages: [page('lunyu1'), page('lunyu2', '道千乘之國'), page('lunyu3')] };
      // Meanwhile: searches answer, a page already read is written again, a book read is deleted.
      expect((await find('學而')).total).toBeGreaterThan(0);
      await index.upsert([page('lunyu2', '溫故而知新')], t.context.database.db);
      await cat.deleteBook(gone.bookId, t.context.database.db);
      yield { bookId: mengzi, pages: [page('mengzi1'), page('mengzi2'), page('rare', '，。')] };
      yield { bookId: kept.bookId, pages: [kept] };
    }
    expect(await index.rebuild(books())).toBe(7); // the pages read, 國語 among them
    expect(await find('溫故')).toMatchObject({ total: 1, names: ['lunyu2'] });
    expect((await find('千乘')).total).toBe(0);
    expect((await find('歸仁')).total).toBe(0);
    expect((await find('犬戎')).total).toBe(0);
    expect((await find('𠀁天')).total).toBe(0);
    expect(await find('學而')).toMatchObject({ total: 2, names: ['lunyu1', 'mengzi2'] });
    expect((await find('九鼎')).total).toBe(1);
    expect(await index.count()).toBe(6);
    // The rebuilt index is kept up as before: exact counts, cascades from deleted pages.
    for (const gram of ['而', '之', '學而', '溫故', '九鼎', '周', '天']) {
      expect((await find(gram)).total, gram).toBe((await index.candidates(tokenChars(gram))).length);
    }
    await cat.deleteBook(kept.bookId, t.context.database.db);
    expect((await find('周')).total).toBe(0);
    expect(await index.count()).toBe(5);
    await cat.deleteBook(left.bookId, t.context.database.db);
  });

  it('leaves the index as it was when a rebuild fails', async () => {
    const lunyu = pages.lunyu1!.bookId;
    function* books() {
      yield {
        bookId: lunyu,
        pages: ['lunyu1', 'lunyu2', 'lunyu3'].map((k) => ({ ...pages[k]!, text: texts[k]! })),
      };
      throw new Error('讀取失敗');
    }
    await expect(index.rebuild(books())).rejects.toThrow('讀取失敗');
    expect(await find('而')).toMatchObject({ total: 4, names: ['lunyu1', 'lunyu3', 'mengzi1', 'mengzi2'] });
    expect((await find('學而')).total).toBe(2);
    expect(await index.count()).toBe(6);
    await index.upsert([{ ...pages.lunyu3!, text: '道千乘之國' }], t.context.database.db);
    expect((await find('千乘')).total).toBe(1);
    expect((await find('為政')).total).toBe(0);
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

describe('PostgreSQL rebuild', () => {
  it('leaves the tables as the migrations made them: indexes, keys, triggers, nothing left over', async () => {
    const t = await createTestContext('postgres');
    try {
      const db = t.context.database.db;
      const schema = async () => {
        const { rows } = await sql<{ line: string }>`
          select indexdef as line from pg_indexes where tablename in ('page_texts', 'text_gram_counts')
          union all
          select conname || ' ' || pg_get_constraintdef(oid) || ' ' || convalidated from pg_constraint
            where conrelid in ('page_texts'::regclass, 'text_gram_counts'::regclass)
          union all
          select pg_get_triggerdef(oid) from pg_trigger where tgrelid = 'page_texts'::regclass and not tgisinternal
          union all
          select relname from pg_class where relname like '%\_next%' or relname = 'page_texts_changes'
          order by 1`.execute(db);
        return rows.map((r) => r.line);
      };
      const before = await schema();
      expect(before.length).toBeGreaterThan(6);
      async function* none() {}
      expect(await t.context.textIndex.rebuild(none())).toBe(0);
      expect(await schema()).toEqual(before);
    } finally {
      await t.close();
    }
  });
});
