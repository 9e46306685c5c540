import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBook } from '../../../test/catalog-factory.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { makeReader } from '../../../test/factories.ts';

/**
 * Issue 13 items 18, 21–23: the IIIF documents (info.json, manifests, collections, text layers)
 * probed from outside: the Host header, the challenge of a 401, the text layer's context and the
 * search service. Each test sends the request the probe sent (or its shape) and asserts the safe
 * answer. The image requests are in iiif-image-security.test.ts.
 */
const OUTSIDE = '203.0.113.9';
const READING_ROOM = '10.8.0.5';

describe.each(DIALECTS)('IIIF documents hardened on %s', (dialect) => {
  let h: HttpHarness;
  let open: Awaited<ReturnType<typeof createBook>>;
  let closed: Awaited<ReturnType<typeof createBook>>;
  let reader: string;
  beforeAll(async () => {
    h = await createHttpHarness(dialect, { READING_ROOM_CIDRS: '10.8.0.0/16' });
    open = await createBook(h.context, {
      title: '論語',
      volumes: [2],
      pageSize: [1200, 800],
      texts: [['子曰學而時習之', '有朋自遠方來']],
    });
    closed = await createBook(h.context, { title: '孟子', volumes: [2], isOpen: false });
    reader = (await makeReader(h, 'iiifsec')).cookie;
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

  it('21: sends a WWW-Authenticate challenge with every 401', async () => {
    for (const url of [
      `/iiif/3/${closed.pageIds[1]}/info.json`,
      `/iiif/3/${closed.pageIds[1]}/full/max/0/default.jpg`,
      // (A restricted book's manifest is metadata anyone may read since issue 18: its text layer is not.)
      `/iiif/presentation/pages/${closed.pageIds[1]}/text.json`,
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
      // Answered once the reader signs in (an outside viewer through IIIF Auth, then with its token).
      { name: 'visitor in the reading room', remoteAddress: READING_ROOM },
    ];
    const offered: string[] = [];
    for (const client of clients) {
      const manifest = await get(url, client);
      const service = manifest.json<{ service?: Array<{ id: string; type: string }> }>().service;
      const answer = await get(search, client);
      // Offered: it answers, or asks for a sign-in (401); never where it can only refuse (403).
      expect(service !== undefined, client.name).toBe(answer.statusCode !== 403);
      expect([200, 401, 403], client.name).toContain(answer.statusCode);
      if (service) {
        offered.push(client.name);
        expect(service).toEqual([
          { id: expect.stringMatching(/\/iiif\/search\/volumes\/\d+$/) as unknown, type: 'SearchService2' },
          expect.objectContaining({
            id: expect.stringMatching(/\/iiif\/search\/1\/volumes\/\d+$/) as unknown,
            type: 'SearchService1',
          }),
        ]);
        // Content Search 1.0 answers exactly as 2.0 does.
        const search1 = await get(search.replace('/iiif/search/', '/iiif/search/1/'), client);
        expect(search1.statusCode, client.name).toBe(answer.statusCode);
        expect(manifest.headers['cache-control'], client.name).toMatch(/^private/);
        expect(manifest.headers.vary, client.name).toMatch(/cookie/i);
      } else {
        expect(manifest.headers['cache-control'], client.name).toMatch(/^public/);
      }
    }
    expect(offered).toEqual(['reader in the reading room', 'visitor in the reading room']);
  });
});

describe.each(DIALECTS)('IIIF documents with PUBLIC_ORIGIN configured on %s', (dialect) => {
  let h: HttpHarness;
  let book: Awaited<ReturnType<typeof createBook>>;
  beforeAll(async () => {
    h = await createHttpHarness(dialect, { PUBLIC_ORIGIN: 'https://guji.example.org/' });
    book = await createBook(h.context, { volumes: [1] });
  });
  afterAll(async () => h.close());

  it('18: takes every id from the configured origin, whatever the Host header says', async () => {
    for (const url of [
      `/iiif/3/${book.pageIds[0]}/info.json`,
      `/iiif/presentation/volumes/${book.volumeIds[0]}/manifest.json`,
      '/iiif/collection/top',
    ]) {
      // From outside the reading room (loopback is in it by default, where the manifest offers search).
      const response = await h.request({
        method: 'GET',
        url,
        headers: { host: 'evil.example' },
        remoteAddress: '203.0.113.9',
      });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).not.toContain('evil.example');
      expect(response.body, url).toContain('https://guji.example.org/iiif/');
      expect(response.headers['cache-control'], url).toMatch(/^public/);
    }
  });
});
