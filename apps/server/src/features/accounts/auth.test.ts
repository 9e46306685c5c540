import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { createHttpHarness, GOOD_PASSWORD, sessionCookie, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { signSso } from './auth.service.ts';

let phoneSeq = 0;
const nextPhone = () => `139${String(10_000_000 + phoneSeq++).padStart(8, '0')}`;

describe.each(DIALECTS)('accounts over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await createHttpHarness(dialect, { SSO_SECRET: 'sso-test-secret' });
  });
  afterAll(async () => h.close());

  let userSeq = 0;
  /** Registers a fresh user so each test stands alone. */
  async function newUser(prefix = 'user'): Promise<{ loginName: string; phone: string }> {
    const loginName = `${prefix}${userSeq++}`;
    const phone = nextPhone();
    const response = await h.register({ loginName, phone });
    expect(response.statusCode, response.body).toBe(200);
    return { loginName, phone };
  }

  it('registers with an SMS code, logs in and reports the session', async () => {
    const phone = nextPhone();
    const registered = await h.register({ loginName: 'reader1', phone });
    expect(registered.statusCode).toBe(200);
    const { response, cookie } = await h.login('reader1', GOOD_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      weakPassword: false,
      user: { loginName: 'reader1', phone, roles: ['reader'] },
    });
    expect(response.json<{ user: { channels: string[] } }>().user.channels).toContain('ChangePassword');
    expect(response.json<{ user: { channels: string[] } }>().user.channels).not.toContain('AdminPrint');
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const session = await h.request({ method: 'GET', url: '/api/session', cookie });
    expect(session.json()).toMatchObject({
      user: { loginName: 'reader1', idCard: '110***********002X' },
      readingRoom: true,
    });
  });

  it('refuses a wrong captcha and a captcha used twice', async () => {
    const { loginName } = await newUser();
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
    const { loginName } = await newUser();
    const captcha = await h.captcha();
    h.clock.advance(301);
    const response = await h.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { loginName, password: GOOD_PASSWORD, ...captcha },
    });
    expect(response.json()).toMatchObject({ code: 'CAPTCHA_EXPIRED' });
  });

  it('refuses an SMS code after 5 minutes', async () => {
    const phone = nextPhone();
    const code = await h.smsCode(phone, 'register');
    h.clock.advance(301);
    const response = await h.register({ loginName: 'late', phone, phoneCode: code });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'SMS_CODE_EXPIRED',
      message: '短信验证码已过期，请重新获取',
    });
  });

  it('voids an SMS code after 5 wrong guesses', async () => {
    const phone = nextPhone();
    const code = await h.smsCode(phone, 'register');
    const wrongCode = code === '000000' ? '111111' : '000000';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await h.register({ loginName: 'guesser', phone, phoneCode: wrongCode })).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    const right = await h.register({ loginName: 'guesser', phone, phoneCode: code });
    expect(right.statusCode).toBe(429);
    expect(right.json()).toMatchObject({ message: '短信验证码错误次数过多，请重新获取' });
  });

  it('makes the client wait out the countdown before another code', async () => {
    const phone = nextPhone();
    await h.smsCode(phone, 'register');
    const again = await h.request({
      method: 'POST',
      url: '/api/sms/send',
      body: { phone, purpose: 'register', ...(await h.captcha()) },
    });
    expect(again.statusCode).toBe(429);
    expect(again.json<{ message: string }>().message).toMatch(/^请\d+秒后再获取验证码$/);
    h.clock.advance(300);
    expect(await h.smsCode(phone, 'register')).toMatch(/^\d{6}$/);
  });

  it('refuses a duplicate login name and a duplicate phone', async () => {
    const phone = nextPhone();
    expect((await h.register({ loginName: 'twin', phone })).statusCode).toBe(200);
    const sameName = await h.register({ loginName: 'twin', phone: nextPhone() });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json()).toMatchObject({ code: 'LOGIN_NAME_TAKEN', message: '该用户名已被注册' });
    const samePhone = await h.request({
      method: 'POST',
      url: '/api/sms/send',
      body: { phone, purpose: 'register', ...(await h.captcha()) },
    });
    expect(samePhone.statusCode).toBe(409);
    expect(samePhone.json()).toMatchObject({ code: 'PHONE_TAKEN', message: '该手机号已被注册' });
  });

  it('registration tells no one which names or phones exist without the SMS code (issue 13 item 12)', async () => {
    const takenPhone = nextPhone();
    expect((await h.register({ loginName: 'enumtaken', phone: takenPhone })).statusCode).toBe(200);
    const answer = async (loginName: string, phone: string, phoneCode: string) => {
      const response = await h.register({ loginName, phone, phoneCode });
      return [response.statusCode, response.json<unknown>()];
    };
    const fresh = nextPhone();
    // No code was ever sent: the same answer whether the name or the phone is taken or not.
    const unknown = await answer('enumfresh', fresh, '123456');
    expect(unknown).toEqual([400, { code: 'SMS_CODE_MISSING', message: '请先获取短信验证码' }]);
    expect(await answer('enumtaken', fresh, '123456')).toEqual(unknown);
    expect(await answer('enumfresh', takenPhone, '123456')).toEqual(unknown);
    expect(await answer('enumtaken', takenPhone, '654321')).toEqual(unknown);
    // A code was sent (behind the captcha) but the guess is wrong: the same answer for either name.
    const phone = nextPhone();
    const code = await h.smsCode(phone, 'register');
    const wrong = code === '000000' ? '111111' : '000000';
    const wrongFresh = await answer('enumfresh', phone, wrong);
    expect(wrongFresh).toEqual([400, { code: 'SMS_CODE_INVALID', message: '短信验证码错误' }]);
    expect(await answer('enumtaken', phone, wrong)).toEqual(wrongFresh);
    // With the right code a taken name is named, and the code still serves the corrected name once.
    expect(await answer('enumtaken', phone, code)).toEqual([
      409,
      { code: 'LOGIN_NAME_TAKEN', message: '该用户名已被注册' },
    ]);
    expect((await h.register({ loginName: 'enumfixed', phone, phoneCode: code })).statusCode).toBe(200);
    expect(await answer('enumagain', phone, code)).toEqual(unknown);
    expect(await h.context.repos.users.findByLoginName('enumfresh')).toBeUndefined();
    expect(await h.context.repos.users.findByLoginName('enumagain')).toBeUndefined();
  });

  it('answers invalid registration fields with the spec’s messages and stores nothing', async () => {
    const phone = nextPhone();
    const cases: Array<[Record<string, string>, string]> = [
      [{ loginPassword: 'abcdefgh' }, MSG.passwordPattern],
      [{ loginPassword: 'Ab1' }, MSG.passwordPattern],
      [{ loginPassword: 'Abcdefgh12345678X' }, MSG.passwordPattern],
      [{ email: 'not-an-email' }, MSG.emailInvalid],
      [{ post: '' }, MSG.postRequired],
      [{ loginName: '' }, MSG.loginNameRequired],
      [{ realName: 'Zhang' }, MSG.realNameRequired],
      [{ idCard: '110105194912310021' }, MSG.idCardInvalid],
      [{ idCard: '110105194913310029' }, MSG.idCardInvalid],
    ];
    for (const [fields, message] of cases) {
      const response = await h.register({ loginName: 'invalid', phone, phoneCode: '123456', ...fields });
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
      expect(response.json<{ message: string }>().message, JSON.stringify(fields)).toBe(message);
    }
    const badPhone = await h.register({ loginName: 'invalid', phone: '12345', phoneCode: '123456' });
    expect(badPhone.json<{ message: string }>().message).toBe(MSG.phoneInvalid);
    const badCode = await h.register({ loginName: 'invalid', phone, phoneCode: '12ab56' });
    expect(badCode.json<{ message: string }>().message).toBe(MSG.smsCodeDigits);
    expect(await h.context.repos.users.findByLoginName('invalid')).toBeUndefined();
  });

  it('registers without real name and ID card when the site does not ask for them', async () => {
    await h.context.services.settings.update({ requireRealName: false });
    const response = await h.register({
      loginName: 'shortform',
      phone: nextPhone(),
      realName: '',
      idCard: '',
    });
    await h.context.services.settings.update({ requireRealName: true });
    expect(response.statusCode).toBe(200);
    expect((await h.context.repos.users.findByLoginName('shortform'))?.real_name).toBeNull();
  });

  it('ends the session on logout', async () => {
    const { loginName } = await newUser();
    const { cookie } = await h.login(loginName, GOOD_PASSWORD);
    expect((await h.request({ method: 'GET', url: '/api/me', cookie })).statusCode).toBe(200);
    const logout = await h.request({ method: 'POST', url: '/api/auth/logout', cookie });
    expect(logout.statusCode).toBe(200);
    const after = await h.request({ method: 'GET', url: '/api/me', cookie });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('ends every session of the user when the password changes', async () => {
    const phone = nextPhone();
    await h.register({ loginName: 'changer', phone });
    const a = await h.login('changer', GOOD_PASSWORD);
    const b = await h.login('changer', GOOD_PASSWORD);
    const wrongOld = await h.request({
      method: 'POST',
      url: '/api/me/password',
      cookie: a.cookie,
      body: { oldPassword: 'Wrong#1234', newPassword: 'Newpass#2026' },
    });
    expect(wrongOld.json()).toMatchObject({ code: 'OLD_PASSWORD_WRONG', message: '原密码错误' });
    const weakNew = await h.request({
      method: 'POST',
      url: '/api/me/password',
      cookie: a.cookie,
      body: { oldPassword: GOOD_PASSWORD, newPassword: '12345678' },
    });
    expect(weakNew.json()).toMatchObject({ message: MSG.passwordPattern });
    const changed = await h.request({
      method: 'POST',
      url: '/api/me/password',
      cookie: a.cookie,
      body: { oldPassword: GOOD_PASSWORD, newPassword: 'Newpass#2026' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: '/api/me', cookie: a.cookie })).statusCode).toBe(401);
    expect((await h.request({ method: 'GET', url: '/api/me', cookie: b.cookie })).statusCode).toBe(401);
    expect((await h.login('changer', GOOD_PASSWORD)).response.statusCode).toBe(401);
    expect((await h.login('changer', 'Newpass#2026')).response.statusCode).toBe(200);
  });

  it('flags a weak password at login', async () => {
    await h.register({ loginName: 'weakling', phone: nextPhone(), loginPassword: 'abc12345' });
    const { response } = await h.login('weakling', 'abc12345');
    expect(response.json()).toMatchObject({ weakPassword: true });
  });

  /** A user made directly (no SMS code, which the per-address limit would soon refuse). */
  async function directUser(prefix = 'direct'): Promise<{ loginName: string; phone: string }> {
    const loginName = `${prefix}${userSeq++}`;
    const phone = nextPhone();
    await h.context.services.auth.upsertAccount({
      loginName,
      password: GOOD_PASSWORD,
      roles: ['reader'],
      phone,
    });
    return { loginName, phone };
  }

  /** A login from a given client address. */
  async function loginFrom(loginName: string, password: string, remoteAddress: string) {
    return h.request({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress,
      body: { loginName, password, ...(await h.captcha()) },
    });
  }

  it('locks a name for the address that guessed wrong 5 times, not for the owner elsewhere', async () => {
    const { loginName } = await directUser('victim');
    const attacker = '203.0.113.66';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await loginFrom(loginName, 'Wrong#0000', attacker)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 423]);
    // From the offending address even the right password waits out the lock…
    const fromAttacker = await loginFrom(loginName, GOOD_PASSWORD, attacker);
    expect(fromAttacker.statusCode).toBe(423);
    expect(fromAttacker.json()).toEqual({
      code: 'ACCOUNT_LOCKED',
      message: '登录失败次数过多，请15分钟后再试',
    });
    // …while the owner, from another address, logs in at once.
    const owner = await loginFrom(loginName, GOOD_PASSWORD, '198.51.100.7');
    expect(owner.statusCode, owner.body).toBe(200);
    expect(sessionCookie(owner)).not.toBe('');
    h.clock.advance(15 * 60 + 1);
    expect((await loginFrom(loginName, GOOD_PASSWORD, attacker)).statusCode).toBe(200);
  });

  it('cannot lock an administrator out: the account-wide count only slows attempts down', async () => {
    await h.context.services.auth.upsertAccount({
      loginName: 'chief',
      password: GOOD_PASSWORD,
      roles: ['reader', 'admin'],
    });
    // Ten wrong passwords from two addresses (both now locked out of the name)…
    for (const address of ['203.0.113.10', '203.0.113.11'])
      for (let i = 0; i < 5; i++) await loginFrom('chief', 'Wrong#0000', address);
    expect((await loginFrom('chief', GOOD_PASSWORD, '203.0.113.10')).statusCode).toBe(423);
    // …and the administrator still logs in from a third (held back briefly, never refused).
    expect((await loginFrom('chief', GOOD_PASSWORD, '198.51.100.20')).statusCode).toBe(200);
  });

  it('counts an IPv6 client by its /64, so rotating addresses does not reset the count', async () => {
    const { loginName } = await directUser();
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++)
      statuses.push((await loginFrom(loginName, 'Wrong#0000', `2001:db8:1:2::${i}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 423]);
    expect((await loginFrom(loginName, GOOD_PASSWORD, '2001:db8:1:2:ffff::9')).statusCode).toBe(423);
    expect((await loginFrom(loginName, GOOD_PASSWORD, '2001:db8:1:3::1')).statusCode).toBe(200);
  });

  it('gives an unknown name the same answers as a known one, the lock-out included', async () => {
    const { loginName } = await directUser();
    const address = '203.0.113.77';
    const known: Array<[number, unknown]> = [];
    const unknown: Array<[number, unknown]> = [];
    for (let i = 0; i < 6; i++) {
      const k = await loginFrom(loginName, 'Wrong#0000', address);
      known.push([k.statusCode, k.json()]);
      const u = await loginFrom('no-such-user-77', 'Wrong#0000', address);
      unknown.push([u.statusCode, u.json()]);
    }
    expect(unknown).toEqual(known);
    expect(unknown.map(([status]) => status)).toEqual([401, 401, 401, 401, 423, 423]);
  });

  it('does not confirm a disabled account, not even to its right password', async () => {
    const { loginName } = await directUser();
    const user = await h.context.repos.users.findByLoginName(loginName);
    await h.context.repos.users.update(user!.id, { disabled: 1 });
    const right = await loginFrom(loginName, GOOD_PASSWORD, '198.51.100.30');
    const wrong = await loginFrom(loginName, 'Wrong#0000', '198.51.100.31');
    expect(right.statusCode).toBe(401);
    expect(right.json()).toEqual(wrong.json());
    expect(right.json()).toEqual({ code: 'BAD_CREDENTIALS', message: '用户名或密码错误' });
    expect(sessionCookie(right)).toBe('');
  });

  it('gives the same answer for an unknown user and a wrong password', async () => {
    const { loginName } = await newUser();
    const unknown = await h.login('no-such-user', GOOD_PASSWORD);
    const wrong = await h.login(loginName, 'Wrong#0000');
    expect(unknown.response.statusCode).toBe(401);
    expect(unknown.response.json()).toEqual(wrong.response.json());
  });

  it('answers recovery steps 1 and 2 alike for unknown and registered phones (no captcha there)', async () => {
    const { phone } = await directUser();
    const stranger = nextPhone();
    for (const [url, body] of [
      ['/api/auth/recovery/verify', { code: '123456' }],
      ['/api/auth/recovery/reset', { code: '123456', newPassword: 'Fresh#2026' }],
    ] as const) {
      const known = await h.request({ method: 'POST', url, body: { ...body, phone } });
      const unknown = await h.request({ method: 'POST', url, body: { ...body, phone: stranger } });
      expect(unknown.statusCode, url).toBe(known.statusCode);
      expect(unknown.json(), url).toEqual(known.json());
      expect(unknown.json(), url).toEqual({ code: 'SMS_CODE_MISSING', message: '请先获取短信验证码' });
    }
  });

  it('recovers a password in three steps and ends old sessions', async () => {
    const phone = nextPhone();
    await h.register({ loginName: 'forgetful', phone });
    const old = await h.login('forgetful', GOOD_PASSWORD);
    const unknown = await h.request({
      method: 'POST',
      url: '/api/sms/send',
      body: { phone: nextPhone(), purpose: 'reset', ...(await h.captcha()) },
    });
    expect(unknown.json()).toMatchObject({ code: 'PHONE_UNKNOWN' });
    const code = await h.smsCode(phone, 'reset');
    const wrong = await h.request({
      method: 'POST',
      url: '/api/auth/recovery/verify',
      body: { phone, code: code === '000000' ? '111111' : '000000' },
    });
    expect(wrong.json()).toMatchObject({ code: 'SMS_CODE_INVALID', message: '短信验证码错误' });
    const verified = await h.request({
      method: 'POST',
      url: '/api/auth/recovery/verify',
      body: { phone, code },
    });
    expect(verified.statusCode).toBe(200);
    const reset = await h.request({
      method: 'POST',
      url: '/api/auth/recovery/reset',
      body: { phone, code, newPassword: 'Fresh#2026' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: '/api/me', cookie: old.cookie })).statusCode).toBe(401);
    expect((await h.login('forgetful', 'Fresh#2026')).response.statusCode).toBe(200);
    const reuse = await h.request({
      method: 'POST',
      url: '/api/auth/recovery/reset',
      body: { phone, code, newPassword: 'Other#2026' },
    });
    expect(reuse.statusCode).toBe(400);
  });

  it('refuses a state-changing request from another site (CSRF)', async () => {
    const { loginName } = await newUser();
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
    const { loginName, phone } = await directUser('ssolong');
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
    // Codes of this test's own, sent over HTTP from an address of its own (the per-address limit is
    // the other tests'), besides those the other tests had sent.
    for (const phone of ['13500000871', '13500000872']) {
      const sent = await h.request({
        method: 'POST',
        url: '/api/sms/send',
        body: { phone, purpose: 'register', ...(await h.captcha()) },
        remoteAddress: '198.51.100.77',
      });
      expect(sent.statusCode).toBe(200);
    }
    const outbox = await h.context.repos.sms.listOutbox(undefined, 500);
    const codes = outbox.map((m) => /验证码为 (\d{6})/.exec(m.text)?.[1]).filter((c): c is string => !!c);
    expect(codes.length).toBeGreaterThanOrEqual(2);
    const all = h.bodies.join('\n');
    expect(all).not.toMatch(/\$argon2/);
    expect(all).not.toMatch(/password_?hash|code_?hash/i);
    for (const code of codes) expect(all).not.toContain(`"${code}"`);
  });
});

describe('single sign-on without a secret', () => {
  it('is switched off', async () => {
    const h = await createHttpHarness('sqlite');
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

describe('rate limiting', () => {
  it('answers 429 after the per-minute limit of login attempts from one address', async () => {
    const h = await createHttpHarness('sqlite', { AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await h.login('nobody', 'Wrong#0000')).response.statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
    await h.close();
  });
});

describe('origins, forwarded headers and Secure cookies', () => {
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
    const h = await createHttpHarness('sqlite');
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
    const h = await createHttpHarness('sqlite', { TRUST_PROXY: '127.0.0.1' });
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
    const h = await createHttpHarness('sqlite', {
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
