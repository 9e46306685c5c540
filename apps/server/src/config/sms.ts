import type { SmsProviderName } from '@guji/shared';

/**
 * The live SMS provider and its credentials (docs/sms.md). The sign name and templates are site
 * settings, edited in the console; what is here comes from the environment only.
 */
export type SmsConfig = { timeoutMs: number; testEndpoint: string | undefined } & (
  | { provider: 'outbox' }
  | { provider: 'aliyun'; accessKeyId: string; accessKeySecret: string }
  | { provider: 'tencent'; secretId: string; secretKey: string; sdkAppId: string; region: string }
);

export interface SmsEnv {
  SMS_PROVIDER: SmsProviderName;
  SMS_TIMEOUT_SECONDS: number;
  SMS_TEST_ENDPOINT?: string | undefined;
  ALIBABA_CLOUD_ACCESS_KEY_ID?: string | undefined;
  ALIBABA_CLOUD_ACCESS_KEY_SECRET?: string | undefined;
  TENCENTCLOUD_SECRET_ID?: string | undefined;
  TENCENTCLOUD_SECRET_KEY?: string | undefined;
  TENCENTCLOUD_SMS_SDK_APP_ID?: string | undefined;
  TENCENTCLOUD_SMS_REGION: string;
}

/** Loopback host:port (the tests' stand-in servers); a real provider's host is never overridden otherwise. */
const LOOPBACK_ENDPOINT = /^(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}$/;

/** The SMS part of the configuration; throws a clear error when the chosen provider lacks a variable. */
export function smsConfigOf(e: SmsEnv): SmsConfig {
  const testEndpoint = e.SMS_TEST_ENDPOINT?.trim() || undefined;
  if (testEndpoint && !LOOPBACK_ENDPOINT.test(testEndpoint))
    throw new Error(
      `Invalid configuration: SMS_TEST_ENDPOINT is for tests only and must be a loopback host:port such as 127.0.0.1:8080, got "${testEndpoint}"`,
    );
  const base = { timeoutMs: Math.round(e.SMS_TIMEOUT_SECONDS * 1000), testEndpoint };
  const require = (names: Array<keyof SmsEnv>) => {
    const missing = names.filter((name) => !String(e[name] ?? '').trim());
    if (missing.length > 0)
      throw new Error(
        `Invalid configuration: SMS_PROVIDER=${e.SMS_PROVIDER} needs ${missing.join(', ')} (see docs/sms.md)`,
      );
  };
  switch (e.SMS_PROVIDER) {
    case 'outbox':
      return { ...base, provider: 'outbox' };
    case 'aliyun':
      require(['ALIBABA_CLOUD_ACCESS_KEY_ID', 'ALIBABA_CLOUD_ACCESS_KEY_SECRET']);
      return {
        ...base,
        provider: 'aliyun',
        accessKeyId: e.ALIBABA_CLOUD_ACCESS_KEY_ID!.trim(),
        accessKeySecret: e.ALIBABA_CLOUD_ACCESS_KEY_SECRET!.trim(),
      };
    case 'tencent':
      require(['TENCENTCLOUD_SECRET_ID', 'TENCENTCLOUD_SECRET_KEY', 'TENCENTCLOUD_SMS_SDK_APP_ID']);
      if (!/^\d+$/.test(e.TENCENTCLOUD_SMS_SDK_APP_ID!.trim()))
        throw new Error(
          'Invalid configuration: TENCENTCLOUD_SMS_SDK_APP_ID is the SMS application id, digits such as 1400006666',
        );
      return {
        ...base,
        provider: 'tencent',
        secretId: e.TENCENTCLOUD_SECRET_ID!.trim(),
        secretKey: e.TENCENTCLOUD_SECRET_KEY!.trim(),
        sdkAppId: e.TENCENTCLOUD_SMS_SDK_APP_ID!.trim(),
        region: e.TENCENTCLOUD_SMS_REGION,
      };
  }
}
