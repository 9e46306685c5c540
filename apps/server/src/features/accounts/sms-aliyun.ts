import * as dysms from '@alicloud/dysmsapi20170525';
import * as openapi from '@alicloud/openapi-core';
import type { SmsConfig } from '../../config/sms.ts';
import { SmsProviderError, type SmsMessage, type SmsProvider, type SmsTemplate } from './sms-provider.ts';

type AliyunConfig = Extract<SmsConfig, { provider: 'aliyun' }>;
/**
 * The client class of this CommonJS module: `default` of module.exports under Node's ESM import, the
 * default export itself where the loader honours `__esModule` (the test runner).
 */
const exported = dysms.default as unknown;
const ClientClass = (
  typeof exported === 'function' ? exported : dysms.default.default
) as typeof dysms.default.default;
type DysmsClient = InstanceType<typeof ClientClass>;

/** Aliyun's public SMS endpoint (the API is not regional). */
export const ALIYUN_SMS_HOST = 'dysmsapi.aliyuncs.com';

/**
 * Aliyun SMS through the official SDK (Dysmsapi 2017-05-25 SendSms; the SDK signs with ACS3-HMAC-SHA256).
 * Templates take one parameter, `code` (TemplateParam {"code":"123456"}); docs/sms.md.
 */
export class AliyunSmsProvider implements SmsProvider {
  readonly name = 'aliyun' as const;
  readonly usesTemplates = true;
  private readonly client: DysmsClient;

  constructor(config: AliyunConfig) {
    this.client = new ClientClass(
      new openapi.$OpenApiUtil.Config({
        accessKeyId: config.accessKeyId,
        accessKeySecret: config.accessKeySecret,
        endpoint: config.testEndpoint ?? ALIYUN_SMS_HOST,
        // The stand-in of the tests speaks plain HTTP on loopback; the real endpoint only HTTPS.
        protocol: config.testEndpoint ? 'http' : 'https',
        connectTimeout: config.timeoutMs,
        readTimeout: config.timeoutMs,
      }),
    );
  }

  async send(message: SmsMessage, template: SmsTemplate | undefined): Promise<void> {
    if (!template) throw new SmsProviderError(this.name, 'NOT_CONFIGURED', 'no sign name or template');
    let body: dysms.SendSmsResponseBody | undefined;
    try {
      const response = await this.client.sendSms(
        new dysms.SendSmsRequest({
          phoneNumbers: message.phone,
          signName: template.signName,
          templateCode: template.templateId,
          templateParam: JSON.stringify({ code: message.code }),
        }),
      );
      body = response.body;
    } catch (error) {
      // The gateway's refusals (signature, key, throttling) come as HTTP errors with a code.
      const e = error as { code?: unknown; message?: unknown; requestId?: unknown };
      const code = typeof e.code === 'string' && e.code ? e.code : 'NETWORK';
      throw new SmsProviderError(
        this.name,
        /timeout/i.test(String(e.message)) ? 'TIMEOUT' : code,
        // The SDK's messages may quote the request URL, whose query holds the number and the code.
        String(e.message ?? error).replace(/https?:\/\/\S+/g, '<request>'),
        typeof e.requestId === 'string' ? e.requestId : undefined,
      );
    }
    // SendSms answers 200 with Code "OK" on success and the business error's code otherwise.
    if (body?.code !== 'OK')
      throw new SmsProviderError(
        this.name,
        body?.code ?? 'EMPTY_RESPONSE',
        body?.message ?? 'no body',
        body?.requestId,
      );
  }
}
