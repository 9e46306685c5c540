/** Accounts over HTTP: single sign-on by a signed link, once, briefly valid, and off without a secret. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directUser, expectNoSecretsSent, nextPhone } from '../../../test/accounts.ts';
import { createHttpHarness, sessionCookie, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { signSso } from './auth.service.ts';

describe.each(DIALECTS)('single sign-on over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await createHttpHarness(dialect, { SSO_SECRET: 'sso-test-secret' });
  });
  afterAll(async () => h.close());

  it('logs in through a signed single-sign-on link once, and refuses forged or expired links', async () => {
    const phone = nextPhone();
    await h.register({ loginName: 'ssouser', phone });
    const expires = Math.floor(h.clock.now().getTime() / 1000) + 300;
    const link = { loginName: 'ssouser', phoneNum: phone, expires, nonce: 'nonce-abcdef-1' };
    const signature = signSso('sso-test-secret', link);
    const ok = await h.request({ method: 'POST', url: '/api/auth/sso', body: { ...link, signature } });
    expect(ok.statusCode).toBe(200);
    expect(sessionCookie(ok)).not.toBe('');
    const replay = await h.request({ method: 'POST', url: '/api/auth/sso', body: { ...link, signature } });
    expect(replay.statusCode).toBe(401);
    const forged = { ...link, nonce: 'nonce-abcdef-2', loginName: 'someone-else' };
    const forgedRes = await h.request({
      method: 'POST',
      url: '/api/auth/sso',
      body: { ...forged, signature: signSso('wrong-secret', forged) },
    });
    expect(forgedRes.statusCode).toBe(401);
    const old = { ...link, nonce: 'nonce-abcdef-3', expires: expires - 600 };
    const expired = await h.request({
      method: 'POST',
      url: '/api/auth/sso',
      body: { ...old, signature: signSso('sso-test-secret', old) },
    });
    expect(expired.json()).toMatchObject({ code: 'SSO_INVALID' });
  });

  it('refuses a single-sign-on link that is valid for more than 10 minutes', async () => {
    const { loginName, phone } = await directUser(h, 'ssolong');
    const now = Math.floor(h.clock.now().getTime() / 1000);
    for (const [expires, nonce] of [
      [4102444800, 'nonce-long-1'],
      [now + 601, 'nonce-long-2'],
    ] as const) {
      const link = { loginName, phoneNum: phone, expires, nonce };
      const response = await h.request({
        method: 'POST',
        url: '/api/auth/sso',
        body: { ...link, signature: signSso('sso-test-secret', link) },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ code: 'SSO_INVALID', message: '登录链接无效或已过期' });
      expect(sessionCookie(response)).toBe('');
    }
    const link = { loginName, phoneNum: phone, expires: now + 600, nonce: 'nonce-long-3' };
    const ok = await h.request({
      method: 'POST',
      url: '/api/auth/sso',
      body: { ...link, signature: signSso('sso-test-secret', link) },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('never sends a password hash or an SMS code to a client', async () => {
    await expectNoSecretsSent(h);
  });
});

describe.each(DIALECTS)('single sign-on without a secret on %s', (dialect) => {
  it('is switched off', async () => {
    const h = await createHttpHarness(dialect);
    const link = { loginName: 'x', phoneNum: '13900000000', expires: 9_999_999_999, nonce: 'nonce-xyz-123' };
    const response = await h.request({
      method: 'POST',
      url: '/api/auth/sso',
      body: { ...link, signature: signSso('anything', link) },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'SSO_DISABLED' });
    await h.close();
  });
});
