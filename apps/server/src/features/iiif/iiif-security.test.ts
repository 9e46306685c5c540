import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBook } from '../../../test/catalog-factory.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';

/**
 * Issue 13 items 2, 3, 18–23: the IIIF endpoints probed from outside. Each test sends the request
 * the probe sent (or its shape) and asserts the safe answer.
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

describe.each(DIALECTS)('IIIF hardening (%s)', (dialect) => {
  let h: HttpHarness;
  let open: Awaited<ReturnType<typeof createBook>>;
  let closed: Awaited<ReturnType<typeof createBook>>;
  let reader: string;
  beforeAll(async () => {
    h = await createHttpHarness(dialect, {
      READING_ROOM_CIDRS: '10.8.0.0/16',
      IIIF_RENDER_RATE_LIMIT_PER_MINUTE: String(RENDER_LIMIT),
    });
    open = await createBook(h.context, {
      title: '論語',
      volumes: [2],
      pageSize: [1200, 800],
      texts: [['子曰學而時習之', '有朋自遠方來']],
    });
    // A restricted book whose first page is 1400×2000, as the probed one.
    closed = await createBook(h.context, {
      title: '孟子',
      volumes: [2],
      isOpen: false,
      pageSize: [1400, 2000],
    });
    await h.register({ loginName: 'iiifsec', phone: '13400000077' });
    reader = (await h.login('iiifsec', GOOD_PASSWORD)).cookie;
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
    const id = open.pageIds[0]!;
    // 1200×800: the right-edge tile (cut from a padded one) and a size info.json lists.
    for (const shape of ['1024,0,176,512/176,/0/default.jpg', 'full/300,200/0/default.jpg']) {
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

  it('18: never lets the Host header into publicly cached documents', async () => {
    const evil = { headers: { host: 'evil.example' } };
    const info = await get(`/iiif/3/${open.pageIds[0]}/info.json`, evil);
    expect(info.statusCode).toBe(200);
    expect(info.headers.vary).toMatch(/host/i);
    expect(info.headers['cache-control']).toMatch(/^private/);
    const manifest = await get(`/iiif/presentation/volumes/${open.volumeIds[0]}/manifest.json`, evil);
    expect(manifest.headers.vary).toMatch(/host/i);
    expect(manifest.headers['cache-control']).toMatch(/^private/);
    const top = await get('/iiif/collection/top', evil);
    expect(top.headers['cache-control']).toMatch(/^private/);
    // A loopback host (or one in PUBLIC_HOSTS) is fit for shared caches, keyed by Host.
    const local = await get(`/iiif/3/${open.pageIds[0]}/info.json`);
    expect(local.headers['cache-control']).toMatch(/^public/);
    expect(local.headers.vary).toMatch(/host/i);
  });

  it('18: refuses a malformed Host (400, cached by nobody) on every IIIF document, never using it in ids', async () => {
    const documents = [
      `/iiif/3/${open.pageIds[0]}/info.json`,
      `/iiif/presentation/volumes/${open.volumeIds[0]}/manifest.json`,
      `/iiif/presentation/books/${open.bookId}/collection.json`,
      `/iiif/presentation/pages/${open.pageIds[0]}/text.json`,
      '/iiif/collection/top',
    ];
    for (const host of [
      '127.0.0.1:3391@evil.example',
      'localhost/evil.example',
      '[::1]@evil.example',
      'a b',
    ]) {
      for (const url of documents) {
        const response = await get(url, { headers: { host } });
        expect(response.statusCode, `${host} ${url}`).toBe(400);
        expect(response.json<{ code: string; message: string }>()).toMatchObject({ code: 'BAD_HOST' });
        expect(response.json<{ message: string }>().message).toMatch(/Host 无效/);
        expect(response.body).not.toContain('evil.example');
        expect(response.headers['cache-control'], url).toBe('no-store');
        expect(response.headers['access-control-allow-origin'], url).toBeUndefined();
      }
    }
    // Well-formed loopback hosts, with a port or as an IPv6 literal, are fit for shared caches.
    for (const host of ['127.0.0.1:3391', '[::1]:3391', 'LOCALHOST']) {
      for (const url of documents) {
        const response = await get(url, { headers: { host } });
        expect(response.statusCode, `${host} ${url}`).toBe(200);
        expect(response.body).toContain(`http://${host.toLowerCase()}/iiif/`);
        expect(response.headers['cache-control'], `${host} ${url}`).toMatch(/^public/);
      }
    }
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

  it('21: sends a WWW-Authenticate challenge with every 401', async () => {
    for (const url of [
      `/iiif/3/${closed.pageIds[1]}/info.json`,
      `/iiif/3/${closed.pageIds[1]}/full/max/0/default.jpg`,
      `/iiif/presentation/volumes/${closed.volumeIds[0]}/manifest.json`,
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(401);
      expect(response.headers['www-authenticate'], url).toBe(
        'Cookie realm="guji", form-action="/Login", cookie-name="guji_session"',
      );
    }
  });

  it('22: gives the text layer the Web Annotation context before the Presentation one', async () => {
    const manifest = (await get(`/iiif/presentation/volumes/${open.volumeIds[0]}/manifest.json`)).json<{
      '@context': string;
      items: Array<{ annotations: Array<{ id: string }> }>;
    }>();
    expect(manifest['@context']).toBe('http://iiif.io/api/presentation/3/context.json');
    const page = await get(new URL(manifest.items[0]!.annotations[0]!.id).pathname);
    expect(page.statusCode).toBe(200);
    expect(page.json<{ '@context': unknown; type: string }>()).toMatchObject({
      '@context': ['http://www.w3.org/ns/anno.jsonld', 'http://iiif.io/api/presentation/3/context.json'],
      type: 'AnnotationPage',
    });
  });

  it('23: offers the search service exactly to the clients it answers, and never in a shared cache', async () => {
    const url = `/iiif/presentation/volumes/${open.volumeIds[0]}/manifest.json`;
    const search = `/iiif/search/volumes/${open.volumeIds[0]}?q=${encodeURIComponent('學而')}`;
    const clients = [
      { name: 'visitor outside', remoteAddress: OUTSIDE },
      { name: 'reader outside', remoteAddress: OUTSIDE, cookie: reader },
      { name: 'reader in the reading room', remoteAddress: READING_ROOM, cookie: reader },
    ];
    const offered: string[] = [];
    for (const client of clients) {
      const manifest = await get(url, client);
      const service = manifest.json<{ service?: Array<{ id: string; type: string }> }>().service;
      const answer = await get(search, client);
      expect(service !== undefined, client.name).toBe(answer.statusCode === 200);
      if (service) {
        offered.push(client.name);
        expect(service).toEqual([
          { id: expect.stringMatching(/\/iiif\/search\/volumes\/\d+$/) as unknown, type: 'SearchService2' },
        ]);
        expect(manifest.headers['cache-control'], client.name).toMatch(/^private/);
        expect(manifest.headers.vary, client.name).toMatch(/cookie/i);
      } else {
        expect(manifest.headers['cache-control'], client.name).toMatch(/^public/);
      }
    }
    expect(offered).toContain('reader in the reading room');
    expect(offered).not.toContain('visitor outside');
  });
});

describe('IIIF documents with PUBLIC_ORIGIN configured', () => {
  let h: HttpHarness;
  let book: Awaited<ReturnType<typeof createBook>>;
  beforeAll(async () => {
    h = await createHttpHarness('sqlite', { PUBLIC_ORIGIN: 'https://guji.example.org/' });
    book = await createBook(h.context, { volumes: [1] });
  });
  afterAll(async () => h.close());

  it('18: takes every id from the configured origin, whatever the Host header says', async () => {
    for (const url of [
      `/iiif/3/${book.pageIds[0]}/info.json`,
      `/iiif/presentation/volumes/${book.volumeIds[0]}/manifest.json`,
      '/iiif/collection/top',
    ]) {
      const response = await h.request({ method: 'GET', url, headers: { host: 'evil.example' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).not.toContain('evil.example');
      expect(response.body, url).toContain('https://guji.example.org/iiif/');
      expect(response.headers['cache-control'], url).toMatch(/^public/);
    }
  });
});

describe('IIIF renders bounded per process (item A)', () => {
  let h: HttpHarness;
  let book: Awaited<ReturnType<typeof createBook>>;
  beforeAll(async () => {
    h = await createHttpHarness('sqlite', { IIIF_RENDER_CONCURRENCY: '2', IIIF_RENDER_QUEUE: '2' });
    book = await createBook(h.context, { volumes: [1], pageSize: [1200, 800] });
  });
  afterAll(async () => h.close());

  const get = (url: string, remoteAddress = '203.0.113.60') =>
    h.request({ method: 'GET', url, remoteAddress });
  /** Lets the server's pending work run until `done` holds (no clock: the test's timeout bounds it). */
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise((resolve) => setImmediate(resolve));
  };

  it('serves stored tiles and cache hits while renders fill the gate, queues a few, refuses more with 503', async () => {
    const id = book.pageIds[0]!;
    const listed = `/iiif/3/${id}/full/300,200/0/default.jpg`;
    expect((await get(listed)).headers['x-image-source']).toBe('render');
    await h.context.iiifImages.cache.idle();
    const gate = h.context.iiifImages.gate;
    // Two renders in flight that end only when the test says so.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holders = [gate.run(() => held), gate.run(() => held)];
    expect(gate.load).toEqual({ running: 2, waiting: 0 });

    // Two more renders wait in the queue...
    const order: string[] = [];
    const queued = [701, 702].map((w, i) =>
      get(`/iiif/3/${id}/full/${w},/0/default.png`, `203.0.113.${61 + i}`).then((response) => {
        order.push(`render ${w}`);
        return response;
      }),
    );
    await until(() => gate.load.waiting === 2);
    // ...and the next one is refused at once, with a Chinese message and Retry-After.
    const refused = await get(`/iiif/3/${id}/full/703,/0/default.png`, '203.0.113.63');
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json<{ code: string; message: string }>()).toMatchObject({
      code: 'IIIF_RENDER_BUSY',
      message: expect.stringMatching(/图像渲染繁忙/) as unknown,
    });

    // A stored tile and a cached size never wait behind the renders.
    const tile = await get(`/iiif/3/${id}/0,0,512,512/512,/0/default.jpg`, '203.0.113.64');
    order.push('tile');
    expect(tile.statusCode).toBe(200);
    expect(tile.headers['x-image-source']).toBe('tile');
    const cached = await get(listed, '203.0.113.65');
    order.push('cache');
    expect(cached.headers['x-image-source']).toBe('cache');
    expect(gate.load).toEqual({ running: 2, waiting: 2 });

    release();
    await Promise.all(holders);
    const responses = await Promise.all(queued);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(order.slice(0, 2)).toEqual(['tile', 'cache']);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('runs at most the configured number of real renders at once, the others in turn', async () => {
    const id = book.pageIds[0]!;
    const gate = h.context.iiifImages.gate;
    gate.peak = 0;
    const responses = await Promise.all(
      [0, 1, 2, 3].map((n) => get(`/iiif/3/${id}/full/^pct:150/${n}.5/default.png`, `203.0.113.${70 + n}`)),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(gate.peak).toBeLessThanOrEqual(2);
    expect(gate.peak).toBeGreaterThan(0);
  });
});
