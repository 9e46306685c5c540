/** Aliyun SMS end to end over HTTP, against a local stand-in that checks the SDK's requests as Aliyun would. */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextPhone } from '../../../test/accounts.ts';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { startAliyunStandIn, type StandIn } from '../../../test/sms-standins.ts';
import { SMS_FAILURE } from './sms-provider.ts';

const KEY = { id: 'LTAI5tTestKeyId0000', secret: 'test-secret-of-aliyun' };
const SETTINGS = {
  smsSignName: '古籍数字图书馆',
  smsTemplateRegister: 'SMS_100000001',
  smsTemplateReset: 'SMS_100000002',
  smsTemplateProfile: 'SMS_100000003',
};

describe.each(DIALECTS)('Aliyun SMS provider (%s)', (dialect) => {
  let stand: StandIn;
  let h: HttpHarness;
  let admin: string;
  const env = (secret = KEY.secret) => ({
    SMS_PROVIDER: 'aliyun',
    ALIBABA_CLOUD_ACCESS_KEY_ID: KEY.id,
    ALIBABA_CLOUD_ACCESS_KEY_SECRET: secret,
    SMS_TEST_ENDPOINT: stand.endpoint,
    SMS_TIMEOUT_SECONDS: '1',
  });
  const send = async (phone: string, purpose = 'register') =>
    h.request({
      method: 'POST',
      url: '/api/sms/send',
      body: { phone, purpose, ...(await h.captcha()) },
    });

  beforeAll(async () => {
    stand = await startAliyunStandIn(KEY);
    h = await createHttpHarness(dialect, env());
    await h.context.services.auth.upsertAccount({
      loginName: 'smsadmin',
      password: GOOD_PASSWORD,
      roles: ['reader', 'admin'],
    });
    admin = (await h.login('smsadmin', GOOD_PASSWORD)).cookie;
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await h.close();
    await stand.close();
  });

  it('refuses to send until the sign name and template are set, keeping no code; staff get a log line', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const phone = nextPhone();
    const response = await send(phone);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ code: 'SMS_NOT_CONFIGURED', message: SMS_FAILURE.notConfigured });
    expect(await h.context.repos.sms.findLive(phone, 'register')).toBeUndefined();
    expect(stand.sent).toEqual([]);
    expect(warn.mock.calls.map((c) => JSON.parse(String(c[0])) as unknown)).toContainEqual(
      expect.objectContaining({
        provider: 'aliyun',
        purpose: 'register',
        missing: ['smsSignName', 'smsTemplateRegister'],
      }),
    );
    const status = await h.request({ method: 'GET', url: '/api/admin/sms-status', cookie: admin });
    expect(status.json()).toMatchObject({ provider: 'aliyun', missing: Object.keys(SETTINGS) });
  });

  it('sends the code through SendSms; the reader registers with it; the outbox stays empty', async () => {
    expect(
      (await h.request({ method: 'PUT', url: '/api/admin/site', cookie: admin, body: SETTINGS })).statusCode,
    ).toBe(200);
    const status = await h.request({ method: 'GET', url: '/api/admin/sms-status', cookie: admin });
    expect(status.json()).toEqual({ provider: 'aliyun', settings: SETTINGS, missing: [] });

    const phone = nextPhone();
    const response = await send(phone);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ countdownSeconds: 300, expiresInSeconds: 300 });
    const sent = stand.sent.find((s) => s.phone === phone);
    expect(sent).toMatchObject({ signName: '古籍数字图书馆', templateId: 'SMS_100000001' });
    expect(sent!.params).toEqual({ code: expect.stringMatching(/^\d{6}$/) as unknown });
    expect(stand.rejected).toEqual([]);
    const code = (sent!.params as { code: string }).code;
    const registered = await h.register({ loginName: `ali${phone.slice(-6)}`, phone, phoneCode: code });
    expect(registered.statusCode).toBe(200);
    expect(await h.context.repos.sms.listOutbox(phone, 10)).toEqual([]);

    // The recovery template is the reset purpose's.
    const reset = await send(phone, 'reset');
    expect(reset.statusCode).toBe(200);
    expect(stand.sent.at(-1)).toMatchObject({ phone, templateId: 'SMS_100000002' });
  });

  it("maps Aliyun's flow control and a wrong number to clear messages; an unsent code starts no countdown", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const phone = nextPhone();
    stand.next({ code: 'isv.BUSINESS_LIMIT_CONTROL', message: '触发分钟级流控Permits:1' });
    const limited = await send(phone);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ code: 'SMS_PROVIDER_LIMIT', message: SMS_FAILURE.phoneLimit });
    expect(limited.headers['retry-after']).toBe('60');
    expect(await h.context.repos.sms.findLive(phone, 'register')).toBeUndefined();

    stand.next({ code: 'isv.MOBILE_NUMBER_ILLEGAL', message: '非法手机号' });
    const wrong = await send(phone);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ code: 'SMS_PHONE_REJECTED', message: SMS_FAILURE.badPhone });

    stand.next({ code: 'isv.AMOUNT_NOT_ENOUGH', message: '账户余额不足' });
    const broke = await send(phone);
    expect(broke.statusCode).toBe(503);
    expect(broke.json()).toEqual({ code: 'SMS_UNAVAILABLE', message: SMS_FAILURE.unavailable });

    // None of those codes counts: the reader may ask again at once, and this one arrives.
    const again = await send(phone);
    expect(again.statusCode).toBe(200);
    expect(stand.sent.filter((s) => s.phone === phone)).toHaveLength(1);
    expect(await h.context.repos.sms.countSince({ phone }, '2000-01-01T00:00:00.000Z')).toBe(1);
  });

  it('gives up on a provider that does not answer after the timeout', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const phone = nextPhone();
    stand.next('hang');
    const started = Date.now();
    const response = await send(phone);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ code: 'SMS_TIMEOUT', message: SMS_FAILURE.timeout });
    expect(await h.context.repos.sms.findLive(phone, 'register')).toBeUndefined();
  });

  it('the stand-in refuses a request signed with the wrong secret (its signature check is real)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const other = await createHttpHarness(dialect, env('not-the-secret'));
    try {
      await other.context.services.settings.update(SETTINGS);
      const phone = nextPhone();
      const response = await other.request({
        method: 'POST',
        url: '/api/sms/send',
        body: { phone, purpose: 'register', ...(await other.captcha()) },
      });
      expect(response.statusCode).toBe(503);
      expect(stand.rejected.at(-1)).toMatch(/^SignatureDoesNotMatch/);
      expect(warn.mock.calls.map((c) => JSON.parse(String(c[0])) as unknown)).toContainEqual(
        expect.objectContaining({ provider: 'aliyun', code: 'SignatureDoesNotMatch' }),
      );
    } finally {
      stand.rejected.length = 0;
      await other.close();
    }
  });
});
