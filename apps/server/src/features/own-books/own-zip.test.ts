import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { pageImage } from '../../../test/catalog-factory.ts';
import { createHttpHarness, multipartFile, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { deflatedZeros, makeZip } from '../../../test/zip.ts';
import { UPLOADS_PER_USER } from './upload-gate.ts';
import { makeReader } from '../../../test/factories.ts';

const MB = 1024 ** 2;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

/**
 * Issue 13 item 5: a zip bomb is checked while it is inflated, entry by entry, never inflated into
 * memory; one user's concurrent uploads are limited.
 */
describe.each(DIALECTS)('zip bombs and concurrent uploads of own volumes on %s', (dialect) => {
  let h: HttpHarness;
  let owner: string;
  let ownerLogin = '';
  let ownerId: number;

  const upload = (cookie: string, url: string, name: string, data: Buffer) => {
    const form = multipartFile('file', name, data, 'application/zip');
    return h.request({
      method: 'POST',
      url,
      cookie,
      headers: { 'content-type': form.contentType },
      payload: form.payload,
    });
  };
  async function newVolume(title: string): Promise<string> {
    const book = (
      await h.request({
        method: 'POST',
        url: '/api/own/books',
        cookie: owner,
        body: { title, actualVolume: 1, author: '佚名', publishDynasty: '清', editionType: '抄本' },
      })
    ).json<{ catalogId: number }>();
    await h.request({
      method: 'POST',
      url: `/api/own/books/${book.catalogId}/volumes`,
      cookie: owner,
      body: { name: '卷一' },
    });
    const [volume] = (
      await h.request({ method: 'GET', url: `/api/own/books/${book.catalogId}/volumes`, cookie: owner })
    ).json<Array<{ fascicleId: number }>>();
    return `/api/own/volumes/${volume!.fascicleId}`;
  }
  const imageCount = async (volumeUrl: string) =>
    (await h.request({ method: 'GET', url: `${volumeUrl}/pages`, cookie: owner })).json<unknown[]>().length;

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    ({ cookie: owner, loginName: ownerLogin } = await makeReader(h, 'zipowner'));
    const row = await h.context.database.db
      .selectFrom('users')
      .select('id')
      .where('login_name', '=', ownerLogin)
      .executeTakeFirstOrThrow();
    ownerId = row.id;
  });
  afterAll(async () => h.close());

  it('refuses a 510 KB zip of 5 × 100 MB of zeros named .png by name, without inflating it into memory', async () => {
    const volume = await newVolume('壓縮炸彈');
    const zeros = await deflatedZeros(100);
    const names = ['1.png', '2.png', '3.png', '4.png', '5.png'];
    const bomb = makeZip(Object.fromEntries(names.map((n) => [n, zeros.data])), {
      deflated: Object.fromEntries(names.map((n) => [n, zeros])),
    });
    expect(bomb.length).toBeLessThan(600 * 1024);

    const before = process.memoryUsage().rss;
    const response = await upload(owner, `${volume}/zip`, 'bomb.zip', bomb);
    const growth = process.memoryUsage().rss - before;
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(
      'bomb.zip：1.png 不是 JPEG、PNG 或 TIFF 图像，已拒绝',
    );
    // A coarse memory bound (the old code grew by the inflated 500 MB): nothing was inflated into memory.
    expect(growth).toBeLessThan(200 * MB);
    expect(await imageCount(volume)).toBe(0);
  });

  it('stops an entry as soon as it inflates past the limits, whatever size it declares', async () => {
    const volume = await newVolume('壓縮炸彈二');
    // A PNG signature, then 150 MB of zeros: passes the type check, then inflates 1000 : 1.
    const zeros = await deflatedZeros(150, PNG_SIGNATURE);
    const honest = makeZip({ 'page.png': zeros.data }, { deflated: { 'page.png': zeros } });
    const lying = makeZip({ 'page.png': zeros.data }, { deflated: { 'page.png': { ...zeros, size: 4096 } } });
    const underLimit = await deflatedZeros(90, PNG_SIGNATURE);
    const ratio = makeZip({ 'page.png': underLimit.data }, { deflated: { 'page.png': underLimit } });

    const before = process.memoryUsage().rss;
    const refusals: Array<[string, Buffer, RegExp]> = [
      ['declares 150 MB', honest, /page\.png 过大/],
      ['declares 4 KB, inflates 150 MB', lying, /page\.png (过大|已损坏)/],
      ['declares 90 MB of zeros', ratio, /page\.png 解压后是压缩时的 200 倍以上/],
    ];
    for (const [what, zip, message] of refusals) {
      const response = await upload(owner, `${volume}/zip`, 'p.zip', zip);
      expect(response.statusCode, what).toBe(400);
      expect(response.json<{ message: string }>().message, what).toMatch(message);
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * MB);
    expect(await imageCount(volume)).toBe(0);
    // A good zip still goes in.
    const good = await upload(owner, `${volume}/zip`, 'p.zip', makeZip({ '1.png': await pageImage(1) }));
    expect(good.json()).toMatchObject({ added: 1 });
  });

  it(`lets one user have ${UPLOADS_PER_USER} uploads in progress; one more gets 429 with a clear message`, async () => {
    const volume = await newVolume('並發上傳');
    const form = multipartFile('file', 'p.zip', makeZip({ '1.png': await pageImage(1) }), 'application/zip');
    const cut = form.payload.length - 200;
    /** An upload whose body arrives in two parts: it stays in progress until `finish` is called. */
    const slowUpload = () => {
      const body = new PassThrough();
      body.write(form.payload.subarray(0, cut));
      const response = h.app.inject({
        method: 'POST',
        url: `${volume}/zip`,
        headers: { cookie: owner, 'content-type': form.contentType },
        payload: body,
      });
      return { response, finish: () => body.end(form.payload.subarray(cut)) };
    };
    const held = Array.from({ length: UPLOADS_PER_USER }, slowUpload);
    while ((await h.context.services.uploads.inProgress(ownerId)) < UPLOADS_PER_USER)
      await new Promise((resolve) => setImmediate(resolve));

    const refused = await upload(owner, `${volume}/zip`, 'p.zip', makeZip({ '2.png': await pageImage(2) }));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ message: MSG.uploadBusy });
    // Single images and page images count too.
    const single = multipartFile('file', 'a.png', await pageImage(3), 'image/png');
    const singles = await h.request({
      method: 'POST',
      url: '/api/own/singles',
      cookie: owner,
      headers: { 'content-type': single.contentType },
      payload: single.payload,
    });
    expect(singles.statusCode).toBe(429);

    for (const upload of held) upload.finish();
    for (const upload of held) expect((await upload.response).json()).toMatchObject({ added: 1 });
    expect(await h.context.services.uploads.inProgress(ownerId)).toBe(0);
    // The slots are free again.
    expect(
      (await upload(owner, `${volume}/zip`, 'p.zip', makeZip({ '3.png': await pageImage(3) }))).statusCode,
    ).toBe(200);
    expect(await imageCount(volume)).toBe(UPLOADS_PER_USER + 1);
  });
});
