import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, type AdminBook, type DirectoryNode } from '@guji/shared';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, GOOD_PASSWORD, multipartFile, type HttpHarness } from '../../../test/http.ts';
import { makeZip } from '../../../test/zip.ts';
import { BOOK_HAS_READER_DATA, CLASS_UNKNOWN } from './catalog-admin.service.ts';
import { makeReader } from '../../../test/factories.ts';

const page = (shade: string) =>
  sharp({ create: { width: 300, height: 420, channels: 3, background: shade } })
    .png()
    .toBuffer();

describe.each(DIALECTS)('console catalogue management (%s)', (dialect) => {
  let h: HttpHarness;
  let staff: string;
  let reader: string;

  const as = (cookie: string) => ({
    get: (url: string) => h.request({ method: 'GET', url, cookie }),
    del: (url: string) => h.request({ method: 'DELETE', url, cookie }),
    post: (url: string, body: unknown = {}) => h.request({ method: 'POST', url, body, cookie }),
    put: (url: string, body: unknown) => h.request({ method: 'PUT', url, body, cookie }),
    patch: (url: string, body: unknown) => h.request({ method: 'PATCH', url, body, cookie }),
    upload: (url: string, name: string, data: Buffer, type: string) => {
      const form = multipartFile('file', name, data, type);
      return h.request({
        method: 'POST',
        url,
        cookie,
        headers: { 'content-type': form.contentType },
        payload: form.payload,
      });
    },
  });

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    await h.context.services.auth.upsertAccount({
      loginName: 'catstaff',
      password: GOOD_PASSWORD,
      roles: ['reader', 'catalogAdmin'],
    });
    staff = (await h.login('catstaff', GOOD_PASSWORD)).cookie;
    reader = (await makeReader(h, 'catreader')).cookie;
    await h.context.database.db
      .insertInto('classifications')
      .values({ code: 'JING', name: '經部', parent_id: null, sort: 0 })
      .execute();
  });
  afterAll(async () => h.close());

  it('refuses readers and visitors', async () => {
    expect((await as(reader).get('/api/admin/books')).statusCode).toBe(403);
    expect((await as(reader).post('/api/admin/books', { title: '某書' })).statusCode).toBe(403);
    expect((await as(reader).del('/api/admin/books/1')).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/admin/books' })).statusCode).toBe(401);
  });

  it('catalogues a book, gives it volumes, pages and a directory, publishes it, deletes it', async () => {
    const s = as(staff);
    const empty = await s.post('/api/admin/books', { title: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ message: string }>().message).toBe('请输入书名');
    const unknown = await s.post('/api/admin/books', { title: '孝經', classCode: 'NOPE' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ message: string }>().message).toBe(CLASS_UNKNOWN);

    const created = await s.post('/api/admin/books', {
      title: '孝經',
      author: '孔子',
      publishDynasty: '清',
      coverageDynasty: '清刻本',
      editionType: '刻本',
      callNumber: 'X-100%',
      classCode: 'JING',
      actualVolume: 1,
      bookNumber: 1,
    });
    expect(created.statusCode).toBe(200);
    const book = created.json<AdminBook>();
    expect(book).toMatchObject({
      title: '孝經',
      classCode: 'JING',
      editionType: '刻本',
      isVisible: false,
      isOpen: false,
      volumeCount: 0,
      owner: null,
    });
    // Hidden by default: listed in the console (folded title: 孝经 finds 孝經), not in the public search.
    const listed = (await s.get(`/api/admin/books?text=${encodeURIComponent('孝经')}&state=hidden`)).json<{
      records: AdminBook[];
    }>();
    expect(listed.records.map((b) => b.catalogId)).toEqual([book.catalogId]);
    // A % typed in the box is a character, not a wildcard.
    expect(
      (await s.get(`/api/admin/books?text=${encodeURIComponent('%')}`)).json<{ total: number }>().total,
    ).toBe(1);
    expect(
      (await s.get(`/api/admin/books?text=${encodeURIComponent('_')}`)).json<{ total: number }>().total,
    ).toBe(0);
    expect(
      (await as(reader).get(`/api/books?title=${encodeURIComponent('孝經')}`)).json<{ total: number }>()
        .total,
    ).toBe(0);

    // Volumes and pages through the volume screens' calls, which staff may use on the library's books.
    expect(
      (await s.post(`/api/own/books/${book.catalogId}/volumes`, { name: '卷上', introduction: '' }))
        .statusCode,
    ).toBe(200);
    const [volume] = (await s.get(`/api/own/books/${book.catalogId}/volumes`)).json<
      Array<{ fascicleId: number }>
    >();
    const zip = makeZip({
      '2.png': await page('#ddd'),
      '1.png': await page('#eee'),
      '10.png': await page('#ccc'),
    });
    const uploaded = await s.upload(
      `/api/own/volumes/${volume!.fascicleId}/zip`,
      'juan.zip',
      zip,
      'application/zip',
    );
    expect(uploaded.statusCode).toBe(200);
    const pages = (await s.get(`/api/own/volumes/${volume!.fascicleId}/pages`)).json<
      Array<{ imageId: number; name: string }>
    >();
    expect(pages.map((p) => p.name)).toEqual(['1', '2', '10']);

    // A reader may not touch the library's volumes, pages or directory.
    const r = as(reader);
    expect((await r.get(`/api/own/books/${book.catalogId}/volumes`)).statusCode).toBe(404);
    expect((await r.get(`/api/own/volumes/${volume!.fascicleId}/pages`)).statusCode).toBe(404);
    expect((await r.del(`/api/own/pages/${pages[0]!.imageId}`)).statusCode).toBe(404);
    expect(
      (await r.put(`/api/own/volumes/${volume!.fascicleId}/directory`, { entries: [] })).statusCode,
    ).toBe(404);

    // The directory: checked, then replaced whole.
    const dir = (entries: unknown) => s.put(`/api/own/volumes/${volume!.fascicleId}/directory`, { entries });
    const noName = await dir([{ name: ' ', imageId: null, children: [] }]);
    expect(noName.statusCode).toBe(400);
    expect(noName.json<{ message: string }>().message).toBe(MSG.directoryNameRequired);
    const foreign = await dir([{ name: '序', imageId: 999999, children: [] }]);
    expect(foreign.json<{ message: string }>().message).toBe(MSG.directoryPageInvalid);
    const leaf = (depth: number): unknown =>
      depth === 0 ? [] : [{ name: `第${depth}級`, imageId: null, children: leaf(depth - 1) }];
    expect((await dir(leaf(5))).json<{ message: string }>().message).toBe(MSG.directoryTooDeep);
    expect((await dir(leaf(4))).statusCode).toBe(200);
    const saved = await dir([
      { name: '序', imageId: pages[0]!.imageId, children: [] },
      {
        name: '正文',
        imageId: null,
        children: [
          { name: '開宗明義章', imageId: pages[1]!.imageId, children: [] },
          { name: '天子章', imageId: pages[2]!.imageId, children: [] },
        ],
      },
    ]);
    expect(saved.json()).toEqual({ ok: true, message: MSG.directorySaved });
    const tree = (await s.get(`/api/volumes/${volume!.fascicleId}/directory`)).json<DirectoryNode[]>();
    expect(tree.map((n) => [n.name, n.pageNumber, n.children.map((c) => [c.name, c.pageNumber])])).toEqual([
      ['序', 1, []],
      [
        '正文',
        null,
        [
          ['開宗明義章', 2],
          ['天子章', 3],
        ],
      ],
    ]);

    // Published and opened through the catalogue's own edit; an unknown class code is refused there too.
    const badClass = await s.patch(`/api/books/${book.catalogId}`, { classCode: 'NOPE' });
    expect(badClass.json<{ message: string }>().message).toBe(CLASS_UNKNOWN);
    expect(
      (await s.patch(`/api/books/${book.catalogId}`, { isVisible: true, isOpen: true, editionType: '寫本' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await s.get(`/api/admin/books?state=open`)).json<{ records: AdminBook[] }>().records[0],
    ).toMatchObject({
      catalogId: book.catalogId,
      isVisible: true,
      editionType: '寫本',
      volumeCount: 1,
      pageCount: 3,
    });
    expect(
      (await as(reader).get(`/api/books?title=${encodeURIComponent('孝經')}`)).json<{ total: number }>()
        .total,
    ).toBe(1);

    // A reader's collection keeps it from being deleted; without it, it goes.
    expect((await r.put(`/api/books/${book.catalogId}/collect`, {})).statusCode).toBe(200);
    const kept = await s.del(`/api/admin/books/${book.catalogId}`);
    expect(kept.statusCode).toBe(409);
    expect(kept.json<{ message: string }>().message).toBe(BOOK_HAS_READER_DATA);
    expect((await r.del(`/api/books/${book.catalogId}/collect`)).statusCode).toBe(200);
    // The deleted book's files go with it.
    const masters = (
      await h.context.database.db
        .selectFrom('pages')
        .select('master_key')
        .where('book_id', '=', book.catalogId)
        .execute()
    ).map((p) => path.join(h.context.config.dataDir, p.master_key));
    expect(masters.every((file) => fs.existsSync(file))).toBe(true);
    expect((await s.del(`/api/admin/books/${book.catalogId}`)).statusCode).toBe(200);
    expect(masters.some((file) => fs.existsSync(file))).toBe(false);
    expect(
      (await s.get(`/api/admin/books?text=${encodeURIComponent('孝經')}`)).json<{ total: number }>().total,
    ).toBe(0);
    expect((await r.get(`/api/books/${book.catalogId}`)).statusCode).toBe(404);

    // Every step is in the audit log.
    const actions = (
      await h.context.database.db.selectFrom('audit_log').select('action').orderBy('id').execute()
    ).map((a) => a.action);
    for (const action of [
      'book.create',
      'volume.create',
      'pages.upload',
      'directory.save',
      'book.update',
      'book.delete',
    ])
      expect(actions).toContain(action);
  });

  it("staff do not manage a reader's own book through the volume screens", async () => {
    const own = await as(reader).post('/api/own/books', {
      title: '私藏',
      actualVolume: 1,
      author: '佚名',
      publishDynasty: '清',
      editionType: '抄本',
    });
    const id = own.json<{ catalogId: number }>().catalogId;
    expect((await as(staff).get(`/api/own/books/${id}/volumes`)).statusCode).toBe(404);
    expect((await as(staff).post(`/api/own/books/${id}/volumes`, { name: '卷一' })).statusCode).toBe(404);
    // Nor is an unpublished own book in the console's catalogue.
    expect((await as(staff).del(`/api/admin/books/${id}`)).statusCode).toBe(404);
  });
});
