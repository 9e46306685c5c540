import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_LIMITS, ApiTokenList, CreatedApiToken, MSG, V1Whoami } from '@guji/shared';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { makeReader } from '../../../test/factories.ts';
import { sha256 } from '../../lib/crypto.ts';

/** Outside the reading room (the test config's reading room is loopback). */
const OUTSIDE = '203.0.113.9';

describe.each(DIALECTS)('personal API tokens (%s)', (dialect) => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
  });
  afterAll(async () => h.close());

  const mine = (cookie: string) => ({
    list: () => h.request({ method: 'GET', url: '/api/me/api-tokens', cookie }),
    create: (name: unknown) =>
      h.request({ method: 'POST', url: '/api/me/api-tokens', cookie, body: { name } }),
    revoke: (id: number) => h.request({ method: 'DELETE', url: `/api/me/api-tokens/${id}`, cookie }),
  });
  const whoami = (secret: string) =>
    h.request({
      method: 'GET',
      url: '/api/v1/whoami',
      headers: { authorization: `Bearer ${secret}` },
      remoteAddress: OUTSIDE,
    });

  it('a token is created with its secret shown once, stored hashed, listed by prefix, used, and revoked at once', async () => {
    const alice = await makeReader(h, 'tokalice');
    const created = await mine(alice.cookie).create('  论文数据  ');
    expect(created.statusCode).toBe(200);
    expect(created.headers['cache-control']).toBe('no-store');
    const token = CreatedApiToken.parse(created.json());
    expect(token.name).toBe('论文数据');
    expect(token.secret).toMatch(/^gj_[A-Za-z0-9_-]{43}$/);
    expect(token.prefix).toBe(token.secret.slice(0, 8));
    expect(token.lastUsedAt).toBeNull();

    // Only the hash is stored; the secret appears nowhere in the database.
    const row = await h.context.database.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', token.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(token.secret));
    expect(JSON.stringify(row)).not.toContain(token.secret);

    // The list never carries the secret.
    const listed = mine(alice.cookie).list();
    const list = ApiTokenList.parse((await listed).json());
    expect(JSON.stringify(list)).not.toContain(token.secret);
    expect(list).toMatchObject({ maxTokens: API_TOKEN_LIMITS.perUser, tokenRateLimitPerMinute: 120 });
    expect(list.tokens).toEqual([
      { id: token.id, name: '论文数据', prefix: token.prefix, createdAt: token.createdAt, lastUsedAt: null },
    ]);

    // The token acts as its user; its use is recorded.
    const who = await whoami(token.secret);
    expect(who.statusCode).toBe(200);
    expect(V1Whoami.parse(who.json())).toEqual({
      user: alice.loginName,
      token: { name: '论文数据', prefix: token.prefix },
      rateLimit: { limit: 120, windowSeconds: 60 },
      limits: { tokenPerMinute: 120, anonymousPerMinute: 30 },
    });
    const used = ApiTokenList.parse((await mine(alice.cookie).list()).json()).tokens[0]!;
    expect(used.lastUsedAt).toBe(h.clock.now().toISOString());

    const revoked = await mine(alice.cookie).revoke(token.id);
    expect(revoked.json()).toEqual({ ok: true, message: '令牌已撤销' });
    const after = await whoami(token.secret);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'API_TOKEN_INVALID' });
    expect(after.headers['www-authenticate']).toBe('Bearer realm="guji", error="invalid_token"');
    expect(ApiTokenList.parse((await mine(alice.cookie).list()).json()).tokens).toEqual([]);
    expect((await mine(alice.cookie).revoke(token.id)).statusCode).toBe(404);
  });

  it("another user's token can be neither listed nor revoked, and keeps working", async () => {
    const alice = await makeReader(h, 'tokowner');
    const mallory = await makeReader(h, 'tokthief');
    const token = CreatedApiToken.parse((await mine(alice.cookie).create('我的')).json());
    expect(ApiTokenList.parse((await mine(mallory.cookie).list()).json()).tokens).toEqual([]);
    const stolen = await mine(mallory.cookie).revoke(token.id);
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toMatchObject({ code: 'NOT_FOUND', message: 'API 令牌不存在或已撤销' });
    expect((await whoami(token.secret)).json()).toMatchObject({ user: alice.loginName });
  });

  it('at most five tokens a user; names are checked and nothing is stored for a bad one', async () => {
    const bob = await makeReader(h, 'toklimit');
    for (let i = 1; i <= API_TOKEN_LIMITS.perUser; i++)
      expect((await mine(bob.cookie).create(`令牌${i}`)).statusCode).toBe(200);
    const sixth = await mine(bob.cookie).create('第六个');
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json()).toEqual({
      code: 'API_TOKEN_LIMIT',
      message: '每位用户最多 5 个 API 令牌，请先撤销不再使用的令牌',
    });

    // Asked for at once, still at most five (the user's row is the lock).
    const dave = await makeReader(h, 'tokrace');
    const answers = await Promise.all(
      Array.from({ length: API_TOKEN_LIMITS.perUser + 3 }, (_, i) => mine(dave.cookie).create(`并发${i}`)),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(API_TOKEN_LIMITS.perUser);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(3);
    expect(ApiTokenList.parse((await mine(dave.cookie).list()).json()).tokens).toHaveLength(
      API_TOKEN_LIMITS.perUser,
    );

    const carol = await makeReader(h, 'tokname');
    for (const [name, message] of [
      ['', '请填写令牌名称'],
      ['   ', '请填写令牌名称'],
      [undefined, '请填写令牌名称'],
      ['长'.repeat(31), '令牌名称不能超过 30 个字'],
      ['<script>', MSG.nameUnsafeChars],
      ['a\u202eb', MSG.nameUnsafeChars],
    ] as const) {
      const refused = await mine(carol.cookie).create(name);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ message });
    }
    expect(ApiTokenList.parse((await mine(carol.cookie).list()).json()).tokens).toEqual([]);
  });

  it('tokens are managed only with a session: not anonymously, not with a token, not from another site', async () => {
    const dave = await makeReader(h, 'toksession');
    const token = CreatedApiToken.parse((await mine(dave.cookie).create('脚本')).json());
    const bearer = { authorization: `Bearer ${token.secret}` };
    expect((await h.request({ method: 'GET', url: '/api/me/api-tokens' })).statusCode).toBe(401);
    expect((await h.request({ method: 'GET', url: '/api/me/api-tokens', headers: bearer })).statusCode).toBe(
      401,
    );
    const minted = await h.request({
      method: 'POST',
      url: '/api/me/api-tokens',
      headers: bearer,
      body: { name: '自己生自己' },
    });
    expect(minted.statusCode).toBe(401);
    const crossSite = await h.request({
      method: 'POST',
      url: '/api/me/api-tokens',
      cookie: dave.cookie,
      headers: { origin: 'https://evil.example' },
      body: { name: '跨站' },
    });
    expect(crossSite.statusCode).toBe(403);
    expect(ApiTokenList.parse((await mine(dave.cookie).list()).json()).tokens).toHaveLength(1);
  });

  it("a disabled user's tokens stop working at once, and work again when the account is restored", async () => {
    const erin = await makeReader(h, 'tokdisabled');
    const token = CreatedApiToken.parse((await mine(erin.cookie).create('停用测试')).json());
    const user = (await h.context.repos.users.findByLoginName(erin.loginName))!;
    await h.context.repos.users.update(user.id, { disabled: 1 }, h.context.database.db);
    const refused = await whoami(token.secret);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'API_TOKEN_INVALID' });
    await h.context.repos.users.update(user.id, { disabled: 0 }, h.context.database.db);
    expect((await whoami(token.secret)).statusCode).toBe(200);
  });

  it('malformed and unknown tokens are refused, never taken as anonymous', async () => {
    for (const authorization of [
      'Bearer',
      'Basic dXNlcjpwYXNz',
      `Bearer gj_${'x'.repeat(43)}`,
      'Bearer abc',
    ]) {
      const refused = await h.request({
        method: 'GET',
        url: '/api/v1/whoami',
        headers: { authorization },
        remoteAddress: '203.0.113.77',
      });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ code: 'API_TOKEN_INVALID' });
    }
  });
});
