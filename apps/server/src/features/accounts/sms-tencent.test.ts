/** Tencent Cloud SMS end to end over HTTP, against a local stand-in that checks TC3 signatures as Tencent does. */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextPhone } from '../../../test/accounts.ts';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { startTencentStandIn, type StandIn } from '../../../test/sms-standins.ts';
import { SMS_FAILURE } from './sms-provider.ts';

const KEY = {
  id: 'AKIDtestSecretId000',
  secret: 'test-secret-of-tencent',
  sdkAppId: '1400006666',
  region: 'ap-guangzhou',
};
const SETTINGS = {
  smsSignName: '古籍馆',
  smsTemplateRegister: '1110001',
  smsTemplateReset: '1110002',
  smsTemplateProfile: '1110003',
};

// Sent through the service on SQLite; the code store's behaviour on both dialects is in sms-aliyun.test.ts.
describe('Tencent Cloud SMS provider', () => {
  let stand: StandIn;
  let h: HttpHarness;
  const env = (secret = KEY.secret) => ({
    SMS_PROVIDER: 'tencent',
    TENCENTCLOUD_SECRET_ID: KEY.id,
    TENCENTCLOUD_SECRET_KEY: secret,
    TENCENTCLOUD_SMS_SDK_APP_ID: KEY.sdkAppId,
    SMS_TEST_ENDPOINT: stand.endpoint,
    SMS_TIMEOUT_SECONDS: '1',
  });
  const send = async (phone: string, purpose = 'register', harness = h) =>
    harness.request({
      method: 'POST',
      url: '/api/sms/send',
      body: { phone, purpose, ...(await harness.captcha()) },
    });

  beforeAll(async () => {
    stand = await startTencentStandIn(KEY);
    h = await createHttpHarness('sqlite', env());
    await h.context.services.settings.update(SETTINGS);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await h.close();
    await stand.close();
  });

  it('sends {1} the code and {2} its minutes to +86 the number; the reader registers with it', async () => {
    const phone = nextPhone();
    const response = await send(phone);
    expect(response.statusCode).toBe(200);
    expect(stand.rejected).toEqual([]);
    const sent = stand.sent.find((s) => s.phone === `+86${phone}`);
    expect(sent).toMatchObject({ signName: '古籍馆', templateId: '1110001' });
    expect(sent!.params).toEqual([expect.stringMatching(/^\d{6}$/), '5']);
    const code = (sent!.params as string[])[0]!;
    const registered = await h.register({ loginName: `tc${phone.slice(-6)}`, phone, phoneCode: code });
    expect(registered.statusCode).toBe(200);
    expect(await h.context.repos.sms.listOutbox(phone, 10)).toEqual([]);
  });

  it("maps Tencent's per-number limits, a wrong number and request throttling; unsent codes start no countdown", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const phone = nextPhone();
    const cases: Array<[{ code: string; request?: boolean }, number, string]> = [
      [{ code: 'LimitExceeded.PhoneNumberDailyLimit' }, 429, SMS_FAILURE.phoneDaily],
      [{ code: 'LimitExceeded.PhoneNumberThirtySecondLimit' }, 429, SMS_FAILURE.phoneLimit],
      [{ code: 'InvalidParameterValue.IncorrectPhoneNumber' }, 400, SMS_FAILURE.badPhone],
      [{ code: 'FailedOperation.PhoneNumberInBlacklist' }, 400, SMS_FAILURE.blocked],
      [{ code: 'FailedOperation.InsufficientBalanceInSmsPackage' }, 503, SMS_FAILURE.unavailable],
      [{ code: 'RequestLimitExceeded', request: true }, 429, SMS_FAILURE.serviceLimit],
    ];
    for (const [reply, status, message] of cases) {
      stand.next(reply);
      const response = await send(phone);
      expect([reply.code, response.statusCode, response.json<{ message: string }>().message]).toEqual([
        reply.code,
        status,
        message,
      ]);
      expect(await h.context.repos.sms.findLive(phone, 'register')).toBeUndefined();
    }
    expect((await send(phone)).statusCode).toBe(200);
    expect(stand.sent.filter((s) => s.phone === `+86${phone}`)).toHaveLength(1);
  });

  it('gives up on a provider that does not answer after the timeout', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const phone = nextPhone();
    stand.next('hang');
    const started = Date.now();
    const response = await send(phone);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(response.json()).toEqual({ code: 'SMS_TIMEOUT', message: SMS_FAILURE.timeout });
    expect(await h.context.repos.sms.findLive(phone, 'register')).toBeUndefined();
  });

  it('the stand-in refuses a request signed with the wrong key (its TC3 check is real)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const other = await createHttpHarness('sqlite', env('not-the-key'));
    try {
      await other.context.services.settings.update(SETTINGS);
      const response = await send(nextPhone(), 'register', other);
      expect(response.statusCode).toBe(503);
      expect(stand.rejected.at(-1)).toMatch(/^AuthFailure\.SignatureFailure/);
      expect(warn.mock.calls.map((c) => JSON.parse(String(c[0])) as unknown)).toContainEqual(
        expect.objectContaining({ provider: 'tencent', code: 'AuthFailure.SignatureFailure' }),
      );
    } finally {
      stand.rejected.length = 0;
      await other.close();
    }
  });
});
