import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageImage } from '../../../test/catalog-factory.ts';
import { createHttpHarness, multipartFiles, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { oneBitPng } from '../../../test/images.ts';
import { makeReader } from '../../../test/factories.ts';

/** Issue 13 item 6: a pixel bomb is refused by its header; recognition runs off the request thread. */
describe.each(DIALECTS)('pixel bombs and OCR off the event loop on %s', (dialect) => {
  let h: HttpHarness;
  let reader: string;
  beforeAll(async () => {
    // The real engine (in its thread): no stand-in, so the test sees where recognition runs.
    h = await createHttpHarness(dialect, { OCR_ON_INGEST: 'true' });
    reader = (await makeReader(h, 'pixelreader')).cookie;
  });
  afterAll(async () => h.close());

  const uploadSingle = (name: string, data: Buffer, cookie = reader) => {
    const form = multipartFiles('file', [[name, data]]);
    return h.request({
      method: 'POST',
      url: '/api/own/singles',
      cookie,
      headers: { 'content-type': form.contentType },
      payload: form.payload,
    });
  };

  it('refuses a 14000×14000 1-bit PNG, naming the limit, before anything is stored or queued', async () => {
    // A reader of this test's own, with no single images yet.
    const bomber = (await makeReader(h, 'bombreader')).cookie;
    const queued = (await h.context.repos.jobs.countByStatus()).queued;
    const bomb = oneBitPng(14_000, 14_000);
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({
      width: 14_000,
      height: 14_000,
    });
    const response = await uploadSingle('大圖.png', bomb, bomber);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'INGEST_IMAGE_TOO_LARGE',
      message: '大圖.png：图像为 14000×14000（1.96 亿像素），超过每页 6000 万像素的上限',
    });
    const singles = await h.request({ method: 'GET', url: '/api/own/singles', cookie: bomber });
    expect(singles.json()).toEqual([]);
    expect((await h.context.repos.jobs.countByStatus()).queued).toBe(queued);
  });

  it('answers /api/health while a large page is being recognised', async () => {
    const upload = await uploadSingle('大葉.jpg', await pageImage(3, 3000, 4000, 'jpeg'));
    expect(upload.json()).toMatchObject({ added: 1 });
    const worker = h.context.createWorker(pino({ level: 'silent' }));
    expect(await worker.runOnce()).toBe(true); // the pyramid
    const finished: string[] = [];
    const recognising = worker.runOnce().then((ran) => {
      finished.push('ocr');
      return ran;
    });
    // Wait until the page is with the engine (its job reports progress 10 before the page is sent).
    const singles = await h.request({ method: 'GET', url: '/api/own/singles', cookie: reader });
    const imageId = singles.json<Array<{ imageId: number }>>()[0]!.imageId;
    const job = async () =>
      (await h.context.database.db
        .selectFrom('jobs')
        .select(['progress', 'status'])
        .where('name', '=', 'ocr.page')
        .where('data', '=', JSON.stringify({ pageId: imageId }))
        .executeTakeFirst())!;
    while ((await job()).progress < 10) await new Promise((resolve) => setTimeout(resolve, 5));
    for (let i = 0; i < 3; i++) {
      const health = await h.request({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      finished.push('health');
    }
    expect(await recognising).toBe(true);
    expect(finished).toEqual(['health', 'health', 'health', 'ocr']);
    expect(await job()).toMatchObject({ status: 'succeeded', progress: 100 });
  });
});
