/** Accounts over HTTP: registration with an SMS code, its checks and what it tells about others. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { expectNoSecretsSent, nextPhone } from '../../../test/accounts.ts';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';

describe.each(DIALECTS)('registration over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
  });
  afterAll(async () => h.close());

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

  it('never sends a password hash or an SMS code to a client', async () => {
    await expectNoSecretsSent(h);
  });
});
