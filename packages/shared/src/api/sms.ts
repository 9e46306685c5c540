import { z } from 'zod';

/**
 * Text-message providers (docs/sms.md): the development outbox (the default; nothing leaves the
 * server), Aliyun SMS (Dysmsapi SendSms) or Tencent Cloud SMS (SendSms, API 2021-01-11).
 */
export const SMS_PROVIDERS = ['outbox', 'aliyun', 'tencent'] as const;
export type SmsProviderName = (typeof SMS_PROVIDERS)[number];

/** The site settings that hold the real providers' sign name (签名) and one template per purpose. */
export const SMS_SETTING_KEYS = [
  'smsSignName',
  'smsTemplateRegister',
  'smsTemplateReset',
  'smsTemplateProfile',
] as const;
export type SmsSettingKey = (typeof SMS_SETTING_KEYS)[number];

/** The stored shape (read with the site settings). */
export const smsSettingFields = {
  smsSignName: z.string().describe('SMS sign name (签名) registered at the provider'),
  smsTemplateRegister: z.string().describe('Provider template of the registration code message'),
  smsTemplateReset: z.string().describe('Provider template of the password-recovery code message'),
  smsTemplateProfile: z.string().describe('Provider template of the phone-change code message'),
};

const SIGN_NAME = /^[\p{Script=Han}A-Za-z0-9]{2,12}$/u;
const TEMPLATE = /^[A-Za-z0-9_]{1,40}$/;
const template = z
  .string()
  .trim()
  .refine((s) => s === '' || TEMPLATE.test(s), '模板编号只能包含字母、数字和下划线，最多 40 个字符')
  .optional();

/** What an administrator may save: empty (not set) or a well-formed sign name and template ids. */
export const smsSettingUpdates = {
  smsSignName: z
    .string()
    .trim()
    .refine((s) => s === '' || SIGN_NAME.test(s), '短信签名须为 2–12 个汉字、字母或数字')
    .optional(),
  smsTemplateRegister: template,
  smsTemplateReset: template,
  smsTemplateProfile: template,
};

export const SmsSettings = z.object(smsSettingFields);
export type SmsSettings = z.infer<typeof SmsSettings>;

/** The console's view of the SMS channel: which provider is live and what it is configured with. */
export const SmsStatus = z.object({
  provider: z
    .enum(SMS_PROVIDERS)
    .describe('The live provider (SMS_PROVIDER): outbox keeps messages here, aliyun or tencent send them'),
  settings: SmsSettings,
  missing: z
    .array(z.enum(SMS_SETTING_KEYS))
    .describe('Settings a real provider still needs before it can send (empty for the outbox)'),
});
export type SmsStatus = z.infer<typeof SmsStatus>;
