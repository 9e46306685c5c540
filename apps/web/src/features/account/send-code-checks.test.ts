import { describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { phoneSendCodeError, registerSendCodeError, type RegisterCodeFields } from './send-code-checks.ts';

const complete: RegisterCodeFields = {
  realName: '张三',
  idCard: '11010519491231002X',
  post: '国家图书馆',
  email: 'reader@example.com',
  loginName: 'reader',
  loginPassword: 'abc12345',
  phone: '13800138000',
  captchaCode: 'x7k2',
};

describe('registerSendCodeError', () => {
  it('allows sending when every field the button checks is valid', () => {
    expect(registerSendCodeError(complete, true)).toBeNull();
  });

  it('reports the first failure in the order of spec §5', () => {
    const everythingWrong: RegisterCodeFields = {
      realName: 'Tom',
      idCard: '123',
      post: ' ',
      email: 'not-an-email',
      loginName: '',
      loginPassword: 'short',
      phone: '12345',
      captchaCode: '',
    };
    const steps: [Partial<RegisterCodeFields>, string][] = [
      [{}, MSG.realNameRequired],
      [{ realName: complete.realName }, MSG.idCardInvalid],
      [{ idCard: complete.idCard }, MSG.postRequired],
      [{ post: complete.post }, MSG.emailInvalid],
      [{ email: complete.email }, MSG.loginNameRequired],
      [{ loginName: complete.loginName }, MSG.passwordPattern],
      [{ loginPassword: complete.loginPassword }, MSG.phoneInvalidForCode],
      [{ phone: complete.phone }, MSG.imageCaptchaRequired],
      [{ captchaCode: complete.captchaCode }, ''],
    ];
    let values = { ...everythingWrong };
    for (const [fix, expected] of steps) {
      values = { ...values, ...fix };
      expect(registerSendCodeError(values, true) ?? '').toBe(expected);
    }
  });

  it('skips real name and ID card when the site does not ask for them', () => {
    expect(registerSendCodeError({ ...complete, realName: '', idCard: '' }, false)).toBeNull();
    expect(registerSendCodeError({ ...complete, post: '' }, false)).toBe(MSG.postRequired);
  });

  it('distinguishes a missing email and password from invalid ones', () => {
    expect(registerSendCodeError({ ...complete, email: '' }, true)).toBe(MSG.emailRequired);
    expect(registerSendCodeError({ ...complete, loginPassword: '' }, true)).toBe(MSG.passwordRequired);
  });
});

describe('phoneSendCodeError', () => {
  it('checks the phone first, then the image captcha', () => {
    expect(phoneSendCodeError('1380013800', '')).toBe(MSG.phoneInvalidForCode);
    expect(phoneSendCodeError('1380013800', 'abcd', MSG.profilePhoneInvalid)).toBe(MSG.profilePhoneInvalid);
    expect(phoneSendCodeError('13800138000', ' ')).toBe(MSG.imageCaptchaRequired);
    expect(phoneSendCodeError('13800138000', 'abcd')).toBeNull();
  });
});
