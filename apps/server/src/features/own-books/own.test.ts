import fs from 'node:fs';
import path from 'node:path';
import { crc32, createDeflateRaw } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { ocrFor, pageImage } from '../../../test/catalog-factory.ts';
import {
  createHttpHarness,
  GOOD_PASSWORD,
  multipartFile,
  multipartFiles,
  type HttpHarness,
} from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { makeZip } from '../../../test/zip.ts';

/** A PNG whose header says 30 000 × 30 000 pixels (no need to hold the pixels to test the refusal). */
function hugePngHeader(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(30_000, 0);
  ihdr.writeUInt32BE(30_000, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.alloc(0)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** 1 GB of zeros, deflated (about 1 MB), with its size and CRC: a zip bomb entry. */
async function gigabyteOfZeros(): Promise<{ data: Buffer; size: number; crc: number }> {
  const zeros = Buffer.alloc(1024 * 1024);
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  let crc = 0;
  for (let i = 0; i < 1024; i++) {
    crc = crc32(zeros, crc);
    if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  await new Promise((resolve) => deflate.end(resolve));
  return { data: Buffer.concat(chunks), size: 1024 ** 3, crc };
}

describe.each(DIALECTS)('own books over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  let alice: string;
  let bob: string;
  let reviewer: string;
  const BOOK = {
    title: '自藏家譜',
    actualVolume: 1,
    author: '佚名',
    publishDynasty: '清',
    editionType: '抄本',
  };

  const as = (cookie: string) => ({
    get: (url: string) => h.request({ method: 'GET', url, cookie }),
    del: (url: string) => h.request({ method: 'DELETE', url, cookie }),
    post: (url: string, body: unknown = {}) => h.request({ method: 'POST', url, body, cookie }),
    put: (url: string, body: unknown) => h.request({ method: 'PUT', url, body, cookie }),
    upload: (url: string, name: string, data: Buffer) => {
      const form = multipartFile('file', name, data, 'application/zip');
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
    await h.register({ loginName: 'ownalice', phone: '13400000301' });
    await h.register({ loginName: 'ownbob', phone: '13400000302' });
    alice = (await h.login('ownalice', GOOD_PASSWORD)).cookie;
    bob = (await h.login('ownbob', GOOD_PASSWORD)).cookie;
    await h.context.services.auth.upsertAccount({
      loginName: 'ownchecker',
      password: GOOD_PASSWORD,
      roles: ['reader', 'reviewer'],
    });
    reviewer = (await h.login('ownchecker', GOOD_PASSWORD)).cookie;
  });
  afterAll(async () => h.close());

  it('adds books with the required fields of spec §5, pages 5 then 6, and keeps them from other users', async () => {
    // Two readers of this test's own: the counts below are theirs alone.
    await h.register({ loginName: 'owncarol', phone: '13400000391' });
    await h.register({ loginName: 'owndave', phone: '13400000392' });
    const a = as((await h.login('owncarol', GOOD_PASSWORD)).cookie);
    const message = async (body: unknown) =>
      (await a.post('/api/own/books', body)).json<{ message: string }>().message;
    expect(await message({ ...BOOK, title: ' ' })).toBe(MSG.ownTitleRequired);
    expect(await message({ ...BOOK, actualVolume: undefined })).toBe(MSG.ownVolumeCountRequired);
    expect(await message({ ...BOOK, author: '' })).toBe(MSG.ownAuthorRequired);
    expect(await message({ ...BOOK, publishDynasty: '' })).toBe(MSG.ownDynastyRequired);
    expect(await message({ ...BOOK, editionType: '' })).toBe(MSG.ownEditionTypeRequired);
    for (let i = 0; i < 7; i++)
      expect((await a.post('/api/own/books', { ...BOOK, title: `家譜${i}` })).statusCode).toBe(200);
    expect((await a.get('/api/own/books')).json()).toMatchObject({ pageSize: 5, total: 7, pages: 2 });
    expect((await a.get('/api/own/books?pageNum=2')).json<{ records: unknown[] }>().records).toHaveLength(2);
    const first = (await a.get('/api/own/books')).json<{
      records: Array<{ catalogId: number; auditStatus: string }>;
    }>().records[0]!;
    expect(first.auditStatus).toBe('0');

    const b = as((await h.login('owndave', GOOD_PASSWORD)).cookie);
    expect((await b.get('/api/own/books')).json()).toMatchObject({ total: 0 });
    expect((await b.get(`/api/own/books/${first.catalogId}`)).statusCode).toBe(404);
    expect((await b.put(`/api/own/books/${first.catalogId}`, BOOK)).statusCode).toBe(404);
    expect((await b.del(`/api/own/books/${first.catalogId}`)).statusCode).toBe(404);
    expect((await b.post(`/api/own/books/${first.catalogId}/volumes`, { name: '卷一' })).statusCode).toBe(
      404,
    );
    expect((await b.post('/api/own/books/submit', { ids: [first.catalogId] })).statusCode).toBe(404);
    // Not in the catalogue before review.
    expect((await h.request({ method: 'GET', url: `/api/books/${first.catalogId}` })).statusCode).toBe(404);
    expect((await a.del(`/api/own/books/${first.catalogId}`)).statusCode).toBe(200);
  });

  it('uploads a volume as a zip of images in natural order; every attack is refused and leaves nothing', async () => {
    const a = as(alice);
    const book = (await a.post('/api/own/books', BOOK)).json<{ catalogId: number }>();
    expect((await a.post(`/api/own/books/${book.catalogId}/volumes`, { name: '' })).json()).toMatchObject({
      message: MSG.ownVolumeNameRequired,
    });
    await a.post(`/api/own/books/${book.catalogId}/volumes`, { name: '卷一', introduction: '' });
    const [volume] = (await a.get(`/api/own/books/${book.catalogId}/volumes`)).json<
      Array<{ fascicleId: number }>
    >();
    const url = `/api/own/volumes/${volume!.fascicleId}/zip`;
    const png = await pageImage(1, 300, 200);
    const mastersBefore = () => {
      const dir = path.join(h.context.config.dataDir, 'masters');
      return fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
    };

    const refusals: Array<[string, string, Buffer, RegExp | string]> = [
      ['not a zip', 'pages.rar', makeZip({ '1.png': png }), MSG.ownZipOnly],
      ['a ../ entry', 'pages.zip', makeZip({ '../evil.png': png }), /指向包外/],
      ['an absolute path', 'pages.zip', makeZip({ '/etc/evil.png': png }), /指向包外/],
      [
        'a symlink entry',
        'pages.zip',
        makeZip({ 'link.png': '/etc/passwd' }, { symlinks: ['link.png'] }),
        /符号链接/,
      ],
      [
        '10 000 entries',
        'pages.zip',
        makeZip(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`${i}.png`, 'x']))),
        /文件数超过/,
      ],
      ['a text file', 'pages.zip', makeZip({ '1.png': png, 'readme.txt': 'hi' }), /readme\.txt/],
      [
        'a non-image renamed .jpg',
        'pages.zip',
        makeZip({ '1.png': png, 'fake.jpg': 'not an image' }),
        /fake\.jpg/,
      ],
      ['a 30 000 × 30 000 PNG', 'pages.zip', makeZip({ 'huge.png': hugePngHeader() }), /huge\.png/],
    ];
    const bomb = await gigabyteOfZeros();
    refusals.push([
      'a 1 GB-unpacked bomb',
      'pages.zip',
      makeZip({ 'bomb.png': bomb.data }, { deflated: { 'bomb.png': bomb } }),
      /超过上限|过大/,
    ]);
    const before = mastersBefore();
    for (const [what, name, data, expected] of refusals) {
      const response = await a.upload(url, name, data);
      expect(response.statusCode, what).toBe(400);
      const text = response.json<{ message: string }>().message;
      if (typeof expected === 'string') expect(text, what).toBe(expected);
      else expect(text, what).toMatch(expected);
    }
    expect((await a.get(`/api/own/books/${book.catalogId}/volumes`)).json()).toMatchObject([
      { imageCount: 0 },
    ]);
    expect(mastersBefore()).toBe(before);

    // Bob cannot upload into Alice's volume.
    expect((await as(bob).upload(url, 'pages.zip', makeZip({ '1.png': png }))).statusCode).toBe(404);

    const good = makeZip({
      'scans/10.png': await pageImage(10),
      'scans/2.png': await pageImage(2),
      'scans/1.png': await pageImage(1),
      '__MACOSX/._1.png': '',
    });
    const uploaded = await a.upload(url, 'pages.zip', good);
    expect(uploaded.json()).toMatchObject({
      added: 3,
      names: ['scans/1.png', 'scans/2.png', 'scans/10.png'],
      message: MSG.ownUploaded,
    });
    const pages = await h.context.repos.catalog.listPages(volume!.fascicleId);
    expect(pages.map((p) => p.name)).toEqual(['1', '2', '10']);
  });

  it('submit, refuse with a reason, resubmit, approve: public and searchable; staff can withdraw it', async () => {
    const a = as(alice);
    const book = (await a.post('/api/own/books', { ...BOOK, title: '王氏宗譜' })).json<{
      catalogId: number;
    }>();
    // Nothing to review without pages.
    expect((await a.post('/api/own/books/submit', { ids: [book.catalogId] })).json()).toMatchObject({
      message: MSG.ownNotSubmittable,
    });
    await a.post(`/api/own/books/${book.catalogId}/volumes`, { name: '卷一' });
    const [volume] = (await a.get(`/api/own/books/${book.catalogId}/volumes`)).json<
      Array<{ fascicleId: number }>
    >();
    await a.upload(
      `/api/own/volumes/${volume!.fascicleId}/zip`,
      'p.zip',
      makeZip({ '1.png': await pageImage(3) }),
    );
    expect((await a.post('/api/own/books/submit', { ids: [book.catalogId] })).json()).toMatchObject({
      message: MSG.ownSubmitted,
    });
    // Under review, the owner cannot change it.
    expect((await a.put(`/api/own/books/${book.catalogId}`, BOOK)).json()).toMatchObject({
      message: MSG.ownLocked,
    });

    expect((await a.get('/api/admin/own-books')).statusCode).toBe(403);
    expect((await a.post(`/api/admin/own-books/${book.catalogId}/approve`)).statusCode).toBe(403);
    const queue = (await as(reviewer).get('/api/admin/own-books')).json<
      Array<{ catalogId: number; owner: string }>
    >();
    expect(queue.find((b) => b.catalogId === book.catalogId)).toMatchObject({ owner: 'ownalice' });
    // The reviewer opens it in the reader; another reader may not.
    expect((await as(reviewer).get(`/api/reader?catalogId=${book.catalogId}`)).statusCode).toBe(200);
    expect((await as(bob).get(`/api/reader?catalogId=${book.catalogId}`)).statusCode).toBe(404);
    expect(
      (await as(reviewer).post(`/api/admin/own-books/${book.catalogId}/refuse`, { reason: '' })).json(),
    ).toMatchObject({ message: MSG.refuseReasonRequired });
    await as(reviewer).post(`/api/admin/own-books/${book.catalogId}/refuse`, { reason: '缺少版權說明' });
    expect((await a.get(`/api/own/books/${book.catalogId}`)).json()).toMatchObject({
      auditStatus: '3',
      refuseReason: '缺少版權說明',
    });

    await a.put(`/api/own/books/${book.catalogId}`, { ...BOOK, title: '王氏宗譜（附版權說明）' });
    await a.post('/api/own/books/submit', { ids: [book.catalogId] });
    expect((await as(reviewer).post(`/api/admin/own-books/${book.catalogId}/approve`)).json()).toMatchObject({
      message: MSG.ownPublished,
    });
    expect((await a.get(`/api/own/books/${book.catalogId}`)).json()).toMatchObject({
      auditStatus: '2',
      refuseReason: null,
    });
    const search = (
      await h.request({ method: 'GET', url: `/api/books?title=${encodeURIComponent('王氏宗谱')}` })
    ).json<{ records: Array<{ catalogId: number }> }>();
    expect(search.records.map((r) => r.catalogId)).toContain(book.catalogId);
    expect((await h.request({ method: 'GET', url: `/api/books/${book.catalogId}` })).statusCode).toBe(200);

    await as(reviewer).post(`/api/admin/own-books/${book.catalogId}/withdraw`, {
      reason: '讀者投訴，暫停公開',
    });
    expect((await h.request({ method: 'GET', url: `/api/books/${book.catalogId}` })).statusCode).toBe(404);
    expect((await a.get(`/api/own/books/${book.catalogId}`)).json()).toMatchObject({
      auditStatus: '3',
      refuseReason: '讀者投訴，暫停公開',
    });
  });

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

  it('quotas: an upload past the page or storage quota is refused with a clear message and changes nothing', async () => {
    const a = as(alice);
    const book = (await a.post('/api/own/books', { ...BOOK, title: '配額' })).json<{ catalogId: number }>();
    await a.post(`/api/own/books/${book.catalogId}/volumes`, { name: '卷一' });
    const [volume] = (await a.get(`/api/own/books/${book.catalogId}/volumes`)).json<
      Array<{ fascicleId: number }>
    >();
    const url = `/api/own/volumes/${volume!.fascicleId}/zip`;
    const zip = makeZip({ '1.png': await pageImage(1), '2.png': await pageImage(2) });
    const settings = h.context.services.settings;
    const used = await h.context.database.db
      .selectFrom('pages')
      .innerJoin('books', 'books.id', 'pages.book_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('books.owner_id', 'is not', null)
      .executeTakeFirstOrThrow();
    await settings.update({ ownQuotaPages: Number(used.n) + 1 });
    expect((await a.upload(url, 'p.zip', zip)).json()).toMatchObject({
      message: MSG.ownQuotaPages.replace('{n}', String(Number(used.n) + 1)),
    });
    await settings.update({ ownQuotaPages: 2000, ownQuotaMb: 0 });
    expect((await a.upload(url, 'p.zip', zip)).json()).toMatchObject({
      message: MSG.ownQuotaBytes.replace('{n}', '0'),
    });
    expect((await a.get(`/api/own/books/${book.catalogId}/volumes`)).json()).toMatchObject([
      { imageCount: 0 },
    ]);
    await settings.update({ ownQuotaMb: 1024 });
    expect((await a.upload(url, 'p.zip', zip)).json()).toMatchObject({ added: 2 });
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
});
