import type { SmsConfig } from '../../config/sms.ts';
import type { SmsRepository } from './sms.repository.ts';
import { AliyunSmsProvider } from './sms-aliyun.ts';
import { TencentSmsProvider } from './sms-tencent.ts';
import { OutboxSmsProvider } from './sms.service.ts';
import type { SmsProvider } from './sms-provider.ts';

/** The provider SMS_PROVIDER names: the development outbox (default), Aliyun or Tencent Cloud. */
export function createSmsProvider(config: SmsConfig, sms: SmsRepository): SmsProvider {
  switch (config.provider) {
    case 'aliyun':
      return new AliyunSmsProvider(config);
    case 'tencent':
      return new TencentSmsProvider(config);
    case 'outbox':
      return new OutboxSmsProvider(sms);
  }
}
