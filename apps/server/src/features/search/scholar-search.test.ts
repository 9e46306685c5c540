import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { makeBook, makeReader, makeStaff, type CreatedBook } from '../../../test/factories.ts';

const READING_ROOM = '10.8.0.5';

interface Hit {
  catalogId: number;
  imageId: number;
  occurrences: number;
  snippet: { text: string; highlights: Array<{ start: number; length: number }> };
}
interface HitPage {
  total: number;
  pages: number;
  records: Hit[];
}
interface Facet {
  value: string;
  label: string;
  books: number;
  pages: number;
  occurrences: number;
}
interface BookPage {
  total: number;
  records: Array<{ catalogId: number; catalogName: string; pages: number; occurrences: number; hits: Hit[] }>;
  summary: { pages: number; occurrences: number; books: number };
  facets: Record<'catalog' | 'classification' | 'dynasty' | 'edition', Facet[]>;
}

/**
 * Full-text search for scholars over HTTP (issue 16 parts 12–13): the query syntax with exact page and
 * occurrence counts, 精确字形, the grouping by book, filters with facets, orders and the messages of
 * a malformed query, the same on both databases.
 */
describe.each(DIALECTS)('full-text search for scholars on %s', (dialect) => {
  let h: HttpHarness;
  let cookie: string;
  // 論語 (春秋, 宋刻本, 四書類): 子曰 2 + 2 + 1 times on its three pages.
  let lunyu: CreatedBook;
  // 孟子 (戰國, 明刻本, 四書類) and 大學 (周, 明刻本, 詩類; its text in simplified characters).
  let mengzi: CreatedBook;
  let daxue: CreatedBook;
  beforeAll(async () => {
    h = await createHttpHarness(dialect, { READING_ROOM_CIDRS: '10.8.0.0/16' });
    const classes = h.context.repos.classifications;
    const jing = await classes.upsert({ code: 'JING', name: '經部', parentId: null, sort: 0 });
    await classes.upsert({ code: 'JING.SISHU', name: '四書類', parentId: jing, sort: 0 });
    await classes.upsert({ code: 'JING.SHI', name: '詩類', parentId: jing, sort: 1 });
    lunyu = await makeBook(h, {
      title: '論語',
      publishDynasty: '春秋',
      coverageDynasty: '宋刻本',
      classCode: 'JING.SISHU',
      volumes: [2, 1],
      texts: [['子曰學而時習之不亦說乎子曰', '曾子曰吾日三省吾身子曰'], ['子曰爲政以德']],
    });
    mengzi = await makeBook(h, {
      title: '孟子',
      publishDynasty: '戰國',
      coverageDynasty: '明刻本',
      classCode: 'JING.SISHU',
      volumes: [1],
      texts: [['孟子曰學而不厭']],
    });
    daxue = await makeBook(h, {
      title: '大學',
      publishDynasty: '周',
      coverageDynasty: '明刻本',
      classCode: 'JING.SHI',
      volumes: [1],
      texts: [['学而时习之子曰']],
    });
    cookie = (await makeReader(h, 'scholar')).cookie;
  });
  afterAll(async () => h.close());

  const get = (path: string, query: Record<string, string | number>) =>
    h.request({
      method: 'GET',
      url: `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`,
      remoteAddress: READING_ROOM,
      cookie,
    });
  const pages = async (query: Record<string, string | number>) => {
    const response = await get('/api/search/full-text', { pageSize: 50, ...query });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<HitPage>();
  };
  const books = async (query: Record<string, string | number>) => {
    const response = await get('/api/search/full-text/books', query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<BookPage>();
  };
  /** Pages found as [book, page index in the book, occurrences]. */
  const found = (page: HitPage) =>
    page.records.map((r) => {
      const book = [lunyu, mengzi, daxue].find((b) => b.bookId === r.catalogId)!;
      return [
        book === lunyu ? '論語' : book === mengzi ? '孟子' : '大學',
        book.pageIds.indexOf(r.imageId),
        r.occurrences,
      ];
    });
  const counts = async (text: string, extra: Record<string, string> = {}) => {
    const body = await books({ text, ...extra });
    return body.summary;
  };

  it('finds pages holding every term of an AND, counting each match of each term', async () => {
    const body = await pages({ text: '子曰 學而', sort: 'order' });
    expect(found(body)).toEqual([
      ['論語', 0, 3],
      ['孟子', 0, 2],
      ['大學', 0, 2],
    ]);
    expect(await counts('子曰 學而')).toEqual({ pages: 3, occurrences: 7, books: 3 });
    // Every match of every term is marked in the snippet.
    const first = body.records[0]!;
    expect(
      first.snippet.highlights.map((m) =>
        [...first.snippet.text].slice(m.start, m.start + m.length).join(''),
      ),
    ).toEqual(['子曰', '學而', '子曰']);
  });

  it('finds a quoted phrase as one term, straight or curly quotes, spaces inside ignored', async () => {
    for (const text of ['"學而 時習"', '“學而時習”']) {
      expect(found(await pages({ text, sort: 'order' })), text).toEqual([
        ['論語', 0, 1],
        ['大學', 0, 1],
      ]);
      expect(await counts(text)).toEqual({ pages: 2, occurrences: 2, books: 2 });
    }
  });

  it('finds either term with OR or |, and leaves out pages with a NOT or - term', async () => {
    for (const text of ['孟子 OR 曾子', '孟子|曾子'])
      expect(await counts(text), text).toEqual({ pages: 2, occurrences: 2, books: 2 });
    expect(found(await pages({ text: '子曰 -曾子', sort: 'order' }))).toEqual([
      ['論語', 0, 2],
      ['論語', 2, 1],
      ['孟子', 0, 1],
      ['大學', 0, 1],
    ]);
    expect(await counts('子曰 NOT 學而')).toEqual({ pages: 2, occurrences: 3, books: 1 });
  });

  it('finds two terms NEAR each other, counting the first term’s matches with the second close enough', async () => {
    // 論語 page 1: 子曰 then 時習 two characters on (the second 子曰 is five after 時習); 大學: one between.
    expect(found(await pages({ text: '子曰 NEAR/2 時習', sort: 'order' }))).toEqual([
      ['論語', 0, 1],
      ['大學', 0, 1],
    ]);
    expect(await counts('子曰 NEAR/1 時習')).toEqual({ pages: 1, occurrences: 1, books: 1 });
    expect(await counts('子曰 NEAR/5 時習')).toEqual({ pages: 2, occurrences: 3, books: 2 });
  });

  it('folds simplified, traditional and variant forms by default, and compares them as typed with 精确字形', async () => {
    expect(found(await pages({ text: '学而时习', sort: 'order' }))).toEqual([
      ['論語', 0, 1],
      ['大學', 0, 1],
    ]);
    // The traditional page is not found by the simplified query, the simplified one is.
    expect(found(await pages({ text: '学而时习', exact: 1, sort: 'order' }))).toEqual([['大學', 0, 1]]);
    expect(await counts('學而', { exact: '1' })).toEqual({ pages: 2, occurrences: 2, books: 2 });
    expect(await counts('為政')).toMatchObject({ pages: 1 });
    expect(await counts('為政', { exact: '1' })).toMatchObject({ pages: 0 });
  });

  it('groups by book with exact counts and first pages, and pages through the books and a book’s pages', async () => {
    const body = await books({ text: '子曰', sort: 'relevance', hitsPerBook: 2 });
    expect(body.summary).toEqual({ pages: 5, occurrences: 7, books: 3 });
    expect(body.total).toBe(3);
    expect(
      body.records.map((b) => [b.catalogName, b.pages, b.occurrences, b.hits.map((x) => x.imageId)]),
    ).toEqual([
      ['論語', 3, 5, lunyu.pageIds.slice(0, 2)],
      ['孟子', 1, 1, mengzi.pageIds],
      ['大學', 1, 1, daxue.pageIds],
    ]);
    const second = await books({ text: '子曰', sort: 'relevance', pageSize: 2, pageNum: 2 });
    expect(second.records.map((b) => b.catalogName)).toEqual(['大學']);
    // A book's pages, two at a time.
    const rest = await pages({
      text: '子曰',
      catalogId: lunyu.bookId,
      sort: 'order',
      pageSize: 2,
      pageNum: 2,
    });
    expect(rest).toMatchObject({ total: 3, pages: 2 });
    expect(found(rest)).toEqual([['論語', 2, 1]]);
  });

  it('filters by book, classification (with its sub-classes), dynasty and edition', async () => {
    const total = async (filter: Record<string, string | number>) =>
      (await pages({ text: '子曰', sort: 'order', ...filter })).total;
    expect(await total({ catalogId: mengzi.bookId })).toBe(1);
    expect(await total({ classCode: 'JING.SISHU' })).toBe(4);
    expect(await total({ classCode: 'JING' })).toBe(5);
    expect(await total({ classCode: 'JING.SHI' })).toBe(1);
    expect(await total({ dynasty: '戰國' })).toBe(1);
    expect(await total({ edition: '明刻本' })).toBe(2);
    expect(await total({ edition: '明刻本', dynasty: '周' })).toBe(1);
    expect(await counts('子曰', { edition: '明刻本' })).toEqual({ pages: 2, occurrences: 2, books: 2 });
  });

  it('lists each filter’s values with counts, the other filters applied but not its own', async () => {
    const facets = (await books({ text: '子曰' })).facets;
    const brief = (list: Facet[]) => list.map((f) => [f.label, f.books, f.pages, f.occurrences]);
    expect(brief(facets.catalog)).toEqual([
      ['論語', 1, 3, 5],
      ['大學', 1, 1, 1],
      ['孟子', 1, 1, 1],
    ]);
    expect(facets.catalog[0]!.value).toBe(String(lunyu.bookId));
    expect(facets.classification.map((f) => [f.value, f.label, f.books, f.pages])).toEqual([
      ['JING.SISHU', '四書類', 2, 4],
      ['JING.SHI', '詩類', 1, 1],
    ]);
    expect(brief(facets.dynasty)).toEqual([
      ['春秋', 1, 3, 5],
      ['戰國', 1, 1, 1],
      ['周', 1, 1, 1],
    ]);
    const filtered = (await books({ text: '子曰', edition: '明刻本' })).facets;
    expect(brief(filtered.edition)).toEqual([
      ['宋刻本', 1, 3, 5],
      ['明刻本', 2, 2, 2],
    ]);
    // Ties by the label's pinyin: 戰國 (zhàn) before 周 (zhōu).
    expect(brief(filtered.dynasty)).toEqual([
      ['戰國', 1, 1, 1],
      ['周', 1, 1, 1],
    ]);
  });

  it('orders pages and books by relevance, book order or title', async () => {
    const order = async (sort: string) => found(await pages({ text: '子曰 -曾子', sort }));
    expect(await order('relevance')).toEqual([
      ['論語', 0, 2],
      ['論語', 2, 1],
      ['孟子', 0, 1],
      ['大學', 0, 1],
    ]);
    // 大學 (dà), 論語 (lún), 孟子 (mèng).
    expect(await order('title')).toEqual([
      ['大學', 0, 1],
      ['論語', 0, 2],
      ['論語', 2, 1],
      ['孟子', 0, 1],
    ]);
    expect((await books({ text: '子曰', sort: 'title' })).records.map((b) => b.catalogName)).toEqual([
      '大學',
      '論語',
      '孟子',
    ]);
    expect((await books({ text: '子曰', sort: 'order' })).records.map((b) => b.catalogName)).toEqual([
      '論語',
      '孟子',
      '大學',
    ]);
    // Relevance among pages: the most occurrences first.
    expect(found(await pages({ text: '子曰', sort: 'relevance', pageSize: 2 }))).toEqual([
      ['論語', 0, 2],
      ['論語', 1, 2],
    ]);
  });

  it('refuses a malformed query with its Chinese message', async () => {
    const message = async (text: string, path = '/api/search/full-text') => {
      const response = await get(path, { text });
      expect(response.statusCode).toBe(400);
      return response.json<{ message: string }>().message;
    };
    expect(await message('-曾子')).toBe('检索式不能只有排除词（NOT 或 -），请至少输入一个要查找的词');
    expect(await message('NOT 曾子', '/api/search/full-text/books')).toBe(
      '检索式不能只有排除词（NOT 或 -），请至少输入一个要查找的词',
    );
    for (const text of ['子曰 NEAR/0 學', '子曰 NEAR/101 學'])
      expect(await message(text)).toBe('NEAR 的距离须为 1 到 100 之间的整数，如 NEAR/10');
    expect(await message('子曰 NEAR/5')).toBe('NEAR 须连接两个检索词，如：子曰 NEAR/10 學');
    expect(await message('子曰 OR')).toBe('OR 两侧都须有检索词');
    expect(await message('"學而')).toBe('检索式中的引号不成对');
  });

  it('frames every term of a query on the page for the reader', async () => {
    const response = await get(`/api/pages/${lunyu.pageIds[0]}/matches`, { text: '子曰 學而' });
    expect(response.json<{ matches: unknown[][] }>().matches.map((m) => m.length)).toEqual([2, 2, 2]);
  });

  it('drops a book that is hidden from every answer, and shows it again', async () => {
    const staff = await makeStaff(h, ['catalogAdmin']);
    const patch = (isVisible: boolean) =>
      h.request({
        method: 'PATCH',
        url: `/api/books/${mengzi.bookId}`,
        cookie: staff.cookie,
        body: { isVisible },
      });
    expect(await counts('孟子 OR 曾子')).toMatchObject({ pages: 2 });
    expect((await patch(false)).statusCode).toBe(200);
    expect(await counts('孟子 OR 曾子')).toEqual({ pages: 1, occurrences: 1, books: 1 });
    expect((await books({ text: '孟子 OR 曾子' })).facets.catalog.map((f) => f.label)).toEqual(['論語']);
    expect((await patch(true)).statusCode).toBe(200);
    expect(await counts('孟子 OR 曾子')).toMatchObject({ pages: 2 });
  });
});
