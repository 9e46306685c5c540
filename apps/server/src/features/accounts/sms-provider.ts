import type { SmsProviderName, SmsPurpose, SmsSettings } from '@guji/shared';
import { AppError } from '../../errors.ts';

/** One verification-code message: the outbox keeps the full text, real providers fill their templates. */
export interface SmsMessage {
  phone: string;
  purpose: SmsPurpose;
  code: string;
  /** How long the code is valid, in minutes (the second parameter of numbered templates). */
  minutes: number;
  /** The whole message as the outbox shows it. */
  text: string;
}

/** What a real provider sends with: the sign name and the purpose's template id. */
export interface SmsTemplate {
  signName: string;
  templateId: string;
}

/** Sends a text message. The development provider writes to the outbox table instead. */
export interface SmsProvider {
  readonly name: SmsProviderName;
  /** Whether it needs the sign name and templates from the site settings. */
  readonly usesTemplates: boolean;
  /** Resolves when the provider accepted the message; throws SmsProviderError when it refused. */
  send(message: SmsMessage, template: SmsTemplate | undefined): Promise<void>;
}

/** A provider's refusal or failure: its own error code and message, for the staff log. */
export class SmsProviderError extends Error {
  constructor(
    readonly provider: SmsProviderName,
    readonly code: string,
    message: string,
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'SmsProviderError';
  }
}

const TEMPLATE_KEY: Record<SmsPurpose, keyof SmsSettings> = {
  register: 'smsTemplateRegister',
  reset: 'smsTemplateReset',
  profile: 'smsTemplateProfile',
};

/** The settings a real provider still lacks for a purpose (or for any, without one). */
export function missingSmsSettings(settings: SmsSettings, purpose?: SmsPurpose): Array<keyof SmsSettings> {
  const keys: Array<keyof SmsSettings> = [
    'smsSignName',
    ...(purpose ? [TEMPLATE_KEY[purpose]] : Object.values(TEMPLATE_KEY)),
  ];
  return keys.filter((key) => !settings[key].trim());
}

export const templateOf = (settings: SmsSettings, purpose: SmsPurpose): SmsTemplate => ({
  signName: settings.smsSignName.trim(),
  templateId: settings[TEMPLATE_KEY[purpose]].trim(),
});

export const SMS_FAILURE = {
  notConfigured: '短信服务尚未配置完成，暂时无法发送验证码，请联系本馆',
  phoneLimit: '该手机号获取验证码过于频繁，请稍后再试',
  phoneDaily: '该手机号今日获取验证码次数过多，请明天再试',
  serviceLimit: '短信发送量已达上限，请稍后再试',
  badPhone: '该手机号无法接收短信，请检查号码是否正确',
  blocked: '该手机号已退订或拒收短信，请更换手机号',
  timeout: '短信发送超时，请稍后重试',
  unavailable: '短信服务暂时无法发送验证码，请稍后再试或联系本馆',
} as const;

type Kind = keyof typeof SMS_FAILURE;

/**
 * The providers' error codes (Aliyun: help.aliyun.com 国内消息API错误码; Tencent: SMS API 3.0 发送错误码
 * and the common error codes) and what the reader is told. Anything not listed is `unavailable`.
 */
const KINDS: Record<string, Kind> = {
  // Aliyun: per-phone flow control (1/minute, 5/hour, 10/day for codes by default) and account limits.
  'isv.BUSINESS_LIMIT_CONTROL': 'phoneLimit',
  'isv.DAY_LIMIT_CONTROL': 'serviceLimit',
  'isv.MONTH_LIMIT_CONTROL': 'serviceLimit',
  'Throttling.User': 'serviceLimit',
  'Throttling.Api': 'serviceLimit',
  Throttling: 'serviceLimit',
  'isv.MOBILE_NUMBER_ILLEGAL': 'badPhone',
  'isv.MOBILE_COUNT_OVER_LIMIT': 'badPhone',
  'isv.DOMESTIC_NUMBER_NOT_SUPPORTED': 'badPhone',
  'isv.BLACK_KEY_CONTROL_LIMIT': 'blocked',
  'isv.AMOUNT_NOT_ENOUGH': 'unavailable',
  'isv.OUT_OF_SERVICE': 'unavailable',
  // Tencent: per-phone frequency limits set in the SMS console, account limits, numbers.
  'LimitExceeded.PhoneNumberThirtySecondLimit': 'phoneLimit',
  'LimitExceeded.PhoneNumberOneHourLimit': 'phoneLimit',
  'LimitExceeded.PhoneNumberSameContentDailyLimit': 'phoneLimit',
  'LimitExceeded.DeliveryFrequencyLimit': 'phoneLimit',
  'LimitExceeded.PhoneNumberDailyLimit': 'phoneDaily',
  'LimitExceeded.AppDailyLimit': 'serviceLimit',
  'LimitExceeded.DailyLimit': 'serviceLimit',
  RequestLimitExceeded: 'serviceLimit',
  'InvalidParameterValue.IncorrectPhoneNumber': 'badPhone',
  'FailedOperation.PhoneNumberInBlacklist': 'blocked',
  'FailedOperation.PhoneNumberOnBlacklist': 'blocked',
  'FailedOperation.InsufficientBalanceInSmsPackage': 'unavailable',
  'UnauthorizedOperation.ServiceSuspendDueToArrears': 'unavailable',
};

function kindOf(code: string): Kind {
  if (code === 'TIMEOUT') return 'timeout';
  if (code === 'NOT_CONFIGURED') return 'notConfigured';
  return KINDS[code] ?? (code.startsWith('RequestLimitExceeded') ? 'serviceLimit' : 'unavailable');
}

/** The reader's answer to a provider's failure: 429 for limits, 400 for the number, else 503. */
export function smsFailure(code: string): AppError {
  const kind = kindOf(code);
  const message = SMS_FAILURE[kind];
  switch (kind) {
    case 'phoneLimit':
      return new AppError(429, 'SMS_PROVIDER_LIMIT', message, { retryAfterSeconds: 60 });
    case 'phoneDaily':
      return new AppError(429, 'SMS_PROVIDER_LIMIT', message, { retryAfterSeconds: 3600 });
    case 'serviceLimit':
      return new AppError(429, 'SMS_PROVIDER_LIMIT', message, { retryAfterSeconds: 60 });
    case 'badPhone':
    case 'blocked':
      return new AppError(400, 'SMS_PHONE_REJECTED', message);
    case 'timeout':
      return new AppError(503, 'SMS_TIMEOUT', message, { retryAfterSeconds: 5 });
    case 'notConfigured':
      return new AppError(503, 'SMS_NOT_CONFIGURED', message);
    case 'unavailable':
      return new AppError(503, 'SMS_UNAVAILABLE', message, { retryAfterSeconds: 30 });
  }
}

/** Rejects with a TIMEOUT SmsProviderError when `work` takes longer than `ms`. */
export async function withTimeout<T>(provider: SmsProviderName, work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new SmsProviderError(provider, 'TIMEOUT', `no answer within ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
