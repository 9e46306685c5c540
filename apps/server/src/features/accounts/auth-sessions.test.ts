/** Accounts over HTTP: logout, CSRF refusals, origins behind proxies and Secure session cookies. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSecretsSent, newUser } from '../../../test/accounts.ts';
import { createHttpHarness, GOOD_PASSWORD, sessionCookie, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';

describe.each(DIALECTS)('sessions over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
  });
  afterAll(async () => h.close());

  it('ends the session on logout', async () => {
    const { loginName } = await newUser(h);
    const { cookie } = await h.login(loginName, GOOD_PASSWORD);
    expect((await h.request({ method: 'GET', url: '/api/me', cookie })).statusCode).toBe(200);
    const logout = await h.request({ method: 'POST', url: '/api/auth/logout', cookie });
    expect(logout.statusCode).toBe(200);
    const after = await h.request({ method: 'GET', url: '/api/me', cookie });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses a state-changing request from another site (CSRF)', async () => {
    const { loginName } = await newUser(h);
    const { cookie, response: loginResponse } = await h.login(loginName, GOOD_PASSWORD);
    expect(loginResponse.statusCode, loginResponse.body).toBe(200);
    const evil = await h.request({
      method: 'POST',
      url: '/api/auth/logout',
      cookie,
      headers: { origin: 'https://evil.example' },
    });
    expect(evil.statusCode).toBe(403);
    expect(evil.json()).toMatchObject({ code: 'CSRF' });
    const crossSite = await h.request({
      method: 'PATCH',
      url: '/api/me',
      cookie,
      body: { field: 'nickName', value: '黑客' },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/me', cookie })).json()).toMatchObject({
      nickName: null,
    });
    const sameOrigin = await h.request({
      method: 'POST',
      url: '/api/auth/logout',
      cookie,
      headers: { origin: 'http://library.test:3000', host: 'library.test:3000' },
    });
    expect(sameOrigin.statusCode).toBe(200);
  });

  it('never sends a password hash or an SMS code to a client', async () => {
    await expectNoSecretsSent(h);
  });
});

describe.each(DIALECTS)('origins, forwarded headers and Secure cookies on %s', (dialect) => {
  /** Logs in with the given headers; the harness's own login helper sends none. */
  async function loginWith(h: HttpHarness, headers: Record<string, string>) {
    await h.context.services.auth.upsertAccount({
      loginName: 'proxied',
      password: GOOD_PASSWORD,
      roles: ['reader'],
    });
    return h.request({
      method: 'POST',
      url: '/api/auth/login',
      headers,
      body: { loginName: 'proxied', password: GOOD_PASSWORD, ...(await h.captcha()) },
    });
  }
  const secureFlag = (response: { cookies: Array<{ name: string; secure?: boolean }> }) =>
    response.cookies.find((c) => c.name === 'guji_session')?.secure === true;

  it('without TRUST_PROXY ignores X-Forwarded-Host and -Proto and compares the whole origin', async () => {
    const h = await createHttpHarness(dialect);
    try {
      // The forged forwarded host named the attacker's site: it no longer counts.
      const forged = await loginWith(h, {
        host: 'library.test',
        origin: 'https://evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
      });
      expect(forged.statusCode).toBe(403);
      expect(forged.json()).toEqual({ code: 'CSRF', message: '请求来源不被允许' });
      // Same host, other scheme or other port: another origin.
      for (const origin of ['https://library.test', 'http://library.test:8080']) {
        const response = await loginWith(h, { host: 'library.test', origin });
        expect(response.statusCode, origin).toBe(403);
      }
      // The request's own origin passes; X-Forwarded-Proto does not make the cookie Secure.
      const same = await loginWith(h, {
        host: 'library.test',
        origin: 'http://library.test',
        'x-forwarded-proto': 'https',
      });
      expect(same.statusCode, same.body).toBe(200);
      expect(secureFlag(same)).toBe(false);
    } finally {
      await h.close();
    }
  });

  it('with TRUST_PROXY takes the origin and HTTPS from the proxy and marks cookies Secure', async () => {
    const h = await createHttpHarness(dialect, { TRUST_PROXY: '127.0.0.1' });
    try {
      const behindTls = {
        host: '127.0.0.1:3000',
        'x-forwarded-host': 'guji.example.org',
        'x-forwarded-proto': 'https',
        'x-forwarded-for': '198.51.100.5',
      };
      const ok = await loginWith(h, { ...behindTls, origin: 'https://guji.example.org' });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(secureFlag(ok)).toBe(true);
      const logout = await h.request({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { ...behindTls, origin: 'https://guji.example.org' },
        cookie: sessionCookie(ok),
      });
      expect(logout.cookies.find((c) => c.name === 'guji_session')).toMatchObject({
        value: '',
        secure: true,
      });
      // The scheme is part of the origin.
      expect((await loginWith(h, { ...behindTls, origin: 'http://guji.example.org' })).statusCode).toBe(403);
      // A proxy that TRUST_PROXY does not name is not believed.
      const stranger = await h.request({
        method: 'POST',
        url: '/api/auth/logout',
        remoteAddress: '203.0.113.50',
        headers: { ...behindTls, origin: 'https://guji.example.org' },
      });
      expect(stranger.statusCode).toBe(403);
    } finally {
      await h.close();
    }
  });

  it('accepts PUBLIC_ORIGIN by its whole origin, and COOKIE_SECURE=true marks every login', async () => {
    const h = await createHttpHarness(dialect, {
      PUBLIC_ORIGIN: 'https://guji.example.org/',
      COOKIE_SECURE: 'true',
    });
    try {
      const ok = await loginWith(h, { host: '10.0.0.2:3000', origin: 'https://guji.example.org' });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(secureFlag(ok)).toBe(true);
      for (const origin of ['http://guji.example.org', 'https://guji.example.org:8443']) {
        expect((await loginWith(h, { host: '10.0.0.2:3000', origin })).statusCode, origin).toBe(403);
      }
    } finally {
      await h.close();
    }
  });
});
