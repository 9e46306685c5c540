import { normalize } from '@iiif/parser';
import { MSG } from '@guji/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/helpers.ts';
import { iiifAuthFixture, OTHER, VIEWER, type IiifAuthFixture } from '../../../test/iiif-auth-fixture.ts';
import { loadConfig } from '../../config.ts';

/** IIIF Authorization (issue 18): the services an outside viewer uses, each as the specs describe it. */
describe.each(DIALECTS)('IIIF Authorization services on %s', (dialect) => {
  let f: IiifAuthFixture;
  beforeAll(async () => {
    f = await iiifAuthFixture(dialect);
  });
  afterAll(async () => f.h.close());

  it('answers a restricted info.json with 401 and the Auth 1.0 login service', async () => {
    const pageId = f.closed.pageIds[0]!;
    const info = await f.get(`/iiif/3/${pageId}/info.json`, { origin: VIEWER });
    expect(info.statusCode).toBe(401);
    expect(info.headers['access-control-allow-origin']).toBe(VIEWER);
    expect(info.headers['access-control-allow-credentials']).toBe('true');
    expect(info.headers.vary).toMatch(/origin/i);
    expect(info.headers['cache-control']).toBe('private, no-store');
    const login1 = {
      '@context': 'http://iiif.io/api/auth/1/context.json',
      '@id': `http://localhost:80/iiif/auth/books/${f.closed.bookId}/login`,
      profile: 'http://iiif.io/api/auth/1/login',
      confirmLabel: '登录',
      failureHeader: MSG.readingRoomOnly,
      service: [
        {
          '@id': `http://localhost:80/iiif/auth/1/books/${f.closed.bookId}/token`,
          profile: 'http://iiif.io/api/auth/1/token',
        },
        {
          '@id': 'http://localhost:80/iiif/auth/logout',
          profile: 'http://iiif.io/api/auth/1/logout',
          label: '退出登录',
        },
      ],
    };
    expect(info.json()).toMatchObject({
      id: `http://localhost:80/iiif/3/${pageId}`,
      message: MSG.loginRequiredNotice,
      service: [login1],
    });
    expect(info.json<{ service: unknown[] }>().service).toHaveLength(1);
  });

  it('a hidden book does not exist for those who may not read it: its pages, probe and manifest answer as a missing id does', async () => {
    // Issue 30 item 6: strangers got 401 with the page's size and the book's login service.
    const pageId = f.hidden.pageIds[0]!;
    const missingId = 987654321;
    const answerOf = async (url: (id: number) => string, id: number, cookie?: string) => {
      const response = await f.get(url(id), { origin: VIEWER }, cookie);
      return { status: response.statusCode, body: response.body.replace(String(id), 'ID') };
    };
    for (const url of [
      (id: number) => `/iiif/3/${id}/info.json`,
      (id: number) => `/iiif/3/${id}/full/max/0/default.jpg`,
      (id: number) => `/iiif/auth/2/probe/${id}`,
      (id: number) => `/iiif/presentation/pages/${id}/text.json`,
    ])
      for (const cookie of [undefined, f.denied.cookie]) {
        const hidden = await answerOf(url, pageId, cookie);
        expect(hidden.status, url(pageId)).toBe(404);
        expect(hidden).toEqual(await answerOf(url, missingId, cookie));
      }
    const manifest = (id: number) => `/iiif/presentation/volumes/${id}/manifest.json`;
    for (const cookie of [undefined, f.allowed.cookie]) {
      const hidden = await answerOf(manifest, f.hidden.volumeIds[0]!, cookie);
      expect(hidden.status).toBe(404);
      expect(hidden).toEqual(await answerOf(manifest, missingId, cookie));
    }
  });

  it('a restricted manifest loads in @iiif/parser: every auth service typed, Auth 1.0 and 2.0 ids apart', async () => {
    // Issue 31 items 1 and 2: services without @type failed the Presentation validator, and the two
    // versions' services sharing ids made the parser refuse the manifest.
    const manifest = (await f.get(`/iiif/presentation/volumes/${f.closed.volumeIds[0]}/manifest.json`)).json<
      Record<string, unknown>
    >();
    expect(() => normalize(structuredClone(manifest) as never)).not.toThrow();
    const services: Array<{ id: string; type: string }> = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        const o = node as Record<string, unknown>;
        const id = (o.id ?? o['@id']) as string | undefined;
        const type = (o.type ?? o['@type']) as string | undefined;
        if (id?.includes('/iiif/auth/')) services.push({ id, type: type ?? '' });
        Object.values(o).forEach(walk);
      }
    };
    walk(manifest);
    expect(services.length).toBeGreaterThan(0);
    expect(services.filter((s) => !s.type)).toEqual([]);
    const typesById = new Map<string, Set<string>>();
    for (const s of services) typesById.set(s.id, (typesById.get(s.id) ?? new Set()).add(s.type));
    expect([...typesById].filter(([, types]) => types.size > 1)).toEqual([]);
    expect(new Set(services.map((s) => s.type))).toEqual(
      new Set([
        'AuthCookieService1',
        'AuthTokenService1',
        'AuthLogoutService1',
        'AuthProbeService2',
        'AuthAccessService2',
        'AuthAccessTokenService2',
        'AuthLogoutService2',
      ]),
    );
    // The Auth 2.0 access and logout services answer as the 1.0 ones do.
    const access = await f.get(`/iiif/auth/2/books/${f.closed.bookId}/login`);
    expect(access.statusCode).toBe(303);
    expect(access.headers.location).toContain('/Login?redirect=');
    const cookie = (await f.h.login(f.allowed.loginName, 'Guji#2026ok')).cookie;
    expect((await f.get('/iiif/auth/2/logout', {}, cookie)).body).toContain('已退出古籍数字图书馆的登录');
    expect((await f.get('/api/me', {}, cookie)).statusCode).toBe(401);
  });

  it('keeps public books public: CORS *, no credentials, no auth services', async () => {
    const info = await f.get(`/iiif/3/${f.open.pageIds[0]}/info.json`, { origin: VIEWER });
    expect(info.statusCode).toBe(200);
    expect(info.headers['access-control-allow-origin']).toBe('*');
    expect(info.headers['access-control-allow-credentials']).toBeUndefined();
    expect(info.json<{ service?: unknown }>().service).toBeUndefined();
    const manifest = await f.get(`/iiif/presentation/volumes/${f.open.volumeIds[0]}/manifest.json`);
    expect(JSON.stringify(manifest.json())).not.toContain('/iiif/auth/');
  });

  it('serves a catalogued restricted book’s manifest as metadata naming the auth services', async () => {
    const manifest = await f.get(`/iiif/presentation/volumes/${f.closed.volumeIds[0]}/manifest.json`);
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['access-control-allow-origin']).toBe('*');
    const body = manifest.json<{ service?: unknown; items: { items: { items: { body: unknown }[] }[] }[] }>();
    expect(body.service).toBeUndefined();
    expect(body.items[0]!.items[0]!.items[0]!.body).toMatchObject({
      service: [
        { type: 'ImageService3', service: [{ profile: 'http://iiif.io/api/auth/1/login' }] },
        {
          type: 'AuthProbeService2',
          id: `http://localhost:80/iiif/auth/2/probe/${f.closed.pageIds[0]}`,
          service: [
            {
              type: 'AuthAccessService2',
              profile: 'active',
              service: [{ type: 'AuthAccessTokenService2' }, { type: 'AuthLogoutService2' }],
            },
          ],
        },
      ],
    });
    // The images themselves stay behind the rule.
    const tile = await f.get(`/iiif/3/${f.closed.pageIds[0]}/0,0,256,256/256,/0/default.jpg`);
    expect(tile.statusCode).toBe(401);
  });

  it('login service: sends a stranger to the site’s /Login, and a signed-in reader’s window closes', async () => {
    const url = `/iiif/auth/books/${f.closed.bookId}/login?origin=${encodeURIComponent(VIEWER)}`;
    const out = await f.get(url);
    expect(out.statusCode).toBe(303);
    const next = `/IiifLogin?next=${encodeURIComponent(url)}`;
    expect(out.headers.location).toBe(`/Login?redirect=${encodeURIComponent(next)}`);
    const login = await f.get(out.headers.location as string);
    expect(login.headers['cross-origin-opener-policy']).toBe('unsafe-none');
    const plainLogin = await f.get('/Login');
    expect(plainLogin.headers['cross-origin-opener-policy']).toBe('same-origin');
    const done = await f.get(url, {}, f.allowed.cookie);
    expect(done.statusCode).toBe(200);
    expect(done.headers['cross-origin-opener-policy']).toBe('unsafe-none');
    expect(done.headers['content-security-policy']).toMatch(
      /^default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-/,
    );
    expect(done.body).toContain('<script>window.close();</script>');
    expect(done.body).toContain('已登录古籍数字图书馆');
    const cookie = String(done.headers['set-cookie']);
    expect(cookie).toMatch(/^guji_iiif=[^;]+; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax$/);
    expect((await f.get('/iiif/auth/books/999999/login')).statusCode).toBe(404);
    // A reader who may not read the book sees the spec's refusal there, and gets no access cookie.
    const refused = await f.get(url, {}, f.denied.cookie);
    expect(refused.statusCode).toBe(200);
    expect(refused.body).toContain(`<p role="alert">${MSG.readingRoomOnly}</p>`);
    expect(refused.body).toContain('<button type="button" id="close">关闭窗口</button>');
    expect(refused.headers['set-cookie']).toBeUndefined();
  });

  it('login service over HTTPS sets the access cookie SameSite=None; Secure for cross-site viewers', async () => {
    const done = await f.h.request({
      method: 'GET',
      url: `/iiif/auth/books/${f.closed.bookId}/login`,
      cookie: f.allowed.cookie,
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(done.headers['set-cookie']).toMatch(
      /^guji_iiif=[^;]+; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=None$/,
    );
  });

  it('Auth 1.0 token service posts {accessToken, expiresIn, messageId} to a configured origin', async () => {
    const url = `/iiif/auth/1/books/${f.closed.bookId}/token?messageId=m1&origin=${encodeURIComponent(VIEWER)}`;
    const page = await f.get(url, {}, f.allowed.cookie);
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect(page.headers['content-security-policy']).toContain(`frame-ancestors 'self' ${VIEWER}`);
    expect(page.headers['cache-control']).toBe('no-store');
    const match = /postMessage\((\{.*\}), "(.*)"\);/.exec(page.body)!;
    expect(match[2]).toBe(VIEWER);
    const message = JSON.parse(match[1]!) as { accessToken: string };
    expect(message).toMatchObject({ expiresIn: 600, messageId: 'm1' });
    expect(message.accessToken).toMatch(/^[\w-]+\.[\w-]+$/);
    // Signed out: missingCredentials; a reader who may not read: invalidCredentials with the spec's text.
    const stranger = await f.get(url);
    expect(stranger.body).toContain('"error":"missingCredentials"');
    expect(stranger.body).not.toContain('accessToken');
    const refused = await f.token(f.denied.cookie, f.closed.bookId);
    expect(refused).toEqual({ error: 'invalidCredentials', description: MSG.readingRoomOnly });
    const json = await f.get(`/iiif/auth/1/books/${f.closed.bookId}/token`);
    expect(json.statusCode).toBe(401);
    expect(json.json()).toMatchObject({ error: 'missingCredentials' });
  });

  it('Auth 2.0 token service answers AuthAccessToken2 or AuthAccessTokenError2 in Chinese', async () => {
    const base = `/iiif/auth/2/books/${f.closed.bookId}/token`;
    const query = `?messageId=x2&origin=${encodeURIComponent(VIEWER)}`;
    const ok = /postMessage\((\{.*\}), /.exec((await f.get(base + query, {}, f.allowed.cookie)).body)!;
    expect(JSON.parse(ok[1]!)).toMatchObject({
      '@context': 'http://iiif.io/api/auth/2/context.json',
      type: 'AuthAccessToken2',
      expiresIn: 600,
      messageId: 'x2',
    });
    const no = /postMessage\((\{.*\}), /.exec((await f.get(base + query, {}, f.denied.cookie)).body)!;
    expect(JSON.parse(no[1]!)).toEqual({
      '@context': 'http://iiif.io/api/auth/2/context.json',
      type: 'AuthAccessTokenError2',
      profile: 'invalidAspect',
      heading: { zh: [MSG.readingRoomOnly] },
      note: { zh: [MSG.readingRoomOnly] },
      messageId: 'x2',
    });
    const bad = await f.get(base, {}, f.allowed.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ type: 'AuthAccessTokenError2', profile: 'invalidRequest' });
  });

  it('content search answers an outside viewer by its bearer token, under the reading-room rule (issue 31 items 3–4)', async () => {
    const { closed, allowed } = f;
    const volume = closed.volumeIds[0]!;
    const search = (url: string, remoteAddress: string, token?: string) =>
      f.h.request({
        method: 'GET',
        url,
        remoteAddress,
        headers: { origin: VIEWER, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
    const token = (await f.token(allowed.cookie, closed.bookId)).accessToken!;
    const q = encodeURIComponent('梁惠王');
    for (const url of [`/iiif/search/1/volumes/${volume}?q=${q}`, `/iiif/search/volumes/${volume}?q=${q}`]) {
      // In the reading room, the token names the reader (no session cookie: Mirador sends none).
      const found = await search(url, '10.8.0.7', token);
      expect(found.statusCode, found.body).toBe(200);
      expect(found.headers['access-control-allow-origin']).toBe(VIEWER);
      expect(found.body).toContain('梁惠王');
      // Without a token it is nobody's search; outside the reading room the token does not help.
      expect((await search(url, '10.8.0.7')).statusCode).toBe(401);
      const outside = await search(url, '203.0.113.9', token);
      expect(outside.statusCode).toBe(403);
      expect(outside.body).not.toContain('梁惠王');
      // A forged token names nobody.
      const forged = `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
      expect((await search(url, '10.8.0.7', forged)).statusCode).toBe(401);
    }
  });

  it('probe service: 200 for a reader with a token, 401 without, 403 with the refusal text', async () => {
    const pageId = f.closed.pageIds[0]!;
    const probe = async (headers: Record<string, string>) => {
      const response = await f.get(`/iiif/auth/2/probe/${pageId}`, { origin: VIEWER, ...headers });
      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe(VIEWER);
      return response.json<{ status: number }>();
    };
    expect(await probe({})).toEqual({
      '@context': 'http://iiif.io/api/auth/2/context.json',
      id: `http://localhost:80/iiif/auth/2/probe/${pageId}`,
      type: 'AuthProbeResult2',
      status: 401,
      heading: { zh: ['本书需登录后阅读'] },
      note: { zh: [`${MSG.loginRequiredNotice}。登录后，有权阅读本书的读者可在此查看器中浏览。`] },
    });
    const token = (await f.token(f.allowed.cookie, f.closed.bookId)).accessToken!;
    expect((await probe({ authorization: `Bearer ${token}` })).status).toBe(200);
    // The denied reader's token from a book they may read (the open one) does not open this one.
    const deniedToken = (await f.token(f.denied.cookie, f.open.bookId)).accessToken!;
    const refused: unknown = await probe({ authorization: `Bearer ${deniedToken}` });
    expect(refused).toMatchObject({ status: 403, heading: { zh: [MSG.readingRoomOnly] } });
  });

  it('answers CORS preflights for configured origins only', async () => {
    const preflight = (origin: string) =>
      f.h.app.inject({
        method: 'OPTIONS',
        url: `/iiif/3/${f.closed.pageIds[0]}/info.json`,
        headers: { origin, 'access-control-request-headers': 'authorization' },
      });
    const ok = await preflight(VIEWER);
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(VIEWER);
    expect(ok.headers['access-control-allow-headers']).toBe('Authorization');
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    const other = await preflight(OTHER);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.headers['access-control-allow-headers']).toBeUndefined();
  });
});

describe('IIIF_VIEWER_ORIGINS', () => {
  it('takes comma-separated origins and refuses anything else', () => {
    const config = loadConfig({ IIIF_VIEWER_ORIGINS: 'https://A.example.org, http://127.0.0.1:3272/' });
    expect(config.iiifViewerOrigins).toEqual(['https://a.example.org', 'http://127.0.0.1:3272']);
    expect(loadConfig({}).iiifViewerOrigins).toEqual([]);
    for (const bad of ['viewer.example.org', 'https://v.example.org/mirador', 'ftp://v.example.org', '*'])
      expect(() => loadConfig({ IIIF_VIEWER_ORIGINS: bad })).toThrow(/IIIF_VIEWER_ORIGINS/);
  });
});
