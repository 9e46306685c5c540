import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '@guji/shared';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { redactUrl } from '../../http/log-redact.ts';
import { makeReader } from '../../../test/factories.ts';

const OUTSIDE = '203.0.113.9';

describe.each(DIALECTS)('reading-room terminals over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  let admin: string;
  let reader: string;
  beforeAll(async () => {
    h = await createHttpHarness(dialect, { READING_ROOM_CIDRS: '10.8.0.0/16' });
    await h.context.services.auth.upsertAccount({
      loginName: 'termadmin',
      password: GOOD_PASSWORD,
      roles: ['reader', 'admin'],
    });
    admin = (await h.login('termadmin', GOOD_PASSWORD)).cookie;
    reader = (await makeReader(h, 'termreader')).cookie;
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
    // The cookie is not the token (issue 30 item 9): the token is in the activation link, the cookie apart.
    expect(setCookie).not.toContain(terminal.token);
    const cookie = /^(guji_terminal=[^;]+)/.exec(setCookie)![1]!;
    // A browser activated before keeps the token itself as its cookie: still honoured until revoked.
    const older = `guji_terminal=${terminal.token}`;
    expect(await session(older)).toBe(true);

    expect(await session()).toBe(false);
    expect(await session(cookie)).toBe(true);
    // Full-text search there is for signed-in readers (issue 13 item 11).
    const search = await h.request({
      method: 'GET',
      url: '/api/search/full-text?text=學',
      remoteAddress: OUTSIDE,
      cookie: `${cookie}; ${reader}`,
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
    expect(await session(older)).toBe(false);
    const again = await h.request({ method: 'GET', url: terminal.activationPath, remoteAddress: OUTSIDE });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ code: 'TERMINAL_INVALID', message: '终端令牌无效或已被撤销' });
  });

  it('refuses forged tokens, and lets only administrators issue them', async () => {
    expect(await session('guji_terminal=forged-token')).toBe(false);
    expect(await session(`guji_terminal=1.${'A'.repeat(43)}`)).toBe(false);
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

  it('reading-room address ranges: from the environment until an administrator saves others; checked; staff only', async () => {
    const fromAddress = async (remoteAddress: string) =>
      (await h.request({ method: 'GET', url: '/api/session', remoteAddress })).json<{
        readingRoom: boolean;
      }>().readingRoom;
    const addresses = (cookie: string) =>
      h.request({
        method: 'GET',
        url: '/api/admin/reading-room/addresses',
        cookie,
        remoteAddress: '10.8.3.4',
      });
    const save = (cookie: string, cidrs: string[]) =>
      h.request({ method: 'PUT', url: '/api/admin/reading-room/addresses', cookie, body: { cidrs } });

    expect((await addresses(reader)).statusCode).toBe(403);
    expect((await save(reader, ['0.0.0.0/0'])).statusCode).toBe(403);
    expect((await addresses(admin)).json()).toEqual({
      cidrs: ['10.8.0.0/16'],
      fromEnvironment: true,
      clientIp: '10.8.3.4',
      inReadingRoom: true,
    });
    expect(await fromAddress('10.8.3.4')).toBe(true);
    expect(await fromAddress('192.168.7.20')).toBe(false);

    for (const bad of ['10.9.0.0/33', 'reading-room', '10.9.0.0/x', '2001:db8::/129']) {
      const refused = await save(admin, ['192.168.7.0/24', bad]);
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ message: string }>().message).toBe(
        MSG.readingRoomCidrInvalid.replace('{cidr}', bad),
      );
    }
    expect(await fromAddress('10.8.3.4')).toBe(true); // nothing changed
    // Ranges that would make the Internet a reading room (issue 30).
    for (const [wide, min] of [
      ['0.0.0.0/0', 8],
      ['10.0.0.0/7', 8],
      ['::/0', 16],
      ['2001::/15', 16],
    ] as const) {
      const refused = await save(admin, [wide]);
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ message: string }>().message).toBe(
        MSG.readingRoomCidrTooWide.replace('{cidr}', wide).replace('{min}', String(min)),
      );
    }
    expect(await fromAddress('192.168.7.20')).toBe(false);
    expect(await fromAddress('10.8.3.4')).toBe(true);

    expect((await save(admin, [' 192.168.7.0/24 ', '', '2001:db8::/32'])).json()).toEqual({
      ok: true,
      message: MSG.readingRoomCidrsSaved,
    });
    expect(await fromAddress('192.168.7.20')).toBe(true);
    expect(await fromAddress('2001:db8::5')).toBe(true);
    expect(await fromAddress('10.8.3.4')).toBe(false);
    expect((await addresses(admin)).json()).toMatchObject({
      cidrs: ['192.168.7.0/24', '2001:db8::/32'],
      fromEnvironment: false,
    });
    const log = (
      await h.request({ method: 'GET', url: '/api/admin/audit?action=readingroom.addresses', cookie: admin })
    ).json<{ records: Array<{ before: unknown; after: unknown }> }>();
    expect(log.records[0]).toMatchObject({
      before: ['10.8.0.0/16'],
      after: ['192.168.7.0/24', '2001:db8::/32'],
    });
    // Back to the environment's range for the other tests.
    await save(admin, ['10.8.0.0/16']);
  });

  it('a change and its audit record are one transaction: when the record cannot be written, nothing changed', async () => {
    const breakAuditOnce = () =>
      vi.spyOn(h.context.services.admin, 'record').mockRejectedValueOnce(new Error('audit log unavailable'));
    const terminals = async () =>
      (await h.request({ method: 'GET', url: '/api/admin/terminals', cookie: admin })).json<{
        records: Array<{ id: number; name: string; revokedAt: string | null }>;
      }>().records;
    try {
      breakAuditOnce();
      const refused = await h.request({
        method: 'POST',
        url: '/api/admin/terminals',
        cookie: admin,
        body: { name: '未記錄的終端' },
      });
      expect(refused.statusCode).toBe(500);
      expect((await terminals()).map((t) => t.name)).not.toContain('未記錄的終端');

      const created = (
        await h.request({
          method: 'POST',
          url: '/api/admin/terminals',
          cookie: admin,
          body: { name: '三楼' },
        })
      ).json<{ id: number; token: string }>();
      breakAuditOnce();
      const revoke = await h.request({
        method: 'DELETE',
        url: `/api/admin/terminals/${created.id}`,
        cookie: admin,
      });
      expect(revoke.statusCode).toBe(500);
      expect((await terminals()).find((t) => t.id === created.id)?.revokedAt).toBeNull();

      breakAuditOnce();
      const save = await h.request({
        method: 'PUT',
        url: '/api/admin/reading-room/addresses',
        cookie: admin,
        body: { cidrs: ['192.0.2.0/24'] },
      });
      expect(save.statusCode).toBe(500);
      const addresses = await h.request({
        method: 'GET',
        url: '/api/admin/reading-room/addresses',
        cookie: admin,
      });
      expect(addresses.json()).toMatchObject({ cidrs: ['10.8.0.0/16'] });
      expect(
        (await h.request({ method: 'GET', url: '/api/session', remoteAddress: '192.0.2.7' })).json<{
          readingRoom: boolean;
        }>().readingRoom,
      ).toBe(false);
    } finally {
      vi.restoreAllMocks();
    }
  });
  it('never writes a terminal token into the request log', async () => {
    const created = await h.request({
      method: 'POST',
      url: '/api/admin/terminals',
      cookie: admin,
      body: { name: '日誌試驗機' },
    });
    const { token, activationPath } = created.json<{ token: string; activationPath: string }>();
    const lines: string[] = [];
    // The tests' configuration logs nothing; here the request log is on, as it is in production.
    const context = { ...h.context, config: { ...h.context.config, logLevel: 'info' } };
    const app = await buildApp(context, { logStream: { write: (line) => lines.push(line) } });
    try {
      const activation = await app.inject({ method: 'GET', url: activationPath, remoteAddress: OUTSIDE });
      expect(activation.statusCode).toBe(303);
      const log = lines.join('');
      expect(log).toContain('/api/reading-room/activate?token=[redacted]');
      expect(log).not.toContain(token);
    } finally {
      await app.close();
    }
    expect(redactUrl('/x?a=1&TOKEN=abc&access_token=d&b=2')).toBe(
      '/x?a=1&TOKEN=[redacted]&access_token=[redacted]&b=2',
    );
  });
});
