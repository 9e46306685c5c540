import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/helpers.ts';
import { iiifAuthFixture, OTHER, VIEWER, type IiifAuthFixture } from '../../../test/iiif-auth-fixture.ts';
import { BEARER_TTL_S } from './iiif-auth.service.ts';

/**
 * IIIF Authorization (issue 18) attacked: tokens of another user, expired, forged, of the wrong kind or
 * used for a book their user may not read; postMessage and credentialed CORS to unlisted origins; the
 * access cookie borrowed by another site; and logout, which must really end access.
 */
/** The claims a token's payload carries (iiif-auth.service.ts). */
const claimsOf = (payload: string) =>
  JSON.parse(Buffer.from(payload, 'base64url').toString()) as { k: string; u: number; s: string; e: number };

describe.each(DIALECTS)('IIIF Authorization security on %s', (dialect) => {
  let f: IiifAuthFixture;
  beforeAll(async () => {
    f = await iiifAuthFixture(dialect);
  });
  afterAll(async () => f.h.close());

  const info = (pageId: number, headers: Record<string, string> = {}) =>
    f.get(`/iiif/3/${pageId}/info.json`, { origin: VIEWER, ...headers });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  /** A fresh session of a user, so logging out in one test leaves the others alone. */
  const session = async (loginName: string) => (await f.h.login(loginName, 'Guji#2026ok')).cookie;

  it('opens info.json and tiles with a reader’s bearer token, with CORS for the configured origin', async () => {
    const { accessToken } = await f.token(await session(f.allowed.loginName), f.closed.bookId);
    const ok = await info(f.closed.pageIds[0]!, bearer(accessToken!));
    expect(ok.statusCode).toBe(200);
    expect(ok.json<{ width: number }>().width).toBeGreaterThan(0);
    expect(ok.headers['access-control-allow-origin']).toBe(VIEWER);
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    expect(ok.headers['cache-control']).toBe('private, max-age=3600');
    expect(ok.headers.vary).toMatch(/authorization/i);
  });

  it('a restricted page’s text layer follows the images’ Auth: declared with the probe, opened by the token', async () => {
    // Issue 31 item 3: Mirador drew the images after login but got 401 for every text.json.
    const manifest = (await f.get(`/iiif/presentation/volumes/${f.closed.volumeIds[0]}/manifest.json`)).json<{
      items: Array<{ annotations?: Array<{ id: string; service?: Array<{ id: string; type: string }> }> }>;
    }>();
    const [textPage] = manifest.items[0]!.annotations!;
    expect(textPage!.service).toEqual([
      expect.objectContaining({
        id: `http://localhost:80/iiif/auth/2/probe/${f.closed.pageIds[0]}`,
        type: 'AuthProbeService2',
      }),
    ]);
    const text = new URL(textPage!.id).pathname;
    expect((await f.get(text, { origin: VIEWER })).statusCode).toBe(401);
    const { accessToken } = await f.token(await session(f.allowed.loginName), f.closed.bookId);
    const read = await f.get(text, { origin: VIEWER, ...bearer(accessToken!) });
    expect(read.statusCode).toBe(200);
    expect(read.body).toContain('孟子見梁惠王');
    expect(read.headers['access-control-allow-origin']).toBe(VIEWER);
    // A token of a reader who may not read this book (issued for another book) does not open it.
    const { accessToken: other } = await f.token(await session(f.denied.loginName), f.open.bookId);
    expect((await f.get(text, { origin: VIEWER, ...bearer(other!) })).statusCode).toBe(403);
    // A public book's text names no auth service.
    const open = (await f.get(`/iiif/presentation/volumes/${f.open.volumeIds[0]}/manifest.json`)).json<{
      items: Array<{ annotations?: Array<{ service?: unknown }> }>;
    }>();
    expect(open.items.flatMap((c) => c.annotations ?? []).every((a) => a.service === undefined)).toBe(true);
  });

  it('never gives credentialed CORS to an unlisted origin', async () => {
    const { accessToken } = await f.token(await session(f.allowed.loginName), f.closed.bookId);
    const other = await info(f.closed.pageIds[0]!, { origin: OTHER, ...bearer(accessToken!) });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.headers['access-control-allow-credentials']).toBeUndefined();
    const refused = await info(f.closed.pageIds[0]!, { origin: OTHER });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a token used for a book its user may not read (403 with the refusal)', async () => {
    const { accessToken } = await f.token(await session(f.denied.loginName), f.open.bookId);
    expect(accessToken).toBeTruthy();
    const refused = await info(f.closed.pageIds[0]!, bearer(accessToken!));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      message: '温馨提示：请到阅览室浏览！',
      service: [{ profile: 'http://iiif.io/api/auth/1/login' }],
    });
  });

  it('refuses forged tokens, another user’s id written into a token, and tokens of the wrong kind', async () => {
    const { accessToken } = await f.token(await session(f.denied.loginName), f.open.bookId);
    const [payload, signature] = accessToken!.split('.') as [string, string];
    const claims = claimsOf(payload);
    const asOther = Buffer.from(JSON.stringify({ ...claims, u: f.allowed.id })).toString('base64url');
    const longer = Buffer.from(JSON.stringify({ ...claims, e: claims.e + 86_400 })).toString('base64url');
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
    const asCookie = Buffer.from(JSON.stringify({ ...claims, k: 'cookie' })).toString('base64url');
    for (const forged of [
      `${asOther}.${signature}`,
      `${longer}.${signature}`,
      `${payload}.${flipped}`,
      `${asCookie}.${signature}`,
      `${payload}.`,
      'not-a-token',
      `${payload}.${signature}.extra`,
    ]) {
      const response = await info(f.closed.pageIds[0]!, bearer(forged));
      expect(response.statusCode, forged).toBe(401);
    }
    // A cookie credential is no bearer token, and a bearer token is no access cookie.
    const cookieToken = f.h.context.services.iiifAuth.issue('cookie', f.allowed.id, claims.s).token;
    expect((await info(f.closed.pageIds[0]!, bearer(cookieToken))).statusCode).toBe(401);
  });

  it('a token is bound to its user’s session: one signed for a session that is not theirs fails', async () => {
    const denied = await f.token(await session(f.denied.loginName), f.open.bookId);
    const claims = claimsOf(denied.accessToken!.split('.')[0]!);
    // Even correctly signed, a token naming the allowed user in the denied user's session is refused.
    const mixed = f.h.context.services.iiifAuth.issue('bearer', f.allowed.id, claims.s).token;
    expect((await info(f.closed.pageIds[0]!, bearer(mixed))).statusCode).toBe(401);
  });

  it('refuses an expired token', async () => {
    const { accessToken } = await f.token(await session(f.allowed.loginName), f.closed.bookId);
    expect((await info(f.closed.pageIds[0]!, bearer(accessToken!))).statusCode).toBe(200);
    f.h.clock.advance(BEARER_TTL_S + 1);
    expect((await info(f.closed.pageIds[0]!, bearer(accessToken!))).statusCode).toBe(401);
  });

  it('posts no token to an origin that is not configured (invalidOrigin)', async () => {
    const cookie = await session(f.allowed.loginName);
    for (const origin of [OTHER, 'null', 'javascript:alert(1)', 'https://viewer.example.org.evil.net']) {
      const url = `/iiif/auth/1/books/${f.closed.bookId}/token?messageId=m&origin=${encodeURIComponent(origin)}`;
      const page = await f.get(url, {}, cookie);
      expect(page.body, origin).not.toContain('accessToken');
      expect(page.body).toContain('"error":"invalidOrigin"');
      expect(page.headers['content-security-policy']).not.toContain(OTHER);
    }
    // The site itself may ask (the same origin as the request).
    const own = await f.get(
      `/iiif/auth/2/books/${f.closed.bookId}/token?messageId=m&origin=${encodeURIComponent('http://localhost:80')}`,
      {},
      cookie,
    );
    expect(own.body).toContain('"type":"AuthAccessToken2"');
    // Markup in messageId cannot end the script.
    const sneaky = await f.get(
      `/iiif/auth/1/books/${f.closed.bookId}/token?messageId=${encodeURIComponent('</script><script>alert(1)</script>')}&origin=${encodeURIComponent(VIEWER)}`,
      {},
      cookie,
    );
    expect(sneaky.body).not.toContain('</script><script>');
  });

  it('honours the access cookie on image requests from the configured viewer or this site only', async () => {
    const cookie = await session(f.allowed.loginName);
    const login = await f.get(`/iiif/auth/books/${f.closed.bookId}/login`, {}, cookie);
    const access = /^(guji_iiif=[^;]+)/.exec(String(login.headers['set-cookie']))![1]!;
    const tile = `/iiif/3/${f.closed.pageIds[0]}/0,0,256,256/256,/0/default.jpg`;
    const fromViewer = await f.get(tile, { referer: `${VIEWER}/mirador/` }, access);
    expect(fromViewer.statusCode).toBe(200);
    expect(fromViewer.headers['content-type']).toBe('image/jpeg');
    expect((await f.get(tile, { referer: 'http://localhost:80/Book' }, access)).statusCode).toBe(200);
    expect((await f.get(tile, { referer: `${OTHER}/page` }, access)).statusCode).toBe(401);
    expect((await f.get(tile, {}, access)).statusCode).toBe(401);
    // The access cookie is no bearer token.
    const value = access.slice('guji_iiif='.length);
    expect((await info(f.closed.pageIds[0]!, bearer(value))).statusCode).toBe(401);
  });

  it('logout ends the session, its bearer tokens and its access cookie, and says so', async () => {
    const cookie = await session(f.allowed.loginName);
    const { accessToken } = await f.token(cookie, f.closed.bookId);
    const login = await f.get(`/iiif/auth/books/${f.closed.bookId}/login`, {}, cookie);
    const access = /^(guji_iiif=[^;]+)/.exec(String(login.headers['set-cookie']))![1]!;
    const tile = `/iiif/3/${f.closed.pageIds[0]}/0,0,256,256/256,/0/default.jpg`;
    expect((await info(f.closed.pageIds[0]!, bearer(accessToken!))).statusCode).toBe(200);
    const out = await f.get('/iiif/auth/logout', {}, cookie);
    expect(out.statusCode).toBe(200);
    expect(out.body).toContain('已退出古籍数字图书馆的登录');
    expect(String(out.headers['set-cookie'])).toMatch(/guji_iiif=;/);
    expect((await info(f.closed.pageIds[0]!, bearer(accessToken!))).statusCode).toBe(401);
    expect((await f.get(tile, { referer: `${VIEWER}/` }, access)).statusCode).toBe(401);
    expect((await f.get('/api/me', {}, cookie)).statusCode).toBe(401);
    // Another session of the same user is not touched.
    const other = await session(f.allowed.loginName);
    expect((await f.token(other, f.closed.bookId)).accessToken).toBeTruthy();
  });

  it('a page of another site that sends the reader to logout ends nothing: the reader is asked on this site', async () => {
    // Issue 30 item 4: a cross-site navigation to the GET logout ended the victim's site session.
    const cookie = await session(f.allowed.loginName);
    const asked = await f.get(
      '/iiif/auth/logout',
      { 'sec-fetch-site': 'cross-site', referer: `${OTHER}/x` },
      cookie,
    );
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('另一个网站请求退出古籍数字图书馆的登录');
    expect(asked.body).toContain('<form method="post" action="/iiif/auth/logout">');
    expect(asked.headers['set-cookie']).toBeUndefined();
    expect((await f.get('/api/me', {}, cookie)).statusCode).toBe(200);
    // Without a Referer, a cross-site navigation is asked too.
    await f.get('/iiif/auth/logout', { 'sec-fetch-site': 'cross-site' }, cookie);
    expect((await f.get('/api/me', {}, cookie)).statusCode).toBe(200);
    // The form posted from another site is refused by the CSRF check.
    const forged = await f.h.request({
      method: 'POST',
      url: '/iiif/auth/logout',
      cookie,
      headers: { origin: OTHER, 'sec-fetch-site': 'cross-site' },
    });
    expect(forged.statusCode).toBe(403);
    expect((await f.get('/api/me', {}, cookie)).statusCode).toBe(200);
    // Confirmed on this site's page: the session ends.
    const confirmed = await f.h.request({
      method: 'POST',
      url: '/iiif/auth/logout',
      cookie,
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain('已退出古籍数字图书馆的登录');
    expect((await f.get('/api/me', {}, cookie)).statusCode).toBe(401);
    // A configured viewer's logout window still logs out at once.
    const viewer = await session(f.allowed.loginName);
    await f.get(
      '/iiif/auth/logout',
      { 'sec-fetch-site': 'cross-site', referer: `${VIEWER}/mirador` },
      viewer,
    );
    expect((await f.get('/api/me', {}, viewer)).statusCode).toBe(401);
  });

  it('logout by the access cookie alone (a viewer on another site) ends that session too', async () => {
    const cookie = await session(f.allowed.loginName);
    const { accessToken } = await f.token(cookie, f.closed.bookId);
    const login = await f.get(`/iiif/auth/books/${f.closed.bookId}/login`, {}, cookie);
    const access = /^(guji_iiif=[^;]+)/.exec(String(login.headers['set-cookie']))![1]!;
    // From an unlisted site the cookie is not honoured: nothing ends.
    await f.get('/iiif/auth/logout', { referer: `${OTHER}/` }, access);
    expect((await info(f.closed.pageIds[0]!, bearer(accessToken!))).statusCode).toBe(200);
    await f.get('/iiif/auth/logout', { referer: `${VIEWER}/` }, access);
    expect((await info(f.closed.pageIds[0]!, bearer(accessToken!))).statusCode).toBe(401);
  });
});
