import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG, type BookDetail, type BookPage, type ReaderData } from '@guji/shared';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { createBook } from '../../../test/catalog-factory.ts';
import { makeReader } from '../../../test/factories.ts';

const OUTSIDE = '203.0.113.7';
const READING_ROOM = '10.8.1.1';

describe.each(DIALECTS)('catalogue over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  let open: Awaited<ReturnType<typeof createBook>>;
  let closed: Awaited<ReturnType<typeof createBook>>;
  let hidden: Awaited<ReturnType<typeof createBook>>;
  let emptyBookId: number;
  let reader: string;
  let readerLogin = '';
  let staff: string;

  beforeAll(async () => {
    h = await createHttpHarness(dialect, { READING_ROOM_CIDRS: '10.8.0.0/16' });
    const cat = h.context.repos.catalog;
    const jing = await h.context.repos.classifications.upsert({
      code: 'JING',
      name: '經部',
      parentId: null,
      sort: 1,
    });
    await h.context.repos.classifications.upsert({
      code: 'JING.SISHU',
      name: '四書類',
      parentId: jing,
      sort: 1,
    });
    await h.context.repos.classifications.upsert({ code: 'ZI', name: '子部', parentId: null, sort: 3 });
    open = await createBook(h.context, {
      title: '論語集注',
      classCode: 'JING.SISHU',
      volumes: [3, 2],
      callNumber: 'A-1',
    });
    closed = await createBook(h.context, {
      title: '孟子集注',
      classCode: 'JING.SISHU',
      isOpen: false,
      volumes: [2],
    });
    hidden = await createBook(h.context, { title: '秘本', classCode: 'ZI', isVisible: false, volumes: [1] });
    emptyBookId = await cat.createBook(
      { title: '有目無書', class_code: 'ZI', is_visible: 1, is_open: 1 },
      h.context.database.db,
    );
    for (let i = 0; i < 7; i++)
      await cat.createBook(
        { title: `千字文${i}`, class_code: 'ZI', is_visible: 1, is_open: 1 },
        h.context.database.db,
      );
    ({ cookie: reader, loginName: readerLogin } = await makeReader(h, 'catreader'));
    await h.context.services.auth.upsertAccount({
      loginName: 'catstaff',
      password: GOOD_PASSWORD,
      roles: ['reader', 'catalogAdmin'],
    });
    staff = (await h.login('catstaff', GOOD_PASSWORD)).cookie;
  });
  afterAll(async () => h.close());

  const get = (url: string, cookie?: string, remoteAddress = OUTSIDE) =>
    h.request({ method: 'GET', url, remoteAddress, ...(cookie ? { cookie } : {}) });

  it('lists the classification tree', async () => {
    const tree = (await get('/api/classifications')).json<
      Array<{ dictionaryName: string; dictionaryValue: string; children: unknown[] }>
    >();
    expect(tree.map((n) => n.dictionaryName)).toEqual(['經部', '子部']);
    expect(tree[0]!.children).toEqual([
      {
        dictionaryId: expect.any(Number) as unknown,
        dictionaryName: '四書類',
        dictionaryValue: 'JING.SISHU',
        children: [],
      },
    ]);
  });

  it('searches titles with a classification filter, 6 per page with exact totals, never showing hidden books', async () => {
    const all = (await get('/api/books?pageSize=6')).json<BookPage>();
    expect(all.total).toBe(10);
    expect(all.records).toHaveLength(6);
    expect(all.pages).toBe(2);
    expect(all.records.map((b) => b.title)).not.toContain('秘本');
    const second = (await get('/api/books?pageNum=2&pageSize=6')).json<BookPage>();
    expect(second.records).toHaveLength(4);
    const byClass = (await get('/api/books?classCode=JING')).json<BookPage>();
    expect(byClass.records.map((b) => b.title).sort()).toEqual(['孟子集注', '論語集注']);
    const byTitle = (
      await get(`/api/books?title=${encodeURIComponent('集注')}&classCode=JING.SISHU`)
    ).json<BookPage>();
    expect(byTitle.total).toBe(2);
    expect((await get(`/api/books?title=${encodeURIComponent('100%')}`)).json<BookPage>().total).toBe(0);
    const staffSees = (await get(`/api/books?title=${encodeURIComponent('秘本')}`, staff)).json<BookPage>();
    expect(staffSees.total).toBe(1);
  });

  it('lists the most-read books with volumes first, 8 per page', async () => {
    await get(`/api/reader?catalogId=${closed.bookId}`, reader, READING_ROOM);
    await get(`/api/reader?catalogId=${closed.bookId}`, reader, READING_ROOM);
    const hot = (await get('/api/books/hot?pageSize=8')).json<BookPage>();
    expect(hot.records[0]!.title).toBe('孟子集注');
    expect(hot.records.map((b) => b.title)).not.toContain('有目無書');
    expect(hot.records.map((b) => b.title)).not.toContain('秘本');
    expect(hot.records[0]!.coverUrl).toMatch(/^\/iiif\/3\/\d+\/full\/!240,240\/0\/default\.jpg$/);
  });

  it('decides access for every kind of viewer (DESIGN.md §7)', async () => {
    const access = async (bookId: number, cookie?: string, address = OUTSIDE) =>
      (await get(`/api/books/${bookId}`, cookie, address)).json<BookDetail>().access;
    expect(await access(open.bookId)).toEqual({
      canRead: false,
      reason: 'login',
      message: MSG.loginRequiredNotice,
    });
    expect(await access(open.bookId, reader)).toMatchObject({ canRead: true, reason: 'ok' });
    expect(await access(closed.bookId, reader)).toEqual({
      canRead: false,
      reason: 'readingRoom',
      message: MSG.readingRoomOnly,
    });
    expect(await access(closed.bookId, reader, READING_ROOM)).toMatchObject({ canRead: true });
    expect(await access(closed.bookId, staff)).toMatchObject({ canRead: true });
    expect(await access(emptyBookId, reader)).toEqual({
      canRead: false,
      reason: 'noData',
      message: MSG.noData,
    });
    const user = await h.context.repos.users.findByLoginName(readerLogin);
    const now = h.clock.now().getTime();
    await h.context.repos.catalog.grantPrivilege(
      user!.id,
      closed.bookId,
      new Date(now - 1000).toISOString(),
      new Date(now + 3600_000).toISOString(),
    );
    expect(await access(closed.bookId, reader)).toMatchObject({ canRead: true });
    h.clock.advance(7200);
    expect(await access(closed.bookId, reader)).toMatchObject({ reason: 'readingRoom' });
  });

  it('shows book details with volumes and a manifest link, and hides hidden books from all but staff', async () => {
    const detail = (await get(`/api/books/${open.bookId}`)).json<BookDetail>();
    expect(detail).toMatchObject({
      title: '論語集注',
      callNumber: 'A-1',
      volumeCount: 2,
      isOpen: true,
      canEdit: false,
    });
    expect(detail.iiifManifestUrl).toBe(`/iiif/presentation/books/${open.bookId}/collection.json`);
    for (const path of [`/api/books/${hidden.bookId}`, `/api/books/${hidden.bookId}/volumes`]) {
      const visitor = await get(path);
      expect(visitor.statusCode, path).toBe(404);
    }
    const hiddenRes = await get(`/api/books/${hidden.bookId}`, reader);
    expect(hiddenRes.statusCode).toBe(404);
    expect(hiddenRes.json()).toEqual({ code: 'NO_DATA', message: MSG.noData });
    expect((await get(`/api/books/${hidden.bookId}`, staff)).json<BookDetail>()).toMatchObject({
      isVisible: false,
      canEdit: true,
    });
    const volumes = (await get(`/api/books/${open.bookId}/volumes`)).json<
      Array<{ name: string; imageCount: number }>
    >();
    expect(volumes.map((v) => [v.name, v.imageCount])).toEqual([
      ['卷一', 3],
      ['卷二', 2],
    ]);
    expect((await get(`/api/books/${emptyBookId}/volumes`)).json()).toEqual([]);
    const directory = (await get(`/api/volumes/${open.volumeIds[0]}/directory`)).json<
      Array<{ name: string; pageNumber: number }>
    >();
    expect(directory.map((d) => [d.name, d.pageNumber])).toEqual([
      ['第一章', 1],
      ['第二章', 2],
    ]);
  });

  it('opens the reader only under the access rule, with the exact refusals', async () => {
    const visitor = await get(`/api/reader?catalogId=${open.bookId}`);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toEqual({ code: 'LOGIN_REQUIRED', message: MSG.loginRequiredNotice });
    const outside = await get(`/api/reader?catalogId=${closed.bookId}`, reader);
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toEqual({ code: 'READING_ROOM_ONLY', message: MSG.readingRoomOnly });
    expect((await get(`/api/reader?catalogId=${emptyBookId}`, reader)).json()).toEqual({
      code: 'NO_DATA',
      message: MSG.noData,
    });
    expect((await get(`/api/reader?catalogId=${hidden.bookId}`, reader, READING_ROOM)).statusCode).toBe(404);
    expect((await get(`/api/reader?catalogId=${hidden.bookId}`, staff)).statusCode).toBe(200);
  });

  it('gives the reader the pages of the chosen volume, records a view and a footprint', async () => {
    const user = await h.context.repos.users.findByLoginName(readerLogin);
    const before = await h.context.repos.catalog.countFootprints(user!.id);
    const viewsBefore = (await h.context.repos.catalog.findBook(open.bookId))!.view_count;
    const data = (
      await get(`/api/reader?catalogId=${open.bookId}&fascicleId=${open.volumeIds[1]}`, reader)
    ).json<ReaderData>();
    expect(data.volume.name).toBe('卷二');
    expect(data.pages.map((p) => p.pageNumber)).toEqual([1, 2]);
    expect(data.pages[0]).toMatchObject({ width: 600, height: 400, iiifBase: `/iiif/3/${open.pageIds[3]}` });
    expect(data.volumes).toHaveLength(2);
    expect(await h.context.repos.catalog.countFootprints(user!.id)).toBe(before + 1);
    expect((await h.context.repos.catalog.findBook(open.bookId))!.view_count).toBe(viewsBefore + 1);
    expect(
      (await get(`/api/reader?catalogId=${open.bookId}&fascicleId=${closed.volumeIds[0]}`, reader))
        .statusCode,
    ).toBe(404);
  });

  it('lets only catalogue staff hide, close or edit a book', async () => {
    const patch = (cookie: string, body: unknown) =>
      h.request({ method: 'PATCH', url: `/api/books/${open.bookId}`, cookie, body });
    expect((await patch(reader, { isOpen: false })).statusCode).toBe(403);
    const changed = await patch(staff, { isOpen: false, author: '朱熹', title: '論語集注（修訂）' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<BookDetail>()).toMatchObject({
      isOpen: false,
      author: '朱熹',
      title: '論語集注（修訂）',
    });
    expect((await get(`/api/books/${open.bookId}`, reader)).json<BookDetail>().access.reason).toBe(
      'readingRoom',
    );
    expect((await patch(staff, { title: '' })).json()).toMatchObject({ message: '请输入书名' });
    await patch(staff, { isVisible: false });
    expect((await get(`/api/books/${open.bookId}`, reader)).statusCode).toBe(404);
    await patch(staff, { isVisible: true, isOpen: true, title: '論語集注' });
  });

  it('keeps a book’s notes (附注): staff set and clear them, readers see them, bad text changes nothing', async () => {
    const patch = (body: unknown) =>
      h.request({ method: 'PATCH', url: `/api/books/${open.bookId}`, cookie: staff, body });
    const notes = '有朱筆圈點。\n卷末有清人跋。';
    expect((await patch({ notes: `  ${notes} ` })).json<BookDetail>().notes).toBe(notes);
    expect((await get(`/api/books/${open.bookId}`, reader)).json<BookDetail>().notes).toBe(notes);
    expect((await patch({ notes: '跋'.repeat(4001) })).json()).toMatchObject({ message: '附注最多 4000 字' });
    expect((await patch({ notes: '朱筆\u202e圈點' })).json()).toMatchObject({ message: MSG.textUnsafeChars });
    expect((await get(`/api/books/${open.bookId}`, reader)).json<BookDetail>().notes).toBe(notes);
    expect((await patch({ notes: '' })).json<BookDetail>().notes).toBeNull();
  });

  it('an edit and its audit record are one transaction: when the record cannot be written, the book is unchanged', async () => {
    const patch = (body: unknown) =>
      h.request({ method: 'PATCH', url: `/api/books/${closed.bookId}`, cookie: staff, body });
    const spy = vi
      .spyOn(h.context.services.admin, 'record')
      .mockRejectedValueOnce(new Error('audit log unavailable'));
    try {
      expect((await patch({ title: '孟子集注（未存）', isVisible: false })).statusCode).toBe(500);
      expect(await h.context.repos.catalog.findBook(closed.bookId)).toMatchObject({
        title: '孟子集注',
        is_visible: 1,
      });
      expect((await get(`/api/books/${closed.bookId}`, reader)).statusCode).toBe(200);
      // Working again: the edit is made and recorded once, with its fields before and after.
      const { author } = (await h.context.repos.catalog.findBook(closed.bookId))!;
      expect((await patch({ author: '朱熹' })).statusCode).toBe(200);
      expect(spy).toHaveBeenCalledTimes(2);
      expect(spy.mock.calls[1]!.slice(1, 5)).toEqual([
        'book.update',
        `book:${closed.bookId}`,
        { author },
        { author: '朱熹' },
      ]);
    } finally {
      spy.mockRestore();
    }
  });
});
