import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { createTestContext, DIALECTS, type TestContext } from '../../test/helpers.ts';

/** Two web processes on one database (issue 17): the rate limits count their requests together. */
describe.each(DIALECTS)('rate limits shared by every process (%s)', (dialect) => {
  let t: TestContext;
  let first: FastifyInstance;
  let second: FastifyInstance;
  beforeAll(async () => {
    t = await createTestContext(dialect, {
      AUTH_RATE_LIMIT_PER_MINUTE: '4',
      CAPTCHA_RATE_LIMIT_PER_MINUTE: '3',
    });
    first = await buildApp(t.context, { logger: false });
    second = await buildApp(t.context, { logger: false });
    await Promise.all([first.ready(), second.ready()]);
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await t.close();
  });

  const login = (app: FastifyInstance, remoteAddress: string) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress,
      payload: { loginName: 'nobody', password: 'Wrong#2026', captchaId: 'x', captchaCode: 'x' },
    });

  it('refuses the fifth login attempt of a minute whichever process answers it', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await login(i % 2 ? second : first, '198.51.100.7')).statusCode);
    expect(statuses.slice(0, 4)).not.toContain(429);
    expect(statuses[4]).toBe(429);
    const refused = await login(first, '198.51.100.7');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address has its own count.
    expect((await login(second, '198.51.100.8')).statusCode).not.toBe(429);
  });

  it('counts each limited route apart: captchas are not logins', async () => {
    const captcha = await second.inject({
      method: 'GET',
      url: '/api/captcha',
      remoteAddress: '198.51.100.7',
    });
    expect(captcha.statusCode).toBe(200);
  });

  it('limits new captchas per address to CAPTCHA_RATE_LIMIT_PER_MINUTE', async () => {
    const captcha = (app: FastifyInstance, remoteAddress: string) =>
      app.inject({ method: 'GET', url: '/api/captcha', remoteAddress });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await captcha(i % 2 ? second : first, '198.51.100.9')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await captcha(first, '198.51.100.10')).statusCode).toBe(200);
  });

  it('starts a window again once it has ended', async () => {
    const repo = t.context.repos.rateLimits;
    const now = Date.now();
    expect(await repo.hit('test|a', now, 1000)).toEqual({ hits: 1, windowEnds: now + 1000 });
    expect((await repo.hit('test|a', now + 10, 1000)).hits).toBe(2);
    expect(await repo.hit('test|a', now + 1000, 1000)).toEqual({ hits: 1, windowEnds: now + 2000 });
    await repo.purgeExpired(now + 5000);
    expect((await repo.hit('test|a', now + 5000, 1000)).hits).toBe(1);
  });
});
