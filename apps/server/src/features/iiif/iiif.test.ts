import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { createBook } from '../../../test/catalog-factory.ts';
import { makeReader } from '../../../test/factories.ts';
import { buildApp } from '../../app.ts';

const OUTSIDE = '203.0.113.9';
const READING_ROOM = '10.8.0.5';

describe.each(DIALECTS)('IIIF over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  let open: Awaited<ReturnType<typeof createBook>>;
  let closed: Awaited<ReturnType<typeof createBook>>;
  let readerCookie: string;
  beforeAll(async () => {
    h = await createHttpHarness(dialect, { READING_ROOM_CIDRS: '10.8.0.0/16' });
    open = await createBook(h.context, { volumes: [3, 2], title: '論語', pageSize: [1200, 800] });
    closed = await createBook(h.context, { volumes: [2], title: '孟子', isOpen: false });
    readerCookie = (await makeReader(h, 'iiifreader')).cookie;
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

  it('describes an image in info.json', async () => {
    const id = open.pageIds[0]!;
    const response = await get(`/iiif/3/${id}/info.json`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/ld+json');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const info = response.json<Record<string, unknown>>();
    expect(info).toMatchObject({
      '@context': 'http://iiif.io/api/image/3/context.json',
      id: `http://localhost:80/iiif/3/${id}`,
      type: 'ImageService3',
      protocol: 'http://iiif.io/api/image',
      profile: 'level2',
      width: 1200,
      height: 800,
    });
    expect(info.tiles).toEqual([{ width: 512, height: 512, scaleFactors: [1, 2, 4, 8, 16] }]);
  });

  it('redirects the base URI to info.json', async () => {
    const response = await get(`/iiif/3/${open.pageIds[0]}`);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/iiif/3/${open.pageIds[0]}/info.json`);
  });

  it('serves every region, size, rotation, quality and format form with the right pixel size', async () => {
    const id = open.pageIds[0]!;
    const cases: Array<[string, number, number, string]> = [
      ['full/max/0/default.jpg', 1200, 800, 'jpeg'],
      ['square/max/0/default.jpg', 800, 800, 'jpeg'],
      ['100,100,512,512/max/0/default.jpg', 512, 512, 'jpeg'],
      ['pct:50,50,50,50/max/0/default.png', 600, 400, 'png'],
      ['full/300,/0/default.jpg', 300, 200, 'jpeg'],
      ['full/,200/0/default.jpg', 300, 200, 'jpeg'],
      ['full/pct:25/0/default.jpg', 300, 200, 'jpeg'],
      ['full/300,300/0/default.jpg', 300, 300, 'jpeg'],
      ['full/!300,300/0/default.jpg', 300, 200, 'jpeg'],
      ['0,0,100,100/^!300,300/0/default.jpg', 300, 300, 'jpeg'],
      // ^max scales to the maxArea info.json advertises: the larger of the page's area and 4 Mpx.
      ['0,0,100,100/^max/0/default.webp', 2000, 2000, 'webp'],
      ['0,0,100,50/^200,/0/default.jpg', 200, 100, 'jpeg'],
      ['full/300,/90/default.jpg', 200, 300, 'jpeg'],
      ['full/300,/!180/gray.png', 300, 200, 'png'],
      ['full/300,/0/bitonal.png', 300, 200, 'png'],
      ['full/300,/0/color.webp', 300, 200, 'webp'],
    ];
    for (const [path, width, height, format] of cases) {
      const response = await get(`/iiif/3/${id}/${path}`);
      expect(response.statusCode, path).toBe(200);
      const meta = await sharp(response.rawPayload).metadata();
      expect([meta.width, meta.height, meta.format], path).toEqual([width, height, format]);
    }
    const gray = await sharp((await get(`/iiif/3/${id}/full/300,/0/gray.png`)).rawPayload).stats();
    expect(gray.isOpaque).toBe(true);
  }, 60_000);

  it('mirrors before rotating, as the specification orders', async () => {
    const id = open.pageIds[1]!;
    const plain = await sharp((await get(`/iiif/3/${id}/full/120,/0/default.png`)).rawPayload)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const mirrored = await sharp((await get(`/iiif/3/${id}/full/120,/!0/default.png`)).rawPayload)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const px = (img: typeof plain, x: number, y: number) =>
      img.data[(y * img.info.width + x) * img.info.channels]!;
    expect(px(mirrored, 119 - 10, 40)).toBe(px(plain, 10, 40));
  });

  it('answers malformed requests with 400 and a clear message, unknown images with 404', async () => {
    const id = open.pageIds[0]!;
    const bad: Array<[string, RegExp]> = [
      ['full/max/0/default.gif', /不支持的图像格式/],
      ['full/max/0/fancy.jpg', /不支持的图像质量/],
      ['nonsense/max/0/default.jpg', /区域参数无效/],
      ['full/huge/0/default.jpg', /尺寸参数无效/],
      ['full/max/400/default.jpg', /旋转参数无效/],
      ['full/2000,/0/default.jpg', /\^/],
      ['5000,5000,10,10/max/0/default.jpg', /图像之外/],
    ];
    for (const [path, message] of bad) {
      const response = await get(`/iiif/3/${id}/${path}`);
      expect(response.statusCode, path).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(message);
    }
    expect((await get('/iiif/3/999999/full/max/0/default.jpg')).statusCode).toBe(404);
    expect((await get('/iiif/3/999999/info.json')).statusCode).toBe(404);
  });

  it('answers a repeated request from its cache with the same ETag, and 304 when the client has it', async () => {
    const url = `/iiif/3/${open.pageIds[0]}/0,0,512,512/256,/0/default.jpg`;
    const first = await get(url);
    const second = await get(url);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect((await get(url, { headers: { 'if-none-match': String(first.headers.etag) } })).statusCode).toBe(
      304,
    );
  });

  it('sends the tiles info.json advertises straight from the pyramid as decodable JPEGs', async () => {
    // 1200×800: the tile at (512, 512) is whole in width and holds the last 288 rows; the right edge's
    // are 176 wide; at scale factor 16 the whole page is one 75×50 tile.
    for (const [region, size, source, w, h] of [
      ['0,0,512,512', '512,', 'tile', 512, 512],
      ['512,512,512,288', '512,', 'tile', 512, 288],
      ['1024,0,176,512', '176,', 'tile', 176, 512],
      ['1024,512,176,288', '176,', 'tile', 176, 288],
      ['0,0,1024,800', '512,', 'tile', 512, 400],
      ['full', '75,', 'tile', 75, 50],
    ] as const) {
      const response = await get(`/iiif/3/${open.pageIds[0]}/${region}/${size}/0/default.jpg`);
      expect(response.statusCode, region).toBe(200);
      expect(response.headers['content-type']).toBe('image/jpeg');
      expect(response.headers['x-image-source'], region).toBe(source);
      const meta = await sharp(response.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height], region).toEqual(['jpeg', w, h]);
    }
  });

  it('refuses a restricted book’s tiles and info to visitors and to readers outside the reading room', async () => {
    const id = closed.pageIds[1]!;
    for (const path of [
      `/iiif/3/${id}/info.json`,
      `/iiif/3/${id}/0,0,256,256/max/0/default.jpg`,
      `/iiif/3/${id}/full/max/0/default.jpg`,
    ]) {
      const visitor = await get(path);
      expect(visitor.statusCode, path).toBe(401);
      expect(visitor.headers['access-control-allow-origin']).toBeUndefined();
      const reader = await get(path, { cookie: readerCookie });
      expect(reader.statusCode, path).toBe(403);
      expect(reader.json()).toMatchObject({
        code: 'READING_ROOM_ONLY',
        message: '温馨提示：请到阅览室浏览！',
      });
      const inRoom = await get(path, { cookie: readerCookie, remoteAddress: READING_ROOM });
      expect(inRoom.statusCode, path).toBe(200);
      expect(inRoom.headers['cache-control']).toContain('private');
    }
  });

  it('still shows a restricted book’s cover as a small thumbnail, but nothing larger', async () => {
    const cover = closed.pageIds[0]!;
    expect((await get(`/iiif/3/${cover}/full/!240,240/0/default.jpg`)).statusCode).toBe(200);
    expect((await get(`/iiif/3/${cover}/full/600,/0/default.jpg`)).statusCode).toBe(401);
    expect((await get(`/iiif/3/${closed.pageIds[1]}/full/!240,240/0/default.jpg`)).statusCode).toBe(401);
  });

  it('lets a reader with a privilege, and catalogue staff, have the restricted tiles', async () => {
    // A reader of this test's own: the other tests need iiifreader without the privilege.
    const { cookie: privileged, loginName: privilegedLogin } = await makeReader(h, 'iiifprivileged');
    const user = await h.context.repos.users.findByLoginName(privilegedLogin);
    const now = h.clock.now();
    await h.context.repos.catalog.grantPrivilege(
      user!.id,
      closed.bookId,
      new Date(now.getTime() - 1000).toISOString(),
      new Date(now.getTime() + 86_400_000).toISOString(),
    );
    expect((await get(`/iiif/3/${closed.pageIds[1]}/info.json`, { cookie: privileged })).statusCode).toBe(
      200,
    );
    await h.context.services.auth.upsertAccount({
      loginName: 'iiifstaff',
      password: GOOD_PASSWORD,
      roles: ['reader', 'catalogAdmin'],
    });
    const staff = (await h.login('iiifstaff', GOOD_PASSWORD)).cookie;
    expect((await get(`/iiif/3/${closed.pageIds[1]}/info.json`, { cookie: staff })).statusCode).toBe(200);
  });

  it('builds a right-to-left paged Manifest per volume with ranges from the directory', async () => {
    const response = await get(`/iiif/presentation/volumes/${open.volumeIds[0]}/manifest.json`);
    expect(response.statusCode).toBe(200);
    const manifest = response.json<
      Record<string, unknown> & {
        items: Array<Record<string, unknown>>;
        structures: Array<{ items: unknown[] }>;
      }
    >();
    expect(manifest).toMatchObject({
      '@context': 'http://iiif.io/api/presentation/3/context.json',
      type: 'Manifest',
      viewingDirection: 'right-to-left',
      behavior: ['paged'],
      label: { zh: ['論語 卷一'] },
    });
    expect(manifest.items).toHaveLength(3);
    expect(manifest.items[0]).toMatchObject({ type: 'Canvas', width: 1200, height: 800 });
    const body = (
      manifest.items[0] as {
        items: Array<{ items: Array<{ body: { service: Array<{ id: string; type: string }> } }> }>;
      }
    ).items[0]!.items[0]!.body;
    expect(body.service[0]).toMatchObject({
      type: 'ImageService3',
      id: expect.stringMatching(new RegExp(`/iiif/3/${open.pageIds[0]}$`)) as unknown,
    });
    expect(manifest.structures).toHaveLength(2);
    expect(manifest.structures[0]!.items).toHaveLength(1);
    expect(manifest.structures[1]!.items).toHaveLength(2);
    expect(manifest.partOf).toEqual([
      {
        id: expect.stringContaining(`/iiif/presentation/books/${open.bookId}/collection.json`) as unknown,
        type: 'Collection',
      },
    ]);
  });

  it('logs image requests at IMAGE_LOG_LEVEL (warn by default) and the rest at LOG_LEVEL', async () => {
    const logOf = async (imageLogLevel: 'warn' | 'info') => {
      const lines: string[] = [];
      const config = { ...h.context.config, logLevel: 'info', imageLogLevel };
      const app = await buildApp(
        { ...h.context, config },
        { logStream: { write: (line) => lines.push(line) } },
      );
      try {
        const tile = await app.inject({ url: `/iiif/3/${open.pageIds[0]}/0,0,512,512/512,/0/default.jpg` });
        expect(tile.statusCode).toBe(200);
        await app.inject({ url: `/iiif/3/${open.pageIds[0]}/info.json` });
      } finally {
        await app.close();
      }
      return lines.join('');
    };
    const quiet = await logOf('warn');
    expect(quiet).not.toContain('/0,0,512,512/');
    expect(quiet).toContain('/info.json');
    expect(await logOf('info')).toContain('/0,0,512,512/');
  });

  it('gives a multi-volume book a Collection and lists only public books at the top', async () => {
    const collection = await get(`/iiif/presentation/books/${open.bookId}/collection.json`);
    expect(collection.json<{ type: string; items: unknown[] }>()).toMatchObject({ type: 'Collection' });
    expect(collection.json<{ items: unknown[] }>().items).toHaveLength(2);
    const top = (await get('/iiif/collection/top')).json<{ items: Array<{ label: { zh: string[] } }> }>();
    const titles = top.items.map((item) => item.label.zh[0]);
    expect(titles).toContain('論語');
    expect(titles).not.toContain('孟子');
  });

  it('gives a restricted book’s manifest and collection as metadata only, naming the IIIF Auth services', async () => {
    // Issue 18: the catalogue shows the book, so its manifest is metadata anyone may read; images stay refused.
    const manifest = await get(`/iiif/presentation/volumes/${closed.volumeIds[0]}/manifest.json`);
    expect(manifest.statusCode).toBe(200);
    expect(manifest.body).toContain('http://iiif.io/api/auth/1/login');
    const collection = await get(`/iiif/presentation/books/${closed.bookId}/collection.json`, {
      cookie: await freshReader(),
    });
    expect(collection.statusCode).toBe(200);
  });

  let n = 0;
  async function freshReader(): Promise<string> {
    const name = `fresh${n++}`;
    await h.register({ loginName: name, phone: `1340000100${n}` });
    return (await h.login(name, GOOD_PASSWORD)).cookie;
  }
});
