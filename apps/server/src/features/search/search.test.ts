import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { createBook } from '../../../test/catalog-factory.ts';
import { makeReader } from '../../../test/factories.ts';

const OUTSIDE = '203.0.113.9';
const READING_ROOM = '10.8.0.5';

describe.each(DIALECTS)('full-text and in-book search over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  let lunyu: Awaited<ReturnType<typeof createBook>>;
  let closed: Awaited<ReturnType<typeof createBook>>;
  let hidden: Awaited<ReturnType<typeof createBook>>;
  let readerCookie: string;
  const long =
    '天地玄黃宇宙洪荒日月盈昃辰宿列張寒來暑往秋收冬藏閏餘成歲律呂調陽雲騰致雨露結為霜金生麗水玉出崑岡'.repeat(
      2,
    );
  beforeAll(async () => {
    h = await createHttpHarness(dialect, { READING_ROOM_CIDRS: '10.8.0.0/16' });
    lunyu = await createBook(h.context, {
      title: '論語',
      volumes: [2, 1],
      texts: [['子曰學而時習之不亦說乎', '有子曰其爲人也孝弟'], ['子曰爲政以德譬如北辰']],
    });
    closed = await createBook(h.context, {
      title: '孟子',
      isOpen: false,
      volumes: [1],
      texts: [['孟子見梁惠王' + long + '終篇']],
    });
    hidden = await createBook(h.context, {
      title: '秘本',
      isVisible: false,
      volumes: [1],
      texts: [['學而秘本']],
    });
    readerCookie = (await makeReader(h, 'textreader')).cookie;
  });
  afterAll(async () => h.close());

  /** A request, by default from the signed-in reader in the reading room; `null` cookie: a visitor. */
  const get = (url: string, remoteAddress = READING_ROOM, cookie: string | null = readerCookie) =>
    h.request({ method: 'GET', url, remoteAddress, ...(cookie ? { cookie } : {}) });

  it('gives a visitor who is not signed in no text in the reading room, not even of an open book', async () => {
    for (const url of [
      `/api/books/${lunyu.bookId}/text-search?text=${encodeURIComponent('子')}`,
      `/api/books/${closed.bookId}/text-search?text=${encodeURIComponent('子')}`,
      `/api/search/full-text?text=${encodeURIComponent('子')}`,
      `/api/pages/${lunyu.pageIds[0]}/matches?text=${encodeURIComponent('子')}`,
    ]) {
      const response = await get(url, READING_ROOM, null);
      expect(response.statusCode, url).toBe(401);
      expect(response.json(), url).toEqual({ code: 'LOGIN_REQUIRED', message: MSG.loginRequiredNotice });
    }
    // Outside the reading room the answer stays the reading-room notice, signed in or not.
    const outside = await get(
      `/api/books/${lunyu.bookId}/text-search?text=${encodeURIComponent('子')}`,
      OUTSIDE,
      null,
    );
    expect(outside.json()).toMatchObject({ code: 'READING_ROOM_ONLY' });
  });

  it('counts the occurrences on each page and highlights every one inside the snippet', async () => {
    const response = await get(`/api/books/${lunyu.bookId}/text-search?text=${encodeURIComponent('曰')}`);
    const records = response.json<{
      records: Array<{
        imageId: number;
        occurrences: number;
        snippet: { text: string; highlights: Array<{ start: number; length: number }> };
      }>;
    }>().records;
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      const chars = [...record.snippet.text];
      expect(record.snippet.highlights.length).toBe(record.occurrences);
      for (const h of record.snippet.highlights)
        expect(chars.slice(h.start, h.start + h.length).join('')).toBe('曰');
    }
    // 子 once on 論語’s first page (子曰學而時習之…).
    const once = (await get(`/api/books/${lunyu.bookId}/text-search?text=${encodeURIComponent('子')}`)).json<{
      records: Array<{ imageId: number; occurrences: number }>;
    }>().records;
    expect(once.find((r) => r.imageId === lunyu.pageIds[0])?.occurrences).toBe(1);
  });

  it('gives a signed-in reader in the reading room every searchable book, with exact counts', async () => {
    // 子 in 論語 (three pages) and in 孟子 (closed, but readable in the reading room); not in 秘本.
    const all: Array<{ catalogId: number }> = [];
    let total = -1;
    for (let pageNum = 1; pageNum <= 3; pageNum++) {
      const body = (
        await get(`/api/search/full-text?text=${encodeURIComponent('子')}&pageNum=${pageNum}&pageSize=2`)
      ).json<{
        total: number;
        records: Array<{ catalogId: number }>;
      }>();
      total = body.total;
      all.push(...body.records);
    }
    expect(total).toBe(4);
    expect(all).toHaveLength(total);
    expect(new Set(all.map((r) => r.catalogId))).toEqual(new Set([lunyu.bookId, closed.bookId]));
  });

  it('refuses full-text search, in-book search and match boxes outside the reading room', async () => {
    for (const url of [
      '/api/search/full-text?text=學而',
      `/api/books/${lunyu.bookId}/text-search?text=學而`,
      `/api/pages/${lunyu.pageIds[0]}/matches?text=學而`,
    ]) {
      const response = await get(url, OUTSIDE, readerCookie);
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toMatchObject({
        code: 'READING_ROOM_ONLY',
        message: MSG.fullTextReadingRoomOnly,
      });
    }
  });

  it('finds simplified queries in traditional text, with book, volume, directory and a highlighted snippet', async () => {
    const response = await get('/api/search/full-text?text=学而时习');
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      total: number;
      pageSize: number;
      records: Array<Record<string, unknown>>;
    }>();
    expect(body.total).toBe(1);
    expect(body.pageSize).toBe(8);
    expect(body.records[0]).toMatchObject({
      catalogId: lunyu.bookId,
      catalogName: '論語',
      fascicleId: lunyu.volumeIds[0],
      fascicleName: '卷一',
      directoryName: '第一章',
      imageId: lunyu.pageIds[0],
      pageNumber: 1,
      snippet: { text: '子曰學而時習之不亦說乎', highlightStart: 2, highlightLength: 4 },
    });
    // 爲 and 為 fold together; the hidden book is not searchable.
    expect((await get('/api/search/full-text?text=為政')).json()).toMatchObject({ total: 1 });
    expect((await get('/api/search/full-text?text=學而')).json()).toMatchObject({ total: 1 });
  });

  it('cuts snippets by the 80/140 rule of spec §9', async () => {
    const body = (await get('/api/search/full-text?text=終篇')).json<{
      records: Array<{ snippet: { text: string; highlightStart: number } }>;
    }>();
    const snippet = body.records[0]!.snippet;
    const match = [...('孟子見梁惠王' + long + '終篇')].length - 2;
    expect(match).toBeGreaterThan(80);
    expect(snippet.text.startsWith('…')).toBe(true);
    expect([...snippet.text].slice(snippet.highlightStart, snippet.highlightStart + 2).join('')).toBe('終篇');
    expect(snippet.highlightStart).toBe(81);
  });

  it('searches one book with volume and directory names, and says when a book is not there', async () => {
    const body = (await get(`/api/books/${lunyu.bookId}/text-search?text=子曰`)).json<{
      total: number;
      records: Array<{ fascicleName: string; directoryName: string | null; pageNumber: number }>;
    }>();
    expect(body.total).toBe(3);
    expect(body.records.map((r) => [r.fascicleName, r.directoryName, r.pageNumber])).toEqual([
      ['卷一', '第一章', 1],
      ['卷一', '第二章', 2],
      ['卷二', '全文', 1],
    ]);
    expect(
      (await get(`/api/books/${lunyu.bookId}/text-search?text=子曰&pageNum=2&pageSize=2`)).json(),
    ).toMatchObject({
      total: 3,
      pages: 2,
      records: [{ fascicleName: '卷二' }],
    });
    expect((await get(`/api/books/${hidden.bookId}/text-search?text=學而`)).statusCode).toBe(404);
  });

  it('checks the text: required, at most 50 characters', async () => {
    const empty = await get('/api/search/full-text?text=%20');
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ message: string }>().message).toContain('请输入检索内容');
    const tooLong = await get(`/api/search/full-text?text=${encodeURIComponent('字'.repeat(51))}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json<{ message: string }>().message).toContain('检索内容不能超过 50 个字');
  });

  it('gives the boxes of every occurrence on a page the viewer may read', async () => {
    const response = await get(
      `/api/pages/${lunyu.pageIds[0]}/matches?text=曰学`,
      READING_ROOM,
      readerCookie,
    );
    expect(response.statusCode).toBe(200);
    // 子曰學而…: 曰 and 學 are characters 1 and 2 of the first column (600-pixel-wide page).
    expect(response.json()).toEqual({
      imageId: lunyu.pageIds[0],
      matches: [
        [
          { left: 560, top: 45, right: 580, bottom: 65 },
          { left: 560, top: 70, right: 580, bottom: 90 },
        ],
      ],
    });
    expect(
      (await get(`/api/pages/${lunyu.pageIds[0]}/matches?text=天`, READING_ROOM, readerCookie)).json(),
    ).toMatchObject({
      matches: [],
    });
    // A visitor may not read (login first), even in the reading room.
    expect((await get(`/api/pages/${lunyu.pageIds[0]}/matches?text=曰`, READING_ROOM, null)).statusCode).toBe(
      401,
    );
    // In the reading room a reader may read the closed book too.
    expect(
      (await get(`/api/pages/${closed.pageIds[0]}/matches?text=孟子`, READING_ROOM, readerCookie)).statusCode,
    ).toBe(200);
  });

  it('takes a hidden book out of the index and puts it back when shown again', async () => {
    await h.context.services.auth.upsertAccount({
      loginName: 'textstaff',
      password: GOOD_PASSWORD,
      roles: ['reader', 'catalogAdmin'],
    });
    const staff = (await h.login('textstaff', GOOD_PASSWORD)).cookie;
    const patch = (isVisible: boolean) =>
      h.request({ method: 'PATCH', url: `/api/books/${lunyu.bookId}`, cookie: staff, body: { isVisible } });
    expect((await patch(false)).statusCode).toBe(200);
    expect((await get('/api/search/full-text?text=學而')).json()).toMatchObject({ total: 0 });
    expect((await patch(true)).statusCode).toBe(200);
    expect((await get('/api/search/full-text?text=學而')).json()).toMatchObject({ total: 1 });
  });

  it('rebuilds the whole index from the pages (the reindex command): searchable books only', async () => {
    await h.context.textIndex.removeBook(lunyu.bookId, h.context.database.db); // an index that lost a book
    expect((await get('/api/search/full-text?text=學而')).json()).toMatchObject({ total: 0 });
    const seen: number[] = [];
    const result = await h.context.services.fullText.reindexAll((done) => seen.push(done));
    expect(result.books).toBeGreaterThanOrEqual(3);
    expect(seen.at(-1)).toBe(result.books);
    expect((await get('/api/search/full-text?text=學而')).json()).toMatchObject({ total: 1 });
    expect((await get(`/api/search/full-text?text=${encodeURIComponent('子')}`)).json()).toMatchObject({
      total: 4,
    });
    expect((await get('/api/search/full-text?text=秘本')).json()).toMatchObject({ total: 0 });
  });

  it('runs the advanced book search anywhere, 8 per page, and asks for some text', async () => {
    const post = (body: unknown) =>
      h.request({ method: 'POST', url: '/api/books/advanced-search', remoteAddress: OUTSIDE, body });
    const found = await post({ rows: [{ key: 'title', value: '论语', type: 0 }], matchType: 1 });
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({ total: 1, pageSize: 8, records: [{ title: '論語' }] });
    const empty = await post({ rows: [{ key: 'title', value: '  ', type: 0 }] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ message: string }>().message).toContain('请输入检索内容');
  });

  it('gives a page’s recognised text to whoever may read it, and to nobody else', async () => {
    const mine = await get(`/api/pages/${lunyu.pageIds[0]}/ocr`, OUTSIDE, readerCookie);
    expect(mine.statusCode).toBe(200);
    const body = mine.json<{
      imageId: number;
      ocr: { ocr_res: { content: Array<{ words: Array<{ word: string }> }> } };
    }>();
    expect(body.ocr.ocr_res.content[0]!.words.map((w) => w.word).join('')).toBe('子曰學而時習之不亦說');
    expect((await get(`/api/pages/${lunyu.pageIds[0]}/ocr`, OUTSIDE, null)).statusCode).toBe(401);
    // The closed book's text only in the reading room.
    expect((await get(`/api/pages/${closed.pageIds[0]}/ocr`, OUTSIDE, readerCookie)).statusCode).toBe(403);
    expect((await get(`/api/pages/${closed.pageIds[0]}/ocr`, READING_ROOM, readerCookie)).statusCode).toBe(
      200,
    );
  });
});
