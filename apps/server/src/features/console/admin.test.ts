import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { makeReader, type MadeUser } from '../../../test/factories.ts';

describe.each(DIALECTS)('administrator tools and system endpoints on %s', (dialect) => {
  let h: HttpHarness;
  let plain: MadeUser;
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    await h.context.services.auth.upsertAccount({
      loginName: 'boss',
      password: GOOD_PASSWORD,
      roles: ['reader', 'admin'],
    });
    plain = await makeReader(h, 'plain');
  });
  afterAll(async () => h.close());

  it('shows the SMS outbox to administrators only', async () => {
    const reader = plain;
    expect(
      (await h.request({ method: 'GET', url: '/api/admin/sms-outbox', cookie: reader.cookie })).statusCode,
    ).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/admin/sms-outbox' })).statusCode).toBe(401);
    const admin = await h.login('boss', GOOD_PASSWORD);
    const response = await h.request({
      method: 'GET',
      url: `/api/admin/sms-outbox?phone=${plain.phone}`,
      cookie: admin.cookie,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ records: Array<{ text: string }> }>().records[0]?.text).toMatch(/验证码为 \d{6}/);
  });

  it('lets administrators change the footer texts, which everyone then reads', async () => {
    const admin = await h.login('boss', GOOD_PASSWORD);
    const reader = plain;
    const { filingNumber, fundingNote } = (await h.request({ method: 'GET', url: '/api/site' })).json<{
      filingNumber: string;
      fundingNote: string;
    }>();
    const body = { filingNumber: '京ICP备00000000号', fundingNote: '本项目由古籍保护经费资助' };
    expect(
      (await h.request({ method: 'PUT', url: '/api/admin/site', cookie: reader.cookie, body })).statusCode,
    ).toBe(403);
    expect(
      (await h.request({ method: 'PUT', url: '/api/admin/site', cookie: admin.cookie, body })).statusCode,
    ).toBe(200);
    expect((await h.request({ method: 'GET', url: '/api/site' })).json()).toMatchObject(body);
    // The texts as they were, for the tests after this one.
    const restored = { filingNumber, fundingNote };
    expect(
      (await h.request({ method: 'PUT', url: '/api/admin/site', cookie: admin.cookie, body: restored }))
        .statusCode,
    ).toBe(200);
  });

  it('gives administrators the AdminPrint channel and readers not', async () => {
    const admin = await h.login('boss', GOOD_PASSWORD);
    expect(admin.response.json<{ user: { channels: string[] } }>().user.channels).toContain('AdminPrint');
  });

  it('reports health of the database and the job queue', async () => {
    const response = await h.request({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'ok',
      database: { ok: true, dialect },
      jobs: { workerRunning: false },
    });
  });

  it('serves the OpenAPI document with the account endpoints', async () => {
    const response = await h.request({ method: 'GET', url: '/api/docs/json' });
    const doc = response.json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/login',
        '/api/auth/register',
        '/api/sms/send',
        '/api/me',
        '/api/health',
      ]),
    );
  });

  it('sends security headers and a JSON 404 for unknown API paths', async () => {
    const response = await h.request({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(String(response.headers['content-security-policy'])).toContain("default-src 'self'");
  });

  it('hides the details of server errors', async () => {
    const broken = await createHttpHarness(dialect);
    try {
      await broken.context.database.destroy();
      const response = await broken.request({ method: 'GET', url: '/api/me', cookie: 'guji_session=abc' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ code: 'INTERNAL', message: '服务器异常' });
    } finally {
      // Closing again is harmless; it removes the test's database and data folder.
      await broken.close();
    }
  });
});
