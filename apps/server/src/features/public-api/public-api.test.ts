import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  CreatedApiToken,
  MSG,
  V1BookDetail,
  V1BookList,
  V1ClassificationTree,
  V1PageList,
  V1PageText,
  V1SearchResult,
  V1Whoami,
  publicApi,
} from '@guji/shared';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { makeBook, makeReader, type CreatedBook, type MadeUser } from '../../../test/factories.ts';

const OUTSIDE = '203.0.113.9';
const READING_ROOM = '127.0.0.1';

describe.each(DIALECTS)('public read API v1 (%s)', (dialect) => {
  let h: HttpHarness;
  let reader: MadeUser;
  let secret: string;
  let open: CreatedBook;
  let closed: CreatedBook;
  let title: string;

  /** GET as a program would: with the token (or none), from outside the reading room unless told. */
  const get = (url: string, token: string | null = secret, from = OUTSIDE, cookie?: string) =>
    h.request({
      method: 'GET',
      url,
      remoteAddress: from,
      ...(cookie ? { cookie } : {}),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  /** The answer, checked against the contract's schema (shape and types). */
  const shaped = async <S extends z.ZodType>(
    schema: S,
    url: string,
    token?: string | null,
    from?: string,
  ) => {
    const response = await get(url, token, from);
    expect(response.statusCode, response.body).toBe(200);
    return schema.parse(response.json());
  };
  const tokenOf = async (user: MadeUser, name = '研究') =>
    CreatedApiToken.parse(
      (
        await h.request({ method: 'POST', url: '/api/me/api-tokens', cookie: user.cookie, body: { name } })
      ).json(),
    ).secret;

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    reader = await makeReader(h, 'apireader');
    secret = await tokenOf(reader);
    title = `接口測試論語${dialect}`;
    open = await makeBook(h, {
      title,
      callNumber: 'API-001',
      classCode: 'JING',
      volumes: [2],
      texts: [['學而時習之不亦說乎', '有朋自遠方來不亦樂乎']],
    });
    closed = await makeBook(h, {
      title: `接口善本${dialect}`,
      isOpen: false,
      volumes: [1],
      texts: [['秘閣藏書學而']],
    });
  });
  afterAll(async () => h.close());

  it('every endpoint answers its contract’s shape, with CORS for any site', async () => {
    const tree = await shaped(V1ClassificationTree, publicApi.classifications.path);
    expect(Array.isArray(tree.classifications)).toBe(true);

    const list = await shaped(V1BookList, `/api/v1/books?q=${encodeURIComponent(title)}`);
    expect(list).toMatchObject({ page: 1, pageSize: 20, total: 1, pages: 1, next: null });
    expect(list.items[0]).toEqual({
      id: open.bookId,
      title,
      author: '佚名',
      dynasty: null,
      edition: null,
      callNumber: 'API-001',
      classCode: 'JING',
      openAccess: true,
      cover: `/iiif/3/${open.pageIds[0]}/full/!240,240/0/default.jpg`,
      url: `/SearchPage/${open.bookId}`,
    });

    await h.context.repos.catalog.updateBook(
      open.bookId,
      {
        notes: '半葉九行，行十八字。\n鈐「某氏藏書」印。',
      },
      h.context.database.db,
    );
    const book = await shaped(V1BookDetail, `/api/v1/books/${open.bookId}`);
    expect(book).toMatchObject({
      id: open.bookId,
      notes: '半葉九行，行十八字。\n鈐「某氏藏書」印。',
      volumeCount: 1,
      access: { canRead: true, reason: 'ok' },
    });
    expect((await shaped(V1BookDetail, `/api/v1/books/${closed.bookId}`)).notes).toBeNull();
    const [volume] = book.volumes;
    expect(volume).toMatchObject({ id: open.volumeIds[0], name: '卷一', pageCount: 2 });
    expect(volume!.directory.map((d) => [d.name, d.pageId, d.pageNumber])).toEqual([
      ['第一章', open.pageIds[0], 1],
      ['第二章', open.pageIds[1], 2],
    ]);

    const pages = await shaped(V1PageList, volume!.pagesUrl);
    expect(pages.pages.map((p) => [p.id, p.number, p.textUrl])).toEqual([
      [open.pageIds[0], 1, `/api/v1/books/${open.bookId}/pages/${open.pageIds[0]}/text`],
      [open.pageIds[1], 2, `/api/v1/books/${open.bookId}/pages/${open.pageIds[1]}/text`],
    ]);

    const text = await shaped(V1PageText, pages.pages[0]!.textUrl);
    expect(text).toMatchObject({ pageId: open.pageIds[0], bookId: open.bookId, version: 1 });
    expect(text.text).toBe('學而時習之不亦說乎');
    const chars = text.columns.flatMap((c) => c.characters);
    expect(chars.map((c) => c.char).join('')).toBe('學而時習之不亦說乎');
    // ocrFor: the first character's box is 20 pixels from the right edge of a 600-pixel page.
    expect(chars[0]!.box).toEqual({ left: 560, top: 20, right: 580, bottom: 40 });

    // Full-text search: a token from the reading room.
    const found = await shaped(V1SearchResult, '/api/v1/search?q=學而', secret, READING_ROOM);
    expect(found.counts).toEqual({ pages: 2, occurrences: 2, books: 2 });
    expect(found.items.map((b) => b.book.id).sort()).toEqual([open.bookId, closed.bookId].sort());
    const hit = found.items.find((b) => b.book.id === open.bookId)!.hits[0]!;
    expect(hit).toMatchObject({ pageId: open.pageIds[0], pageNumber: 1, section: '第一章', occurrences: 1 });
    expect(hit.snippet.highlights).toEqual([{ start: 0, length: 2 }]);

    const who = await shaped(V1Whoami, '/api/v1/whoami', null);
    expect(who).toEqual({
      user: null,
      token: null,
      rateLimit: { limit: 30, windowSeconds: 60 },
      limits: { tokenPerMinute: 120, anonymousPerMinute: 30 },
    });

    for (const url of ['/api/v1/books', `/api/v1/books/${open.bookId}`]) {
      const response = await get(url);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    }
    const refused = await get(`/api/v1/books/${closed.bookId}/pages/${closed.pageIds[0]}/text`, null);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    const preflight = await h.request({
      method: 'OPTIONS' as 'GET',
      url: '/api/v1/books',
      headers: { origin: 'https://dh.example.edu', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'Authorization',
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
    });
  });

  it('lists are paged with next and a Link header; bad parameters get a Chinese 400', async () => {
    const first = await get(`/api/v1/books?q=${encodeURIComponent('接口')}&pageSize=1`);
    const list = V1BookList.parse(first.json());
    expect(list).toMatchObject({ total: 2, pages: 2 });
    const next = `/api/v1/books?q=${encodeURIComponent('接口')}&page=2&pageSize=1`;
    expect(list.next).toBe(next);
    expect(first.headers.link).toBe(`<${next}>; rel="next"`);
    const second = await get(next);
    expect(V1BookList.parse(second.json()).next).toBeNull();
    expect(second.headers.link).toBeUndefined();

    for (const [url, message] of [
      ['/api/v1/books?page=0', '页码必须是正整数'],
      ['/api/v1/books?pageSize=101', '每页条数必须是 1 到 100 的整数'],
      ['/api/v1/books/abc', 'Invalid input: expected number, received NaN'],
      ['/api/v1/search?q=', '请输入检索内容'],
      ['/api/v1/search?q=學&exact=2', 'exact 只能是 0 或 1'],
    ] as const) {
      const response = await get(url, secret, READING_ROOM);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toMatchObject({ code: 'VALIDATION', message });
    }
    const missing = await get('/api/v1/books/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 'NO_DATA', message: MSG.noData });
  });

  it('anonymous callers read the catalogue, public pages and their text, as IIIF gives them; no search; a session cookie does not count', async () => {
    expect((await get(`/api/v1/books/${open.bookId}`, null)).statusCode).toBe(200);
    expect(
      (await get(`/api/v1/books/${open.bookId}/volumes/${open.volumeIds[0]}/pages`, null)).statusCode,
    ).toBe(200);
    // A public book's text layer is public (issue 31 item 11): the same text as its IIIF text.json.
    const textUrl = `/api/v1/books/${open.bookId}/pages/${open.pageIds[0]}/text`;
    const text = await get(textUrl, null);
    expect(text.statusCode).toBe(200);
    expect(V1PageText.parse(text.json()).text).toContain('學而時習之');
    const iiif = await h.request({
      method: 'GET',
      url: `/iiif/presentation/pages/${open.pageIds[0]}/text.json`,
      remoteAddress: OUTSIDE,
    });
    expect(iiif.statusCode).toBe(200);
    const closedText = `/api/v1/books/${closed.bookId}/pages/${closed.pageIds[0]}/text`;
    for (const response of [
      await get(closedText, null),
      // The reader's own session cookie, without a token: still anonymous.
      await get(closedText, null, OUTSIDE, reader.cookie),
      await get('/api/v1/search?q=學而', null, READING_ROOM, reader.cookie),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        code: 'API_TOKEN_REQUIRED',
        message: '需要 API 令牌：请在“我的信息”中创建令牌，并以 Authorization: Bearer <令牌> 发送',
      });
      expect(response.headers['www-authenticate']).toBe('Bearer realm="guji"');
    }
    // The site's full-text rule: a token outside the reading room is refused.
    const outside = await get('/api/v1/search?q=學而');
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toEqual({ code: 'READING_ROOM_ONLY', message: MSG.fullTextReadingRoomOnly });
  });

  it("a restricted book's pages and text: refused without permission, given with a privilege or as a research reader", async () => {
    const textUrl = `/api/v1/books/${closed.bookId}/pages/${closed.pageIds[0]}/text`;
    const pagesUrl = `/api/v1/books/${closed.bookId}/volumes/${closed.volumeIds[0]}/pages`;
    const detail = V1BookDetail.parse((await get(`/api/v1/books/${closed.bookId}`)).json());
    expect(detail.access).toEqual({ canRead: false, reason: 'readingRoom', message: MSG.readingRoomOnly });
    for (const url of [textUrl, pagesUrl]) {
      const refused = await get(url);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ code: 'READING_ROOM_ONLY', message: MSG.readingRoomOnly });
      expect((await get(url, null)).statusCode).toBe(401);
    }
    // In the reading room the same token reads it, as on the site.
    expect((await get(textUrl, secret, READING_ROOM)).statusCode).toBe(200);
    // A page of another book named under this book is not found.
    expect(
      (await get(`/api/v1/books/${open.bookId}/pages/${closed.pageIds[0]}/text`, secret, READING_ROOM))
        .statusCode,
    ).toBe(404);

    const holder = await makeReader(h, 'apiprivileged');
    const holderToken = await tokenOf(holder);
    expect((await get(textUrl, holderToken)).statusCode).toBe(403);
    const user = (await h.context.repos.users.findByLoginName(holder.loginName))!;
    const now = h.clock.now();
    await h.context.repos.catalog.grantPrivilege(
      user.id,
      closed.bookId,
      now.toISOString(),
      new Date(now.getTime() + 3600_000).toISOString(),
    );
    const allowed = await get(textUrl, holderToken);
    expect(allowed.statusCode).toBe(200);
    expect(V1PageText.parse(allowed.json()).text).toBe('秘閣藏書學而');
    expect((await get(pagesUrl, holderToken)).statusCode).toBe(200);
    // The privilege ends: refused again.
    h.clock.advance(3601);
    expect((await get(textUrl, holderToken)).statusCode).toBe(403);

    const scholar = await makeReader(h, 'apiresearcher');
    const scholarToken = await tokenOf(scholar);
    expect((await get(textUrl, scholarToken)).statusCode).toBe(403);
    const scholarUser = (await h.context.repos.users.findByLoginName(scholar.loginName))!;
    await h.context.repos.users.update(scholarUser.id, { reader_flag: '2' }, h.context.database.db);
    expect(V1PageText.parse((await get(textUrl, scholarToken)).json()).text).toBe('秘閣藏書學而');
  });

  it('a hidden book does not exist for the API', async () => {
    const hidden = await makeBook(h, { title: '未公開', isVisible: false, volumes: [1], texts: [['隱']] });
    for (const url of [
      `/api/v1/books/${hidden.bookId}`,
      `/api/v1/books/${hidden.bookId}/volumes/${hidden.volumeIds[0]}/pages`,
      `/api/v1/books/${hidden.bookId}/pages/${hidden.pageIds[0]}/text`,
    ]) {
      const response = await get(url, secret, READING_ROOM);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NO_DATA' });
    }
  });

  it('the OpenAPI document has the v1 group with its examples', async () => {
    const doc = (await h.request({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, { get?: { tags: string[]; responses: Record<string, unknown> } }>;
    }>();
    const v1 = Object.entries(doc.paths).filter(([path]) => path.startsWith('/api/v1/'));
    expect(v1.map(([path]) => path).sort()).toEqual(
      Object.values(publicApi)
        .map((c) => c.path.replace(/:(\w+)/g, '{$1}'))
        .sort(),
    );
    for (const [, item] of v1) expect(item.get?.tags).toEqual(['v1']);
    expect(JSON.stringify(doc.paths['/api/v1/books/{bookId}/pages/{pageId}/text'])).toContain('學而時習之');
  });
});
