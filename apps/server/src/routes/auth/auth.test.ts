import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { createHttpHarness, GOOD_PASSWORD, sessionCookie, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { signSso } from '../../services/auth.service.ts';

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

  it('locks an account after 5 wrong passwords, even against the right one', async () => {
    await h.register({ loginName: 'victim', phone: nextPhone() });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await h.login('victim', 'Wrong#0000')).response.statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 423]);
    const right = await h.login('victim', GOOD_PASSWORD);
    expect(right.response.statusCode).toBe(423);
    expect(right.response.json<{ message: string }>().message).toMatch(/登录失败次数过多/);
    h.clock.advance(15 * 60 + 1);
    expect((await h.login('victim', GOOD_PASSWORD)).response.statusCode).toBe(200);
  });

  it('gives the same answer for an unknown user and a wrong password', async () => {
    const { loginName } = await newUser();
    const unknown = await h.login('no-such-user', GOOD_PASSWORD);
    const wrong = await h.login(loginName, 'Wrong#0000');
    expect(unknown.response.statusCode).toBe(401);
    expect(unknown.response.json()).toEqual(wrong.response.json());
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

  it('never sends a password hash or an SMS code to a client', async () => {
    const outbox = await h.context.repos.sms.listOutbox(undefined, 500);
    const codes = outbox.map((m) => /验证码为 (\d{6})/.exec(m.text)?.[1]).filter((c): c is string => !!c);
    expect(codes.length).toBeGreaterThan(5);
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
