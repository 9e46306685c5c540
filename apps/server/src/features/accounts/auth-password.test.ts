/** Accounts over HTTP: changing a password and recovering it by SMS, ending the old sessions. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { directUser, expectNoSecretsSent, nextPhone } from '../../../test/accounts.ts';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';

describe.each(DIALECTS)('passwords over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
  });
  afterAll(async () => h.close());

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

  it('answers recovery steps 1 and 2 alike for unknown and registered phones (no captcha there)', async () => {
    const { phone } = await directUser(h);
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

  it('never sends a password hash or an SMS code to a client', async () => {
    await expectNoSecretsSent(h);
  });
});
