import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { makeBook, makeReader, makeStaff, type MadeUser } from '../../test/factories.ts';
import { createHttpHarness, multipartFile, type HttpHarness } from '../../test/http.ts';
import { pageImage } from '../../test/catalog-factory.ts';
import { s3Env, startS3Server, type TestS3Server } from '../../test/s3-server.ts';
import { makeZip } from '../../test/zip.ts';

/**
 * Issue 17 part 5: the object store (STORAGE_URL=s3://…) stops answering. Requests that need a file are
 * answered at once with 503 and a clear Chinese message (not a 500 `服务器异常`, not a hang); what was being
 * written is not half kept (no book, the old avatar); once the store is back the same requests succeed,
 * without a restart. A real S3-protocol server, stopped and started again on its port with its files.
 */
describe('an object store that stops answering', () => {
  let server: TestS3Server;
  let h: HttpHarness;
  let reader: MadeUser;
  let admin: MadeUser;
  let pageIds: number[];
  beforeAll(async () => {
    server = await startS3Server();
    h = await createHttpHarness('sqlite', s3Env(server, 'outage'));
    pageIds = (await makeBook(h, { volumes: [2], pageSize: [1200, 900] })).pageIds;
    reader = await makeReader(h, 'outage');
    admin = await makeStaff(h, ['catalogAdmin'], 'outageadmin');
  });
  afterAll(async () => {
    await h.close();
    await server.stop();
  });

  const tile = (pageId: number) =>
    h.request({ method: 'GET', url: `/iiif/3/${pageId}/512,0,512,512/512,/0/default.jpg` });
  const download = (pageId: number) =>
    h.request({ method: 'GET', url: `/api/pages/${pageId}/download.jpg`, cookie: reader.cookie });
  const avatar = async (color: string) => {
    const image = await sharp({ create: { width: 40, height: 40, channels: 3, background: color } })
      .png()
      .toBuffer();
    const { payload, contentType } = multipartFile('file', 'me.png', image, 'image/png');
    return h.request({
      method: 'POST',
      url: '/api/me/avatar',
      cookie: reader.cookie,
      payload,
      headers: { 'content-type': contentType },
    });
  };
  const importZip = async (sourceKey: string) => {
    const zip = makeZip({
      'metadata.json': JSON.stringify({
        sourceKey,
        title: '存儲中斷之書',
        volumes: [{ name: '卷一', images: 'v1' }],
      }),
      'v1/1.png': await pageImage(1),
    });
    const { payload, contentType } = multipartFile('file', 'package.zip', zip, 'application/zip');
    return h.request({
      method: 'POST',
      url: '/api/admin/import',
      cookie: admin.cookie,
      payload,
      headers: { 'content-type': contentType },
    });
  };
  const booksOf = async (sourceKey: string) => await h.context.repos.catalog.findBookBySourceKey(sourceKey);
  const expectUnavailable = (response: Awaited<ReturnType<typeof tile>>) => {
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json()).toEqual({ code: 'STORAGE_UNAVAILABLE', message: MSG.storageUnavailable });
    expect(response.headers['retry-after']).toBe('5');
  };

  it('answers 503 with a clear message while it is down, keeps nothing half-written, and recovers', async () => {
    const before = await avatar('#884422');
    expect(before.statusCode, before.body).toBe(200);
    const avatarUrl = before.json<{ avatarUrl: string }>().avatarUrl;

    await server.pause();
    const started = Date.now();
    expectUnavailable(await tile(pageIds[0]!));
    expectUnavailable(await download(pageIds[1]!));
    expectUnavailable(await avatar('#224488'));
    expectUnavailable(await importZip('outage:during'));
    // Fast, not hanging on a store that refuses connections (the SDK's three attempts included).
    expect(Date.now() - started).toBeLessThan(10_000);
    // Nothing of the failed writes is kept: no book, the reader's avatar is the one from before.
    expect(await booksOf('outage:during')).toBeUndefined();
    const me = await h.request({ method: 'GET', url: '/api/me', cookie: reader.cookie });
    expect(me.json<{ avatarUrl: string }>().avatarUrl).toBe(avatarUrl);
    // The process itself stays live (only readiness says the store is gone).
    expect((await h.request({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);

    await server.resume();
    expect((await tile(pageIds[0]!)).statusCode).toBe(200);
    expect((await download(pageIds[1]!)).statusCode).toBe(200);
    expect((await avatar('#224488')).statusCode).toBe(200);
    const imported = await importZip('outage:during');
    expect(imported.statusCode, imported.body).toBe(200);
    expect(await booksOf('outage:during')).toBeDefined();
    expect((await h.request({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
  });
});
