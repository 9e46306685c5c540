import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBook, makePrintOrder, makeReader, makeStaff } from '../../test/factories.ts';
import { createHttpHarness, multipartFile, type HttpHarness } from '../../test/http.ts';
import { ocrFor } from '../../test/catalog-factory.ts';
import { s3Env, startS3Server, type TestS3Server } from '../../test/s3-server.ts';

const keysUnder = async (h: HttpHarness, prefix: string) => {
  const keys: string[] = [];
  for await (const { key } of h.context.storage.list(prefix)) keys.push(key);
  return keys.sort();
};

/**
 * A whole library with STORAGE_URL=s3://… (issue 17 part 1): import, pyramids, OCR, IIIF tiles, downloads,
 * avatars and print PDFs all go through the object store, and DATA_DIR holds none of those files.
 */
describe('a library whose files live in an S3-compatible store', () => {
  let server: TestS3Server;
  let h: HttpHarness;
  const recognised: number[] = [];
  beforeAll(async () => {
    server = await startS3Server();
    h = await createHttpHarness(
      'sqlite',
      { ...s3Env(server, 'library-one'), OCR_ON_INGEST: 'true' },
      {
        ocrEngine: () =>
          Promise.resolve({
            name: 'probe',
            description: 'reads the size of the file it is given',
            // The engine gets a local path: the master fetched from the store into DATA_DIR/tmp.
            recognize: (file: string) => {
              recognised.push(fs.statSync(file).size);
              return Promise.resolve({ ocr: ocrFor('天地玄黃', 1200, 900), warnings: [] });
            },
            close: () => Promise.resolve(),
          }),
      },
    );
  });
  afterAll(async () => {
    await h.close();
    await server.stop();
  });

  it('imports a book into the store, makes its pyramids and OCR there, and serves its tiles', async () => {
    recognised.length = 0;
    const book = await makeBook(h, { volumes: [2], pageSize: [1200, 900] });
    expect(h.context.storage.kind).toBe('s3');
    for (const pageId of book.pageIds) {
      const page = (await h.context.repos.catalog.findPage(pageId))!;
      expect(page.master_key).toMatch(/^masters\/.+\.png$/);
      expect((await h.context.storage.stat(page.master_key))?.size).toBeGreaterThan(1000);
    }
    expect(await keysUnder(h, `pyramids/${book.bookId}/`)).toEqual(
      book.pageIds.map((id) => `pyramids/${book.bookId}/${id}.tif`).sort(),
    );
    expect(recognised).toHaveLength(2);
    expect(recognised.every((size) => size > 1000)).toBe(true);
    // Nothing of the library's files on local disk; the fetched masters are gone from DATA_DIR/tmp.
    const dataDir = h.context.config.dataDir;
    expect(fs.existsSync(path.join(dataDir, 'masters'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'pyramids'))).toBe(false);
    expect(fs.readdirSync(path.join(dataDir, 'tmp'))).toEqual([]);

    const pageId = book.pageIds[1]!;
    const info = await h.request({ method: 'GET', url: `/iiif/3/${pageId}/info.json` });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ width: 1200, height: 900 });
    const url = `/iiif/3/${pageId}/512,0,512,512/512,/0/default.jpg`;
    const tile = await h.request({ method: 'GET', url });
    expect(tile.statusCode).toBe(200);
    expect(tile.headers['content-type']).toBe('image/jpeg');
    expect(await sharp(tile.rawPayload).metadata()).toMatchObject({ width: 512, height: 512 });
    const again = await h.request({ method: 'GET', url });
    expect(again.rawPayload.equals(tile.rawPayload)).toBe(true);
    const scaled = await h.request({ method: 'GET', url: `/iiif/3/${pageId}/full/300,/0/default.jpg` });
    expect((await sharp(scaled.rawPayload).metadata()).width).toBe(300);
  });

  it('stamps downloads from the stored masters and keeps print PDFs and avatars in the store', async () => {
    const book = await makeBook(h, { volumes: [2] });
    const reader = await makeReader(h, 's3reader');
    const jpg = await h.request({
      method: 'GET',
      url: `/api/pages/${book.pageIds[0]}/download.jpg`,
      cookie: reader.cookie,
    });
    expect(jpg.statusCode, jpg.body).toBe(200);
    expect((await sharp(jpg.rawPayload).metadata()).width).toBe(600);

    const { payload, contentType } = multipartFile(
      'file',
      'me.png',
      await sharp({ create: { width: 40, height: 40, channels: 3, background: '#884422' } })
        .png()
        .toBuffer(),
      'image/png',
    );
    const avatar = await h.request({
      method: 'POST',
      url: '/api/me/avatar',
      cookie: reader.cookie,
      payload,
      headers: { 'content-type': contentType },
    });
    expect(avatar.statusCode, avatar.body).toBe(200);
    const avatarUrl = avatar.json<{ avatarUrl: string }>().avatarUrl;
    expect(await keysUnder(h, 'avatars/')).toContain(`avatars/${path.posix.basename(avatarUrl)}`);
    expect((await h.request({ method: 'GET', url: avatarUrl })).statusCode).toBe(200);

    const desk = await makeStaff(h, ['printAdmin'], 's3desk');
    const order = await makePrintOrder(h, reader, book, 1);
    const d = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      h.request({ method, url, body, cookie: desk.cookie });
    const items = (await d('GET', `/api/admin/print/orders/${order.orderNum}/items`)).json<
      Array<{ id: number }>
    >();
    const ids = items.map((i) => i.id);
    expect((await d('POST', '/api/admin/print/items/confirm-payment', { ids })).statusCode).toBe(200);
    const printed = (await d('POST', '/api/admin/print/items/printed', { ids })).json<{ pdfUrl: string }>();
    const pdf = await d('GET', printed.pdfUrl);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await keysUnder(h, 'print/')).toContain(`print/${path.posix.basename(printed.pdfUrl)}`);
  });

  it('removes a replaced book’s masters and pyramids from the store', async () => {
    const first = await makeBook(h, { volumes: [1], sourceKey: 's3:replaced' });
    const firstMasters = (await keysUnder(h, 'masters/s3_replaced-')).length;
    expect(firstMasters).toBe(1);
    const second = await makeBook(h, { volumes: [2], sourceKey: 's3:replaced' });
    expect(await keysUnder(h, `pyramids/${first.bookId}/`)).toEqual([]);
    expect(await keysUnder(h, `pyramids/${second.bookId}/`)).toHaveLength(2);
    expect(await keysUnder(h, 'masters/s3_replaced-')).toHaveLength(2);
  });
});

describe('readiness with an object store', () => {
  it('is ready while the store answers and not ready, with a reason, when it does not', async () => {
    const server = await startS3Server();
    const h = await createHttpHarness('sqlite', s3Env(server, 'probe'));
    try {
      const ready = await h.request({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(200);
      await server.stop();
      const down = await h.request({ method: 'GET', url: '/api/health/ready' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: 'unavailable', reason: '对象存储无法连接' });
      expect((await h.request({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      await h.close();
    }
  });
});
