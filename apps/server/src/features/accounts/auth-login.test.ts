/** Accounts over HTTP: logging in, captchas, lock-outs and rate limits, alike for unknown names. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directUser, expectNoSecretsSent, loginFrom, newUser, nextPhone } from '../../../test/accounts.ts';
import { createHttpHarness, GOOD_PASSWORD, sessionCookie, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';

describe.each(DIALECTS)('login over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
  });
  afterAll(async () => h.close());

  it('refuses a wrong captcha and a captcha used twice', async () => {
    const { loginName } = await newUser(h);
    const wrong = await h.request({
      method: 'POST',
      url: '/api/auth/login',
      body: {
        loginName,
        password: GOOD_PASSWORD,
        captchaId: (await h.captcha()).captchaId,
        captchaCode: 'zzzz',
      },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'CAPTCHA_INVALID', message: '图形验证码错误' });

    const captcha = await h.captcha();
    const first = await h.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { loginName, password: GOOD_PASSWORD, ...captcha },
    });
    expect(first.statusCode).toBe(200);
    const reused = await h.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { loginName, password: GOOD_PASSWORD, ...captcha },
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ code: 'CAPTCHA_EXPIRED' });
  });

  it('refuses an expired captcha', async () => {
    const { loginName } = await newUser(h);
    const captcha = await h.captcha();
    h.clock.advance(301);
    const response = await h.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { loginName, password: GOOD_PASSWORD, ...captcha },
    });
    expect(response.json()).toMatchObject({ code: 'CAPTCHA_EXPIRED' });
  });

  it('flags a weak password at login', async () => {
    await h.register({ loginName: 'weakling', phone: nextPhone(), loginPassword: 'abc12345' });
    const { response } = await h.login('weakling', 'abc12345');
    expect(response.json()).toMatchObject({ weakPassword: true });
  });

  it('gives the same answer for an unknown user and a wrong password', async () => {
    const { loginName } = await newUser(h);
    const unknown = await h.login('no-such-user', GOOD_PASSWORD);
    const wrong = await h.login(loginName, 'Wrong#0000');
    expect(unknown.response.statusCode).toBe(401);
    expect(unknown.response.json()).toEqual(wrong.response.json());
  });

  it('locks a name for the address that guessed wrong 5 times, not for the owner elsewhere', async () => {
    const { loginName } = await directUser(h, 'victim');
    const attacker = '203.0.113.66';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await loginFrom(h, loginName, 'Wrong#0000', attacker)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 423]);
    // From the offending address even the right password waits out the lock…
    const fromAttacker = await loginFrom(h, loginName, GOOD_PASSWORD, attacker);
    expect(fromAttacker.statusCode).toBe(423);
    expect(fromAttacker.json()).toEqual({
      code: 'ACCOUNT_LOCKED',
      message: '登录失败次数过多，请15分钟后再试',
    });
    // …while the owner, from another address, logs in at once.
    const owner = await loginFrom(h, loginName, GOOD_PASSWORD, '198.51.100.7');
    expect(owner.statusCode, owner.body).toBe(200);
    expect(sessionCookie(owner)).not.toBe('');
    h.clock.advance(15 * 60 + 1);
    expect((await loginFrom(h, loginName, GOOD_PASSWORD, attacker)).statusCode).toBe(200);
  });

  it('cannot lock an administrator out: the account-wide count only slows attempts down', async () => {
    await h.context.services.auth.upsertAccount({
      loginName: 'chief',
      password: GOOD_PASSWORD,
      roles: ['reader', 'admin'],
    });
    // Ten wrong passwords from two addresses (both now locked out of the name)…
    for (const address of ['203.0.113.10', '203.0.113.11'])
      for (let i = 0; i < 5; i++) await loginFrom(h, 'chief', 'Wrong#0000', address);
    expect((await loginFrom(h, 'chief', GOOD_PASSWORD, '203.0.113.10')).statusCode).toBe(423);
    // …and the administrator still logs in from a third (held back briefly, never refused).
    expect((await loginFrom(h, 'chief', GOOD_PASSWORD, '198.51.100.20')).statusCode).toBe(200);
  });

  it('counts an IPv6 client by its /64, so rotating addresses does not reset the count', async () => {
    const { loginName } = await directUser(h);
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++)
      statuses.push((await loginFrom(h, loginName, 'Wrong#0000', `2001:db8:1:2::${i}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 423]);
    expect((await loginFrom(h, loginName, GOOD_PASSWORD, '2001:db8:1:2:ffff::9')).statusCode).toBe(423);
    expect((await loginFrom(h, loginName, GOOD_PASSWORD, '2001:db8:1:3::1')).statusCode).toBe(200);
  });

  it('gives an unknown name the same answers as a known one, the lock-out included', async () => {
    const { loginName } = await directUser(h);
    const address = '203.0.113.77';
    const known: Array<[number, unknown]> = [];
    const unknown: Array<[number, unknown]> = [];
    for (let i = 0; i < 6; i++) {
      const k = await loginFrom(h, loginName, 'Wrong#0000', address);
      known.push([k.statusCode, k.json()]);
      const u = await loginFrom(h, 'no-such-user-77', 'Wrong#0000', address);
      unknown.push([u.statusCode, u.json()]);
    }
    expect(unknown).toEqual(known);
    expect(unknown.map(([status]) => status)).toEqual([401, 401, 401, 401, 423, 423]);
  });

  it('does not confirm a disabled account, not even to its right password', async () => {
    const { loginName } = await directUser(h);
    const user = await h.context.repos.users.findByLoginName(loginName);
    await h.context.repos.users.update(user!.id, { disabled: 1 }, h.context.database.db);
    const right = await loginFrom(h, loginName, GOOD_PASSWORD, '198.51.100.30');
    const wrong = await loginFrom(h, loginName, 'Wrong#0000', '198.51.100.31');
    expect(right.statusCode).toBe(401);
    expect(right.json()).toEqual(wrong.json());
    expect(right.json()).toEqual({ code: 'BAD_CREDENTIALS', message: '用户名或密码错误' });
    expect(sessionCookie(right)).toBe('');
  });

  it('never sends a password hash or an SMS code to a client', async () => {
    await expectNoSecretsSent(h);
  });
});

describe.each(DIALECTS)('rate limiting on %s', (dialect) => {
  it('answers 429 after the per-minute limit of login attempts from one address', async () => {
    const h = await createHttpHarness(dialect, { AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await h.login('nobody', 'Wrong#0000')).response.statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
    await h.close();
  });
});
