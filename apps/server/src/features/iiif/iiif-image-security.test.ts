import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBook } from '../../../test/catalog-factory.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { makeReader } from '../../../test/factories.ts';

/**
 * Issue 13 items 2, 3, 19, 20 and A: the IIIF image requests probed from outside (who may have which
 * part of a page, at what size, how often). Each test sends the request the probe sent (or its shape)
 * and asserts the safe answer. The documents are in iiif-security.test.ts, the render gate in
 * iiif-render-gate.test.ts.
 */
const OUTSIDE = '203.0.113.9';
const READING_ROOM = '10.8.0.5';
const RENDER_LIMIT = 4;

/** The bytes of every file under a folder. */
function bytesUnder(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => fs.statSync(path.join(dir, name)))
    .filter((stats) => stats.isFile())
    .reduce((sum, stats) => sum + stats.size, 0);
}

describe.each(DIALECTS)('IIIF image requests hardened on %s', (dialect) => {
  let h: HttpHarness;
  let open: Awaited<ReturnType<typeof createBook>>;
  let closed: Awaited<ReturnType<typeof createBook>>;
  let reader: string;
  beforeAll(async () => {
    h = await createHttpHarness(dialect, {
      READING_ROOM_CIDRS: '10.8.0.0/16',
      IIIF_RENDER_RATE_LIMIT_PER_MINUTE: String(RENDER_LIMIT),
    });
    open = await createBook(h.context, { title: '論語', volumes: [2], pageSize: [1200, 800] });
    // A restricted book whose first page is 1400×2000, as the probed one.
    closed = await createBook(h.context, {
      title: '孟子',
      volumes: [2],
      isOpen: false,
      pageSize: [1400, 2000],
    });
    reader = (await makeReader(h, 'iiifimg')).cookie;
  });
  afterAll(async () => h.close());

  const get = (
    url: string,
    extra: { cookie?: string; remoteAddress?: string; headers?: Record<string, string> } = {},
  ) =>
    h.request({
      method: 'GET',
      url,
      remoteAddress: extra.remoteAddress ?? OUTSIDE,
      ...(extra.cookie ? { cookie: extra.cookie } : {}),
      ...(extra.headers ? { headers: extra.headers } : {}),
    });
  const cacheDir = () => path.join(h.context.config.dataDir, 'cache', 'iiif');

  it('2: gives a restricted book’s cover as its one thumbnail and no other part of the page', async () => {
    const cover = closed.pageIds[0]!;
    const thumbnail = await get(`/iiif/3/${cover}/full/!240,240/0/default.jpg`);
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['access-control-allow-origin']).toBe('*');
    for (const shape of [
      '600,900,300,300/max/0/default.png',
      '0,0,300,300/max/0/default.jpg',
      'full/!300,300/0/default.jpg',
      'full/!240,240/0/default.png',
      'full/!240,240/0/gray.jpg',
      'full/!240,240/90/default.jpg',
      'full/!240,240/!0/default.jpg',
      'square/!240,240/0/default.jpg',
      'pct:0,0,50,50/!240,240/0/default.jpg',
      'full/pct:5/0/default.jpg',
    ]) {
      const response = await get(`/iiif/3/${cover}/${shape}`);
      expect(response.statusCode, shape).toBe(401);
      expect(response.headers['access-control-allow-origin'], shape).toBeUndefined();
    }
    // Only the first page is a cover.
    expect((await get(`/iiif/3/${closed.pageIds[1]}/full/!240,240/0/default.jpg`)).statusCode).toBe(401);
  });

  it('3: refuses large upscaled or freely rotated renders to visitors and keeps none of them', async () => {
    const id = open.pageIds[1]!;
    await h.context.iiifImages.cache.idle();
    const before = bytesUnder(cacheDir());
    for (let i = 0; i < 20; i++) {
      const response = await get(`/iiif/3/${id}/full/^pct:300/10.${String(i).padStart(3, '0')}/default.png`, {
        remoteAddress: '203.0.113.30',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(/未登录时放大/);
    }
    // Within the cap a visitor gets them, rendered for the one request and not kept.
    const small = await get(`/iiif/3/${id}/0,0,300,200/^360,/10.5/default.png`, {
      remoteAddress: '203.0.113.31',
    });
    expect(small.statusCode).toBe(200);
    expect(small.headers['x-image-source']).toBe('render');
    await h.context.iiifImages.cache.idle();
    expect(bytesUnder(cacheDir())).toBe(before);
  });

  it('3: keeps the tiles and listed sizes viewers ask for, and answers them again from the cache', async () => {
    // A page of its own, so that nothing else has rendered these shapes of it yet.
    const book = await createBook(h.context, { volumes: [1], pageSize: [1200, 800] });
    const id = book.pageIds[0]!;
    // 1200×800: a right-edge tile and a size info.json lists, in a quality and a format the pyramid does
    // not hold (as stored JPEGs they are sent from the pyramid and need no keeping).
    for (const shape of ['1024,0,176,512/176,/0/gray.jpg', 'full/300,200/0/default.png']) {
      expect((await get(`/iiif/3/${id}/${shape}`)).headers['x-image-source'], shape).toBe('render');
      await h.context.iiifImages.cache.idle();
      expect((await get(`/iiif/3/${id}/${shape}`)).headers['x-image-source'], shape).toBe('cache');
    }
  });

  it('3: limits render-heavy requests per client while tiles keep coming', async () => {
    const id = open.pageIds[0]!;
    const client = '203.0.113.40';
    // Not a tile and not a listed size: each one is rendered for its asker.
    const heavy = (n: number) =>
      get(`/iiif/3/${id}/full/${900 + n},/0/default.jpg`, { remoteAddress: client });
    for (let n = 0; n < RENDER_LIMIT; n++) expect((await heavy(n)).statusCode).toBe(200);
    const refused = await heavy(RENDER_LIMIT);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json<{ message: string }>().message).toMatch(/过于频繁/);
    // The same client still gets tiles and small renders; another client its own budget.
    expect(
      (await get(`/iiif/3/${id}/0,0,512,512/512,/0/default.jpg`, { remoteAddress: client })).statusCode,
    ).toBe(200);
    expect((await get(`/iiif/3/${id}/full/120,/0/default.jpg`, { remoteAddress: client })).statusCode).toBe(
      200,
    );
    expect(
      (await get(`/iiif/3/${id}/full/950,/0/default.jpg`, { remoteAddress: '203.0.113.41' })).statusCode,
    ).toBe(200);
  });

  it('A: caps upscaled or freely rotated output for signed-in readers too, and ^max keeps to info.json', async () => {
    const id = open.pageIds[1]!;
    // 1200×800 at 400 % turned 10.5°: about 21 Mpx, over a reader's 16 Mpx.
    const big = await get(`/iiif/3/${id}/full/^pct:400/10.5/default.png`, {
      cookie: reader,
      remoteAddress: '203.0.113.50',
    });
    expect(big.statusCode).toBe(400);
    expect(big.json<{ message: string }>().message).toMatch(
      /放大（\^）或非 90° 倍数旋转的输出不得超过 16000000 像素/,
    );
    // info.json advertises what anyone may ask for; ^max scales to exactly that, for everyone.
    const info = (await get(`/iiif/3/${id}/info.json`)).json<{ maxArea: number; maxWidth: number }>();
    expect(info.maxArea).toBe(4_000_000);
    for (const client of [
      { remoteAddress: '203.0.113.51' },
      { cookie: reader, remoteAddress: '203.0.113.52' },
    ]) {
      const up = await get(`/iiif/3/${id}/full/^max/0/default.jpg`, client);
      expect(up.statusCode).toBe(200);
      const { width = 0, height = 0 } = await sharp(up.rawPayload).metadata();
      expect(width * height).toBeLessThanOrEqual(info.maxArea);
      expect(width).toBeGreaterThan(1200);
    }
  });

  it('reads no session for a public book’s tiles and info.json, and the reader’s for a restricted one', async () => {
    const resolve = vi.spyOn(h.context.services.sessions, 'resolve');
    try {
      const openId = open.pageIds[0]!;
      for (const url of [`/iiif/3/${openId}/info.json`, `/iiif/3/${openId}/0,0,512,512/512,/0/default.jpg`]) {
        const response = await get(url, { cookie: reader });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['cache-control'], url).toBe('public, max-age=86400');
      }
      expect(resolve).not.toHaveBeenCalled();
      // A restricted book: the session decides (a reader outside the reading room is refused).
      const closedTile = `/iiif/3/${closed.pageIds[0]}/0,0,512,512/512,/0/default.jpg`;
      expect((await get(closedTile, { cookie: reader })).statusCode).toBe(403);
      expect(resolve).toHaveBeenCalledTimes(1);
      expect((await get(closedTile, { cookie: reader, remoteAddress: READING_ROOM })).statusCode).toBe(200);
    } finally {
      resolve.mockRestore();
    }
  });

  it('reads no row for a public page’s tiles once kept, and closes them at once when staff hide the book', async () => {
    const book = await createBook(h.context, { volumes: [1], pageSize: [1200, 800] });
    const tile = `/iiif/3/${book.pageIds[0]}/0,0,512,512/512,/0/default.jpg`;
    const findImagePage = vi.spyOn(h.context.repos.catalog, 'findImagePage');
    try {
      expect((await get(tile)).statusCode).toBe(200);
      expect(findImagePage).toHaveBeenCalledTimes(1);
      expect((await get(`/iiif/3/${book.pageIds[0]}/info.json`)).statusCode).toBe(200);
      expect((await get(tile)).statusCode).toBe(200);
      expect(findImagePage).toHaveBeenCalledTimes(1);
      const staff = { userId: null, roles: ['catalogAdmin' as const], readingRoom: false };
      await h.context.services.catalog.update(book.bookId, { isVisible: false }, staff);
      expect((await get(tile)).statusCode).toBe(404);
      expect(findImagePage).toHaveBeenCalledTimes(2);
    } finally {
      findImagePage.mockRestore();
    }
  });

  it('19: answers 404 for an identifier that names no image, whatever its form', async () => {
    for (const url of [
      '/iiif/3/14e0cea8-e74a-11f1-bff2-02fc00000001/full/max/0/default.jpg',
      '/iiif/3/14e0cea8-e74a-11f1-bff2-02fc00000001/info.json',
      '/iiif/3/14e0cea8-e74a-11f1-bff2-02fc00000001',
      '/iiif/3/[frob]/full/max/0/default.jpg',
      '/iiif/3/a/b/full/max/0/default.jpg',
      '/iiif/3/0/full/max/0/default.jpg',
      '/iiif/3/-5/info.json',
      '/iiif/3/99999999999999999999/info.json',
      '/iiif/3/999999/full/nonsense/0/default.gif',
      '/iiif/presentation/pages/abc/text.json',
    ]) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });

  it('20: checks access before the size and region, so a refused image tells nothing', async () => {
    const id = closed.pageIds[1]!;
    for (const shape of [
      'full/1000,/0/default.jpg',
      'full/1001,/0/default.jpg',
      'full/1401,/0/default.jpg',
      '5000,5000,10,10/max/0/default.jpg',
      'nonsense/max/0/default.gif',
    ]) {
      expect((await get(`/iiif/3/${id}/${shape}`)).statusCode, shape).toBe(401);
      expect((await get(`/iiif/3/${id}/${shape}`, { cookie: reader })).statusCode, shape).toBe(403);
    }
    // Where access is granted, the parameters are judged.
    const inRoom = { cookie: reader, remoteAddress: READING_ROOM };
    expect((await get(`/iiif/3/${id}/full/1401,/0/default.jpg`, inRoom)).statusCode).toBe(400);
  });
});
