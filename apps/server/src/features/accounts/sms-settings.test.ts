/** The SMS sign name and templates as site settings, the console's status, and the start-up checks. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { loadConfig } from '../../config.ts';

const SETTINGS = {
  smsSignName: '古籍数字图书馆',
  smsTemplateRegister: 'SMS_100000001',
  smsTemplateReset: 'SMS_100000002',
  smsTemplateProfile: 'SMS_100000003',
};

describe('SMS settings in the console (outbox provider)', () => {
  let h: HttpHarness;
  let admin: string;
  let reader: string;
  const records = async () =>
    (await h.context.repos.audit.page({ action: 'site.update', offset: 0, limit: 50 })).rows;

  beforeAll(async () => {
    h = await createHttpHarness('sqlite');
    for (const [loginName, roles] of [
      ['smsadmin', ['reader', 'admin']],
      ['smsreader', ['reader']],
    ] as const)
      await h.context.services.auth.upsertAccount({ loginName, password: GOOD_PASSWORD, roles: [...roles] });
    admin = (await h.login('smsadmin', GOOD_PASSWORD)).cookie;
    reader = (await h.login('smsreader', GOOD_PASSWORD)).cookie;
  });
  afterAll(async () => h.close());

  it('administrators save the sign name and templates with an audit record; visitors never see them', async () => {
    const saved = await h.request({ method: 'PUT', url: '/api/admin/site', cookie: admin, body: SETTINGS });
    expect(saved.statusCode).toBe(200);
    const [record] = await records();
    expect(JSON.parse(record!.before!)).toEqual({
      smsSignName: '',
      smsTemplateRegister: '',
      smsTemplateReset: '',
      smsTemplateProfile: '',
    });
    expect(JSON.parse(record!.after!)).toEqual(SETTINGS);
    const site = await h.request({ method: 'GET', url: '/api/site' });
    expect(site.statusCode).toBe(200);
    expect(site.body).not.toContain('SMS_100000001');
    expect(Object.keys(site.json<object>())).not.toContain('smsSignName');
    const status = await h.request({ method: 'GET', url: '/api/admin/sms-status', cookie: admin });
    // The outbox needs no templates: nothing is missing.
    expect(status.json()).toEqual({ provider: 'outbox', settings: SETTINGS, missing: [] });
  });

  it('only administrators see the SMS status', async () => {
    expect((await h.request({ method: 'GET', url: '/api/admin/sms-status' })).statusCode).toBe(401);
    expect(
      (await h.request({ method: 'GET', url: '/api/admin/sms-status', cookie: reader })).statusCode,
    ).toBe(403);
    const put = await h.request({ method: 'PUT', url: '/api/admin/site', cookie: reader, body: SETTINGS });
    expect(put.statusCode).toBe(403);
  });

  it('refuses a malformed sign name or template id with a Chinese message, changing nothing', async () => {
    const before = await records();
    for (const [body, message] of [
      [{ smsSignName: '古' }, '短信签名须为 2–12 个汉字、字母或数字'],
      [{ smsSignName: '【古籍】' }, '短信签名须为 2–12 个汉字、字母或数字'],
      [{ smsTemplateReset: 'SMS 1' }, '模板编号只能包含字母、数字和下划线，最多 40 个字符'],
      [{ smsTemplateProfile: 'x'.repeat(41) }, '模板编号只能包含字母、数字和下划线，最多 40 个字符'],
    ] as const) {
      const response = await h.request({ method: 'PUT', url: '/api/admin/site', cookie: admin, body });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(message);
    }
    expect(await records()).toHaveLength(before.length);
    const status = await h.request({ method: 'GET', url: '/api/admin/sms-status', cookie: admin });
    expect(status.json<{ settings: object }>().settings).toEqual(SETTINGS);
  });

  it('the outbox still keeps the full Chinese text', async () => {
    const code = await h.smsCode('13912345678', 'register');
    const [latest] = await h.context.repos.sms.listOutbox('13912345678', 1);
    expect(latest!.text).toBe(
      `【古籍数字图书馆】您正在注册账号，验证码为 ${code}，5分钟内有效。如非本人操作，请忽略本短信。`,
    );
  });
});

describe('SMS provider configuration at start-up', () => {
  const base = { DATA_DIR: '/tmp/guji-sms-config', SESSION_SECRET: 'x' };
  it('defaults to the outbox', () => {
    expect(loadConfig(base).sms).toEqual({ provider: 'outbox', timeoutMs: 5000, testEndpoint: undefined });
  });
  it('refuses to start when the chosen provider lacks its variables, naming them', () => {
    expect(() => loadConfig({ ...base, SMS_PROVIDER: 'aliyun', ALIBABA_CLOUD_ACCESS_KEY_ID: 'id' })).toThrow(
      'Invalid configuration: SMS_PROVIDER=aliyun needs ALIBABA_CLOUD_ACCESS_KEY_SECRET (see docs/sms.md)',
    );
    expect(() => loadConfig({ ...base, SMS_PROVIDER: 'tencent' })).toThrow(
      'needs TENCENTCLOUD_SECRET_ID, TENCENTCLOUD_SECRET_KEY, TENCENTCLOUD_SMS_SDK_APP_ID',
    );
    expect(() =>
      loadConfig({
        ...base,
        SMS_PROVIDER: 'tencent',
        TENCENTCLOUD_SECRET_ID: 'a',
        TENCENTCLOUD_SECRET_KEY: 'b',
        TENCENTCLOUD_SMS_SDK_APP_ID: 'app',
      }),
    ).toThrow('TENCENTCLOUD_SMS_SDK_APP_ID is the SMS application id');
    expect(() => loadConfig({ ...base, SMS_PROVIDER: 'sms' })).toThrow('Invalid configuration: SMS_PROVIDER');
  });
  it('accepts a test endpoint on loopback only', () => {
    expect(() => loadConfig({ ...base, SMS_TEST_ENDPOINT: 'evil.example.com:80' })).toThrow(
      'SMS_TEST_ENDPOINT is for tests only',
    );
    expect(loadConfig({ ...base, SMS_TEST_ENDPOINT: '127.0.0.1:4000' }).sms.testEndpoint).toBe(
      '127.0.0.1:4000',
    );
  });
});
