import http from 'node:http';
import net from 'node:net';
import * as tencent from 'tencentcloud-sdk-nodejs-sms';
import type { SmsConfig } from '../../config/sms.ts';
import { SmsProviderError, type SmsMessage, type SmsProvider, type SmsTemplate } from './sms-provider.ts';

type TencentConfig = Extract<SmsConfig, { provider: 'tencent' }>;
const Client = tencent.sms.v20210111.Client;

/** Tencent Cloud SMS's endpoint; the SDK takes the signature's service name ("sms") from it. */
export const TENCENT_SMS_HOST = 'sms.tencentcloudapi.com';

/**
 * For the tests' stand-in only: requests keep the real host name (so the signed Host header and the
 * TC3 credential scope are exactly what Tencent receives) but connect to the loopback address.
 */
function loopbackAgent(endpoint: string): http.Agent {
  const { hostname, port } = new URL(`http://${endpoint}`);
  const agent = new http.Agent({ keepAlive: false });
  agent.createConnection = () =>
    net.createConnection({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) });
  return agent;
}

/**
 * Tencent Cloud SMS through the official SDK (SendSms, API 2021-01-11, signed TC3-HMAC-SHA256).
 * Templates take two numbered parameters: {1} the code, {2} its validity in minutes; docs/sms.md.
 */
export class TencentSmsProvider implements SmsProvider {
  readonly name = 'tencent' as const;
  readonly usesTemplates = true;
  private readonly client: InstanceType<typeof Client>;

  constructor(private readonly config: TencentConfig) {
    this.client = new Client({
      credential: { secretId: config.secretId, secretKey: config.secretKey },
      region: config.region,
      profile: {
        httpProfile: {
          endpoint: TENCENT_SMS_HOST,
          reqMethod: 'POST',
          reqTimeout: config.timeoutMs / 1000,
          ...(config.testEndpoint
            ? { protocol: 'http://', agent: loopbackAgent(config.testEndpoint) }
            : { protocol: 'https://' }),
        },
      },
    });
  }

  async send(message: SmsMessage, template: SmsTemplate | undefined): Promise<void> {
    if (!template) throw new SmsProviderError(this.name, 'NOT_CONFIGURED', 'no sign name or template');
    let response: Awaited<ReturnType<typeof this.client.SendSms>>;
    try {
      response = await this.client.SendSms({
        PhoneNumberSet: [`+86${message.phone}`],
        SmsSdkAppId: this.config.sdkAppId,
        SignName: template.signName,
        TemplateId: template.templateId,
        TemplateParamSet: [message.code, String(message.minutes)],
      });
    } catch (error) {
      // Whole-request errors (signature, key, throttling) and network failures.
      const e = error as { code?: unknown; message?: unknown; requestId?: unknown };
      const text = String(e.message ?? error);
      const code =
        typeof e.code === 'string' && e.code ? e.code : /timeout/i.test(text) ? 'TIMEOUT' : 'NETWORK';
      throw new SmsProviderError(
        this.name,
        code,
        text,
        typeof e.requestId === 'string' ? e.requestId : undefined,
      );
    }
    // One status per number: "Ok", or the reason this number was not sent to.
    const status = response.SendStatusSet?.[0];
    if (status?.Code !== 'Ok')
      throw new SmsProviderError(
        this.name,
        status?.Code ?? 'EMPTY_RESPONSE',
        status?.Message ?? 'no send status',
        response.RequestId,
      );
  }
}
