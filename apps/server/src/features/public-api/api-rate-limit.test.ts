import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreatedApiToken } from '@guji/shared';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { makeReader } from '../../../test/factories.ts';
import { buildApp } from '../../app.ts';

describe.each(DIALECTS)('public API rate limits (%s)', (dialect) => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await createHttpHarness(dialect, {
      PUBLIC_API_RATE_LIMIT_PER_MINUTE: '3',
      PUBLIC_API_ANONYMOUS_RATE_LIMIT_PER_MINUTE: '2',
    });
  });
  afterAll(async () => h.close());

  const newToken = async (prefix: string) => {
    const user = await makeReader(h, prefix);
    const created = await h.request({
      method: 'POST',
      url: '/api/me/api-tokens',
      cookie: user.cookie,
      body: { name: '限额' },
    });
    return CreatedApiToken.parse(created.json()).secret;
  };
  const call = (token: string | null, from = '198.51.100.1') =>
    h.request({
      method: 'GET',
      url: '/api/v1/classifications',
      remoteAddress: from,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  it('each token has its own limit: the 4th request in a minute is refused with 429, then it recovers', async () => {
    const token = await newToken('ratetoken');
    const other = await newToken('rateother');
    for (const remaining of [2, 1, 0]) {
      const ok = await call(token);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers).toMatchObject({
        'ratelimit-limit': '3',
        'ratelimit-remaining': String(remaining),
        'ratelimit-reset': '60',
      });
    }
    h.clock.advance(20);
    const refused = await call(token);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: 'RATE_LIMITED',
      message: '请求过于频繁：每分钟最多 3 次，请 40 秒后再试',
    });
    expect(refused.headers).toMatchObject({
      'retry-after': '40',
      'ratelimit-remaining': '0',
      'access-control-allow-origin': '*',
    });
    // Another token, and the same address without a token, count apart.
    expect((await call(other)).statusCode).toBe(200);
    expect((await call(null)).statusCode).toBe(200);

    h.clock.advance(40);
    const again = await call(token);
    expect(again.statusCode).toBe(200);
    expect(again.headers['ratelimit-remaining']).toBe('2');
  });

  it('without a token the limit is per address and lower; wrong tokens spend it too', async () => {
    const from = '198.51.100.2';
    expect((await call(null, from)).headers['ratelimit-limit']).toBe('2');
    expect((await call(`gj_${'z'.repeat(43)}`, from)).statusCode).toBe(401);
    const refused = await call(null, from);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ message: '请求过于频繁：每分钟最多 2 次，请 60 秒后再试' });
    expect((await call(null, '198.51.100.3')).statusCode).toBe(200);
    h.clock.advance(60);
    expect((await call(null, from)).statusCode).toBe(200);
  });

  it('every spelling of an API path is guarded: escaped letters reach the same handler and the same limit', async () => {
    // Issue 30 item 2: /api/%761/… reached the v1 handlers past a guard that matched the literal prefix.
    const from = '198.51.100.4';
    const spelled = (url: string, token: string | null = null) =>
      h.request({
        method: 'GET',
        url,
        remoteAddress: from,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
    const first = await spelled('/api/%761/classifications');
    expect(first.statusCode).toBe(200);
    expect(first.headers).toMatchObject({ 'access-control-allow-origin': '*', 'ratelimit-limit': '2' });
    expect((await spelled('/%61pi/v1/classifications')).headers['ratelimit-remaining']).toBe('0');
    const refused = await spelled('/api/v%31/classifications');
    expect(refused.statusCode).toBe(429);
    // A wrong token is refused whatever the spelling.
    const forged = await spelled('/api/%76%31/classifications', `gj_${'y'.repeat(43)}`);
    expect([401, 429]).toContain(forged.statusCode);
    expect(forged.statusCode).not.toBe(200);
    h.clock.advance(60);
    const wrong = await spelled('/api/%761/classifications', `gj_${'y'.repeat(43)}`);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toContain('invalid_token');
  });

  it('the counts are in the database, so a second process sees the same ones', async () => {
    const token = await newToken('rateshared');
    const second = await buildApp(h.context, { logger: false });
    await second.ready();
    try {
      const viaSecond = () =>
        second.inject({
          method: 'GET',
          url: '/api/v1/classifications',
          headers: { authorization: `Bearer ${token}` },
        });
      expect((await call(token)).statusCode).toBe(200);
      expect((await viaSecond()).statusCode).toBe(200);
      expect((await call(token)).statusCode).toBe(200);
      expect((await viaSecond()).statusCode).toBe(429);
    } finally {
      await second.close();
    }
  });
});
