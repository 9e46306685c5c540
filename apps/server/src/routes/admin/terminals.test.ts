import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';

const OUTSIDE = '203.0.113.9';

describe('reading-room terminals over HTTP', () => {
  let h: HttpHarness;
  let admin: string;
  let reader: string;
  beforeAll(async () => {
    h = await createHttpHarness('sqlite', { READING_ROOM_CIDRS: '10.8.0.0/16' });
    await h.context.services.auth.upsertAccount({
      loginName: 'termadmin',
      password: GOOD_PASSWORD,
      roles: ['reader', 'admin'],
    });
    admin = (await h.login('termadmin', GOOD_PASSWORD)).cookie;
    await h.register({ loginName: 'termreader', phone: '13400000031' });
    reader = (await h.login('termreader', GOOD_PASSWORD)).cookie;
  });
  afterAll(async () => h.close());

  const session = async (cookie?: string) =>
    (
      await h.request({
        method: 'GET',
        url: '/api/session',
        remoteAddress: OUTSIDE,
        ...(cookie ? { cookie } : {}),
      })
    ).json<{
      readingRoom: boolean;
    }>().readingRoom;

  it('puts a browser in the reading room with an administrator’s token until it is revoked', async () => {
    const created = await h.request({
      method: 'POST',
      url: '/api/admin/terminals',
      cookie: admin,
      body: { name: '二楼阅览室 3 号机' },
    });
    expect(created.statusCode).toBe(200);
    const terminal = created.json<{ id: number; token: string; activationPath: string }>();
    expect(terminal.activationPath).toBe(`/api/reading-room/activate?token=${terminal.token}`);

    const activation = await h.request({
      method: 'GET',
      url: terminal.activationPath,
      remoteAddress: OUTSIDE,
    });
    expect(activation.statusCode).toBe(303);
    expect(activation.headers.location).toBe('/');
    const setCookie = String(activation.headers['set-cookie']);
    expect(setCookie).toContain('guji_terminal=');
    expect(setCookie).toContain('HttpOnly');
    const cookie = `guji_terminal=${terminal.token}`;

    expect(await session()).toBe(false);
    expect(await session(cookie)).toBe(true);
    const search = await h.request({
      method: 'GET',
      url: '/api/search/full-text?text=學',
      remoteAddress: OUTSIDE,
      cookie,
    });
    expect(search.statusCode).toBe(200);

    const list = (await h.request({ method: 'GET', url: '/api/admin/terminals', cookie: admin })).json<{
      records: Array<{ name: string; lastSeenAt: string | null; revokedAt: string | null }>;
    }>();
    expect(list.records[0]).toMatchObject({ name: '二楼阅览室 3 号机', revokedAt: null });
    expect(list.records[0]!.lastSeenAt).not.toBeNull();
    expect(JSON.stringify(list)).not.toContain(terminal.token);

    expect(
      (await h.request({ method: 'DELETE', url: `/api/admin/terminals/${terminal.id}`, cookie: admin }))
        .statusCode,
    ).toBe(200);
    expect(await session(cookie)).toBe(false);
    const again = await h.request({ method: 'GET', url: terminal.activationPath, remoteAddress: OUTSIDE });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ code: 'TERMINAL_INVALID', message: '终端令牌无效或已被撤销' });
  });

  it('refuses forged tokens, and lets only administrators issue them', async () => {
    expect(await session('guji_terminal=forged-token')).toBe(false);
    expect(
      (
        await h.request({
          method: 'GET',
          url: '/api/reading-room/activate?token=forged',
          remoteAddress: OUTSIDE,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await h.request({ method: 'POST', url: '/api/admin/terminals', cookie: reader, body: { name: 'x' } }))
        .statusCode,
    ).toBe(403);
    expect(
      (await h.request({ method: 'POST', url: '/api/admin/terminals', body: { name: 'x' } })).statusCode,
    ).toBe(401);
    const empty = await h.request({
      method: 'POST',
      url: '/api/admin/terminals',
      cookie: admin,
      body: { name: ' ' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ message: string }>().message).toContain('请输入终端名称');
  });
});
