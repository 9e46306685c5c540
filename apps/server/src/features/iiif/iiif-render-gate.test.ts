import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBook } from '../../../test/catalog-factory.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';

/** Issue 13 item A: the IIIF renders one process runs at once are bounded; tiles and cache hits never wait. */
describe.each(DIALECTS)('IIIF renders bounded per process (item A) on %s', (dialect) => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await createHttpHarness(dialect, { IIIF_RENDER_CONCURRENCY: '2', IIIF_RENDER_QUEUE: '2' });
  });
  afterAll(async () => h.close());

  const get = (url: string, remoteAddress = '203.0.113.60') =>
    h.request({ method: 'GET', url, remoteAddress });
  /** Lets the server's pending work run until `done` holds (no clock: the test's timeout bounds it). */
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise((resolve) => setImmediate(resolve));
  };
  /** A page of the test's own (1200×800, its pyramid made), that nothing has rendered yet. */
  const newPage = async () =>
    (await createBook(h.context, { volumes: [1], pageSize: [1200, 800] })).pageIds[0]!;

  it('serves stored tiles and cache hits while renders fill the gate, queues a few, refuses more with 503', async () => {
    const id = await newPage();
    // A size info.json lists, as PNG: rendered once, then from the cache.
    const listed = `/iiif/3/${id}/full/300,200/0/default.png`;
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
    const id = await newPage();
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
