import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DIALECTS, type TestContext } from '../../../test/helpers.ts';

describe.each(DIALECTS)('repositories on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it.runIf(dialect === 'postgres')(
    'keeps working when the server ends idle connections (a restart, a failover)',
    async () => {
      const db = t.context.database.db;
      const one = sql<{ n: number }>`select 1 as n`;
      // Two pooled connections, then one of them ends the other.
      await Promise.all([one.execute(db), one.execute(db), one.execute(db)]);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
                where datname = current_database() and pid <> pg_backend_pid()`.execute(db);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await one.execute(db)).rows[0]!.n).toBe(1);
    },
  );

  it('creates a user with roles and finds it by name and phone', async () => {
    const { users } = t.context.repos;
    const id = await users.create(
      { login_name: 'zhangsan', password_hash: 'h', phone: '13900000001', real_name: '张三' },
      ['reader', 'printAdmin'],
      t.context.database.db,
    );
    const byName = await users.findByLoginName('zhangsan');
    expect(byName?.id).toBe(id);
    expect(byName?.roles.sort()).toEqual(['printAdmin', 'reader']);
    expect((await users.findByPhone('13900000001'))?.login_name).toBe('zhangsan');
    expect(await users.findByLoginName('nobody')).toBeUndefined();
  });

  it('refuses a second user with the same login name or phone', async () => {
    const { users } = t.context.repos;
    await users.create(
      { login_name: 'lisi', password_hash: 'h', phone: '13900000002' },
      ['reader'],
      t.context.database.db,
    );
    await expect(
      users.create(
        { login_name: 'lisi', password_hash: 'h', phone: '13900000003' },
        [],
        t.context.database.db,
      ),
    ).rejects.toThrow();
    await expect(
      users.create(
        { login_name: 'lisi2', password_hash: 'h', phone: '13900000002' },
        [],
        t.context.database.db,
      ),
    ).rejects.toThrow();
  });

  it('rolls back every write of a transaction that fails', async () => {
    const { users } = t.context.repos;
    await expect(
      t.context.database.db.transaction().execute(async (tx) => {
        await users.create({ login_name: 'wangwu', password_hash: 'h' }, ['reader'], tx);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await users.findByLoginName('wangwu')).toBeUndefined();
  });

  it('counts failed logins per name and client in a window, locks one client, and forgets', async () => {
    const { users } = t.context.repos;
    const t0 = '2026-06-01T08:00:00.000Z';
    const t1 = '2026-06-01T08:01:00.000Z';
    const before = '2026-06-01T07:45:00.000Z';
    expect(await users.recordLoginFailure('zhaoliu', '198.51.100.1', t0, before)).toBe(1);
    expect(await users.recordLoginFailure('zhaoliu', '198.51.100.1', t1, before)).toBe(2);
    expect(await users.recordLoginFailure('zhaoliu', '*', t1, before)).toBe(1);
    // A window that started before `windowStart` starts afresh.
    expect(await users.recordLoginFailure('zhaoliu', '198.51.100.1', t1, '2026-06-01T08:00:30.000Z')).toBe(1);
    await users.lockLogin('zhaoliu', '198.51.100.1', '2030-01-01T00:00:00.000Z', t1);
    const counts = await users.loginFailures('zhaoliu', '198.51.100.1');
    expect(counts.client).toMatchObject({ failures: 0, locked_until: '2030-01-01T00:00:00.000Z' });
    expect(counts.all).toMatchObject({ failures: 1, window_started_at: t1 });
    expect(await users.loginFailures('zhaoliu', '198.51.100.2')).toEqual({ all: counts.all });
    await users.purgeLoginFailures('2026-06-01T09:00:00.000Z', '2026-06-01T09:00:00.000Z');
    // The lock still runs, so its row stays; the count without a lock goes.
    expect(await users.loginFailures('zhaoliu', '198.51.100.1')).toEqual({ client: counts.client });
    await users.clearLoginFailures('zhaoliu', undefined, t.context.database.db);
    expect(await users.loginFailures('zhaoliu', '198.51.100.1')).toEqual({});
  });

  it('finds only live sessions and revokes them', async () => {
    const { users, sessions } = t.context.repos;
    const id = await users.create(
      { login_name: 'sess', password_hash: 'h' },
      ['reader'],
      t.context.database.db,
    );
    await sessions.create({
      tokenHash: 'a'.repeat(64),
      userId: id,
      expiresAt: '2030-01-01T00:00:00.000Z',
      ip: null,
      userAgent: null,
    });
    await sessions.create({
      tokenHash: 'b'.repeat(64),
      userId: id,
      expiresAt: '2020-01-01T00:00:00.000Z',
      ip: null,
      userAgent: null,
    });
    const now = '2026-01-01T00:00:00.000Z';
    expect(await sessions.findActive('a'.repeat(64), now)).toBeDefined();
    expect(await sessions.findActive('b'.repeat(64), now)).toBeUndefined();
    expect(await sessions.revokeAllForUser(id, t.context.database.db)).toBe(2);
    expect(await sessions.findActive('a'.repeat(64), now)).toBeUndefined();
  });

  it('lets a captcha be consumed once and never after expiry', async () => {
    const { captchas } = t.context.repos;
    await captchas.create({
      id: 'c1',
      answerHash: 'x',
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-01T00:05:00.000Z',
    });
    expect(await captchas.consume('c1', '2026-01-01T00:01:00.000Z')).toBe('x');
    expect(await captchas.consume('c1', '2026-01-01T00:01:00.000Z')).toBeUndefined();
    await captchas.create({
      id: 'c2',
      answerHash: 'y',
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-01T00:05:00.000Z',
    });
    expect(await captchas.consume('c2', '2026-01-01T00:06:00.000Z')).toBeUndefined();
  });

  it('replaces an SMS code with a newer one and consumes it once', async () => {
    const { sms } = t.context.repos;
    const base = {
      phone: '13900000009',
      purpose: 'register',
      ip: '10.0.0.1',
      expiresAt: '2026-01-01T00:05:00.000Z',
    };
    await sms.createCode({ ...base, codeHash: 'old', createdAt: '2026-01-01T00:00:00.000Z' });
    await sms.createCode({ ...base, codeHash: 'new', createdAt: '2026-01-01T00:01:00.000Z' });
    const live = await sms.findLive('13900000009', 'register');
    expect(live?.code_hash).toBe('new');
    expect(await sms.countSince({ phone: '13900000009' }, '2025-12-31T00:00:00.000Z')).toBe(2);
    expect(await sms.countSince({ ip: '10.0.0.1' }, '2026-01-01T00:00:30.000Z')).toBe(1);
    expect(await sms.consume(live!.id, '2026-01-01T00:02:00.000Z')).toBe(true);
    expect(await sms.consume(live!.id, '2026-01-01T00:02:00.000Z')).toBe(false);
    expect(await sms.findLive('13900000009', 'register')).toBeUndefined();
  });

  it('stores settings as JSON and overwrites them', async () => {
    const { settings } = t.context.repos;
    await settings.set('requireRealName', false, t.context.database.db);
    await settings.set('siteName', '某图书馆', t.context.database.db);
    await settings.set('siteName', '另一图书馆', t.context.database.db);
    expect(await settings.getAll()).toMatchObject({ requireRealName: false, siteName: '另一图书馆' });
  });

  it('keeps single-sign-on nonces single use', async () => {
    const { ssoNonces } = t.context.repos;
    expect(await ssoNonces.use('nonce-12345', '2026-01-01T00:00:00.000Z')).toBe(true);
    expect(await ssoNonces.use('nonce-12345', '2026-01-01T00:00:01.000Z')).toBe(false);
  });
});
