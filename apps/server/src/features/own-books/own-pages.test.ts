import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { ocrFor, pageImage } from '../../../test/catalog-factory.ts';
import { createHttpHarness, multipartFiles, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { makeZip } from '../../../test/zip.ts';
import { BOOK, ownClient, ownUsers } from './own-test-kit.ts';
import { makeReader } from '../../../test/factories.ts';

describe.each(DIALECTS)('own pages and single images over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  let alice: string;
  let bob: string;
  const as = (cookie: string) => ownClient(h, cookie);

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    ({ alice, bob } = await ownUsers(h));
  });
  afterAll(async () => h.close());

  it('pages of a volume: OCR state, more images, rename, reorder, delete, re-run OCR; all the owner’s only', async () => {
    const a = as(alice);
    const b = as(bob);
    const book = (await a.post('/api/own/books', { ...BOOK, title: '頁面管理' })).json<{
      catalogId: number;
    }>();
    await a.post(`/api/own/books/${book.catalogId}/volumes`, { name: '卷一' });
    const [volume] = (await a.get(`/api/own/books/${book.catalogId}/volumes`)).json<
      Array<{ fascicleId: number }>
    >();
    const base = `/api/own/volumes/${volume!.fascicleId}`;
    await a.upload(
      `${base}/zip`,
      'p.zip',
      makeZip({ '1.png': await pageImage(1), '2.png': await pageImage(2) }),
    );

    // Several images at once, in natural order; a non-image among them refuses them all.
    const multi = async (cookie: string, files: Array<[string, Buffer]>) => {
      const form = multipartFiles('file', files);
      return h.request({
        method: 'POST',
        url: `${base}/images`,
        cookie,
        headers: { 'content-type': form.contentType },
        payload: form.payload,
      });
    };
    expect(
      (
        await multi(alice, [
          ['4.png', await pageImage(4)],
          ['bad.png', Buffer.from('text')],
        ])
      ).statusCode,
    ).toBe(400);
    expect((await multi(bob, [['4.png', await pageImage(4)]])).statusCode).toBe(404);
    expect(
      (
        await multi(alice, [
          ['10.png', await pageImage(5)],
          ['3.png', await pageImage(3)],
        ])
      ).json(),
    ).toMatchObject({ added: 2 });

    type Page = { imageId: number; name: string; pageNumber: number; ocrStatus: string };
    const pages = async () => (await a.get(`${base}/pages`)).json<Page[]>();
    let list = await pages();
    expect(list.map((p) => [p.name, p.pageNumber, p.ocrStatus])).toEqual([
      ['1', 1, 'none'],
      ['2', 2, 'none'],
      ['3', 3, 'none'],
      ['10', 4, 'none'],
    ]);
    expect((await b.get(`${base}/pages`)).statusCode).toBe(404);

    expect((await a.put(`/api/own/pages/${list[0]!.imageId}`, { imageName: ' ' })).json()).toMatchObject({
      message: MSG.ownImageNameRequired,
    });
    expect((await b.put(`/api/own/pages/${list[0]!.imageId}`, { imageName: '封面' })).statusCode).toBe(404);
    expect((await a.put(`/api/own/pages/${list[0]!.imageId}`, { imageName: '封面' })).json()).toMatchObject({
      message: MSG.ownImageRenamed,
    });

    const ids = list.map((p) => p.imageId);
    expect((await a.post(`${base}/order`, { imageIds: ids.slice(1) })).json()).toMatchObject({
      message: MSG.ownOrderInvalid,
    });
    expect((await b.post(`${base}/order`, { imageIds: [...ids].reverse() })).statusCode).toBe(404);
    expect((await a.post(`${base}/order`, { imageIds: [...ids].reverse() })).json()).toMatchObject({
      message: MSG.ownOrderSaved,
    });
    list = await pages();
    expect(list.map((p) => p.name)).toEqual(['10', '3', '2', '封面']);

    expect((await b.del(`/api/own/pages/${ids[1]}`)).statusCode).toBe(404);
    expect((await a.del(`/api/own/pages/${ids[1]}`)).statusCode).toBe(200);
    list = await pages();
    expect(list.map((p) => [p.name, p.pageNumber])).toEqual([
      ['10', 1],
      ['3', 2],
      ['封面', 3],
    ]);

    // Re-run OCR for the volume: the owner may, another user may not.
    expect((await b.post('/api/ocr/run', { scope: 'volume', id: volume!.fascicleId })).statusCode).toBe(403);
    expect((await a.post('/api/ocr/run', { scope: 'volume', id: volume!.fascicleId })).json()).toEqual({
      queued: 3,
    });
    expect((await pages()).every((p) => p.ocrStatus === 'queued')).toBe(true);
  });

  it('single images: uploaded, listed, renamed, exported and deleted by their owner only, apart from books', async () => {
    const upload = async (cookie: string, files: Array<[string, Buffer]>) => {
      const form = multipartFiles('file', files);
      return h.request({
        method: 'POST',
        url: '/api/own/singles',
        cookie,
        headers: { 'content-type': form.contentType },
        payload: form.payload,
      });
    };
    const a = as(alice);
    const before = (await a.get('/api/own/books')).json<{ total: number }>().total;
    expect(
      (
        await upload(alice, [
          ['碑帖2.png', await pageImage(2)],
          ['碑帖1.png', await pageImage(1)],
        ])
      ).json(),
    ).toMatchObject({ added: 2 });
    const singles = (await a.get('/api/own/singles')).json<Array<{ imageId: number; name: string }>>();
    expect(singles.map((p) => p.name)).toEqual(['碑帖1', '碑帖2']);
    // Not a book of the list, and not for review.
    expect((await a.get('/api/own/books')).json<{ total: number }>().total).toBe(before);
    expect((await as(bob).get('/api/own/singles')).json()).toEqual([]);
    expect(
      (await as(bob).put(`/api/own/pages/${singles[0]!.imageId}`, { imageName: '偷改' })).statusCode,
    ).toBe(404);
    expect(
      (await as(bob).get(`/api/pages/${singles[0]!.imageId}/ocr/export?format=txt`)).statusCode,
    ).not.toBe(200);
    expect((await a.put(`/api/own/pages/${singles[0]!.imageId}`, { imageName: '拓片' })).statusCode).toBe(
      200,
    );
    // Before recognition there is no text to export; once it is there, text and ALTO.
    expect((await a.get(`/api/pages/${singles[0]!.imageId}/ocr/export?format=txt`)).json()).toMatchObject({
      message: '本页暂无识别文字',
    });
    await h.context.database.db
      .updateTable('pages')
      .set({ ocr_json: JSON.stringify(ocrFor('碑文', 600, 400)) })
      .where('id', '=', singles[0]!.imageId)
      .execute();
    const text = await a.get(`/api/pages/${singles[0]!.imageId}/ocr/export?format=txt`);
    expect(text.body).toContain('碑文');
    expect((await a.get(`/api/pages/${singles[0]!.imageId}/ocr/export?format=alto`)).statusCode).toBe(200);
    expect((await a.del(`/api/own/pages/${singles[1]!.imageId}`)).statusCode).toBe(200);
    expect((await a.get('/api/own/singles')).json<Array<{ name: string }>>().map((p) => p.name)).toEqual([
      '拓片',
    ]);
  });

  it('stores only the image of an upload: bytes after its end are dropped (PNG, JPEG, in a zip too)', async () => {
    // Issue 30 item 3: small PNGs each followed by 95 MB were stored byte for byte as page images.
    const cookie = (await makeReader(h, 'owntrailing')).cookie;
    const png = await pageImage(1, 100, 150);
    const jpeg = await pageImage(2, 100, 150, 'jpeg');
    const tail = Buffer.alloc(2 * 1024 ** 2, 0x41);
    const form = multipartFiles('file', [
      ['尾1.png', Buffer.concat([png, tail])],
      ['尾2.jpg', Buffer.concat([jpeg, Buffer.from([0xff, 0xd9]), tail])],
    ]);
    const sent = await h.request({
      method: 'POST',
      url: '/api/own/singles',
      cookie,
      headers: { 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const stored = async (names: string[]) => {
      const rows = await h.context.database.db
        .selectFrom('pages')
        .select(['name', 'master_key', 'file_bytes'])
        .where('name', 'in', names)
        .orderBy('name')
        .execute();
      return Promise.all(
        rows.map(async (r) => ({
          name: r.name,
          fileBytes: r.file_bytes,
          master: (await h.context.storage.get(r.master_key))!,
        })),
      );
    };
    const [first, second] = await stored(['尾1', '尾2']);
    expect(first!.master.equals(png)).toBe(true);
    expect(first!.fileBytes).toBe(png.length);
    expect(second!.master.equals(jpeg)).toBe(true);
    expect(second!.fileBytes).toBe(jpeg.length);

    // The same inside a zip of a volume.
    const a = as(cookie);
    const book = (await a.post('/api/own/books', { ...BOOK, title: '尾隨數據' })).json<{
      catalogId: number;
    }>();
    await a.post(`/api/own/books/${book.catalogId}/volumes`, { name: '卷一' });
    const [volume] = (await a.get(`/api/own/books/${book.catalogId}/volumes`)).json<
      Array<{ fascicleId: number }>
    >();
    const zipped = await a.upload(
      `/api/own/volumes/${volume!.fascicleId}/zip`,
      'tail.zip',
      makeZip({ '尾3.png': Buffer.concat([png, tail]) }),
    );
    expect(zipped.statusCode, zipped.body).toBe(200);
    const [third] = await stored(['尾3']);
    expect(third!.master.equals(png)).toBe(true);
  });

  it('two first uploads of single images at once share one single-images book', async () => {
    const { cookie: cookie, loginName: cookieLogin } = await makeReader(h, 'ownsingles');
    const send = async (n: number) => {
      const form = multipartFiles('file', [[`圖${n}.png`, await pageImage(n)]]);
      return h.request({
        method: 'POST',
        url: '/api/own/singles',
        cookie,
        headers: { 'content-type': form.contentType },
        payload: form.payload,
      });
    };
    // Two at once: the most uploads one user may have in progress.
    const answers = await Promise.all([send(1), send(2)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    const singles = (await as(cookie).get('/api/own/singles')).json<Array<{ name: string }>>();
    expect(singles.map((p) => p.name).sort()).toEqual(['圖1', '圖2']);
    const books = await h.context.database.db
      .selectFrom('books')
      .innerJoin('volumes', 'volumes.book_id', 'books.id')
      .select(['books.id', 'volumes.id as volumeId'])
      .where('books.source_key', 'like', 'single:%')
      .where('books.title', '=', '单张图像')
      .where('books.owner_id', 'in', (eb) =>
        eb.selectFrom('users').select('id').where('login_name', '=', cookieLogin),
      )
      .execute();
    expect(books).toHaveLength(1);
  });
});
