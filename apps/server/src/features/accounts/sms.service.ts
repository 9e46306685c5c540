import { LIMITS, type SmsOutboxList, type SmsPurpose, type SmsSettings } from '@guji/shared';
import type { SmsRepository } from './sms.repository.ts';
import { badRequest, tooMany } from '../../errors.ts';
import { addSeconds, type Clock } from '../../lib/clock.ts';
import { hmacHex, randomSixDigits, safeEqual } from '../../lib/crypto.ts';
import { currentRequestId } from '../../lib/request-context.ts';
import {
  missingSmsSettings,
  smsFailure,
  SmsProviderError,
  templateOf,
  withTimeout,
  type SmsMessage,
  type SmsProvider,
  type SmsTemplate,
} from './sms-provider.ts';

export type { SmsProvider } from './sms-provider.ts';

/** The development provider: the full text goes to the outbox table, nothing leaves the server. */
export class OutboxSmsProvider implements SmsProvider {
  readonly name = 'outbox' as const;
  readonly usesTemplates = false;
  constructor(private readonly sms: SmsRepository) {}
  async send(message: SmsMessage): Promise<void> {
    await this.sms.addToOutbox(message.phone, message.text);
  }
}

/** What the SMS service needs besides its repository: the settings, the send timeout, a staff log. */
export interface SmsServiceOptions {
  settings: () => Promise<SmsSettings>;
  timeoutMs: number;
  /** A line for staff when a message could not be sent (default: a JSON line on stderr). */
  warn?: (fields: Record<string, unknown>, message: string) => void;
}

const stderrWarn = (fields: Record<string, unknown>, message: string) =>
  console.warn(JSON.stringify({ level: 'warn', time: new Date().toISOString(), ...fields, msg: message }));

export const SMS_LIMITS = {
  /** Wrong guesses allowed for one code before it is void. */
  maxAttempts: 5,
  perPhonePerDay: 10,
  perIpPerHour: 20,
} as const;

export const SMS_MESSAGES = {
  wrong: '短信验证码错误',
  expired: '短信验证码已过期，请重新获取',
  missing: '请先获取短信验证码',
  tooManyAttempts: '短信验证码错误次数过多，请重新获取',
  tooSoon: (seconds: number) => `请${seconds}秒后再获取验证码`,
  phoneDaily: '该手机号今日获取验证码次数过多，请明天再试',
  ipHourly: '获取验证码过于频繁，请稍后再试',
} as const;

/** Seconds a client must wait between two codes for the same phone and purpose (spec §4). */
export const countdownFor = (purpose: SmsPurpose): number =>
  purpose === 'profile' ? LIMITS.smsCountdownSeconds : LIMITS.smsCountdownLongSeconds;

const PURPOSE_TEXT: Record<SmsPurpose, string> = {
  register: '注册账号',
  reset: '找回密码',
  profile: '修改手机号',
};

/** Six-digit codes, stored hashed, valid 5 minutes, with attempt and send-rate limits. */
export class SmsService {
  constructor(
    private readonly sms: SmsRepository,
    private readonly provider: SmsProvider,
    private readonly secret: string,
    private readonly clock: Clock,
    private readonly options: SmsServiceOptions,
  ) {}

  get providerName(): SmsProvider['name'] {
    return this.provider.name;
  }

  async sendCode(
    phone: string,
    purpose: SmsPurpose,
    ip: string | null,
  ): Promise<{ countdownSeconds: number }> {
    const now = this.clock.now();
    const countdown = countdownFor(purpose);
    const last = await this.sms.latestCreatedAt(phone, purpose);
    if (last) {
      const wait = Math.ceil((new Date(last).getTime() + countdown * 1000 - now.getTime()) / 1000);
      if (wait > 0) throw tooMany(SMS_MESSAGES.tooSoon(wait), wait);
    }
    const dayAgo = addSeconds(now, -86_400).toISOString();
    if ((await this.sms.countSince({ phone }, dayAgo)) >= SMS_LIMITS.perPhonePerDay) {
      throw tooMany(SMS_MESSAGES.phoneDaily);
    }
    if (
      ip &&
      (await this.sms.countSince({ ip }, addSeconds(now, -3600).toISOString())) >= SMS_LIMITS.perIpPerHour
    ) {
      throw tooMany(SMS_MESSAGES.ipHourly);
    }
    // A real provider needs its sign name and this purpose's template before any code is made.
    let template: SmsTemplate | undefined;
    if (this.provider.usesTemplates) {
      const settings = await this.options.settings();
      const missing = missingSmsSettings(settings, purpose);
      if (missing.length > 0) {
        this.warn({ provider: this.provider.name, purpose, missing }, 'SMS not sent: settings missing');
        throw smsFailure('NOT_CONFIGURED');
      }
      template = templateOf(settings, purpose);
    }
    const code = randomSixDigits();
    const id = await this.sms.createCode({
      phone,
      purpose,
      codeHash: this.hash(phone, purpose, code),
      ip,
      createdAt: now.toISOString(),
      expiresAt: addSeconds(now, LIMITS.smsCodeTtlSeconds).toISOString(),
    });
    const minutes = Math.round(LIMITS.smsCodeTtlSeconds / 60);
    const message: SmsMessage = {
      phone,
      purpose,
      code,
      minutes,
      text: `【古籍数字图书馆】您正在${PURPOSE_TEXT[purpose]}，验证码为 ${code}，${minutes}分钟内有效。如非本人操作，请忽略本短信。`,
    };
    try {
      await withTimeout(this.provider.name, this.provider.send(message, template), this.options.timeoutMs);
    } catch (error) {
      // A code that was never sent must not start the countdown or count against the reader's limits.
      await this.sms.deleteCode(id);
      if (!(error instanceof SmsProviderError)) throw error;
      this.warn(
        {
          provider: error.provider,
          purpose,
          code: error.code,
          detail: error.message,
          providerRequestId: error.requestId,
        },
        'SMS not sent: provider refused or failed',
      );
      throw smsFailure(error.code);
    }
    return { countdownSeconds: countdown };
  }

  /**
   * Checks a code. With `consume` it is used up (registration, reset, phone change); without, it is
   * only marked verified (the recovery's middle step) and stays usable until it expires.
   */
  async check(phone: string, purpose: SmsPurpose, code: string, consume: boolean): Promise<void> {
    const row = await this.sms.findLive(phone, purpose);
    if (!row) throw badRequest('SMS_CODE_MISSING', SMS_MESSAGES.missing);
    const now = this.clock.now().toISOString();
    if (row.expires_at <= now) throw badRequest('SMS_CODE_EXPIRED', SMS_MESSAGES.expired);
    if (row.attempts >= SMS_LIMITS.maxAttempts) throw tooMany(SMS_MESSAGES.tooManyAttempts);
    if (!safeEqual(row.code_hash, this.hash(phone, purpose, code))) {
      await this.sms.incrementAttempts(row.id);
      if (row.attempts + 1 >= SMS_LIMITS.maxAttempts) throw tooMany(SMS_MESSAGES.tooManyAttempts);
      throw badRequest('SMS_CODE_INVALID', SMS_MESSAGES.wrong);
    }
    if (consume) {
      if (!(await this.sms.consume(row.id, now))) throw badRequest('SMS_CODE_MISSING', SMS_MESSAGES.missing);
    } else {
      await this.sms.markVerified(row.id, now);
    }
  }

  /** The development outbox's messages, newest first (the administrator's view of what would have been sent). */
  async outbox(phone: string | undefined, limit: number): Promise<SmsOutboxList> {
    const rows = await this.sms.listOutbox(phone, limit);
    return {
      records: rows.map((row) => ({
        id: row.id,
        phone: row.phone,
        text: row.text,
        createdAt: row.created_at,
      })),
    };
  }

  private warn(fields: Record<string, unknown>, message: string): void {
    (this.options.warn ?? stderrWarn)({ ...fields, requestId: currentRequestId() }, message);
  }

  private hash(phone: string, purpose: string, code: string): string {
    return hmacHex(this.secret, `sms:${phone}:${purpose}:${code}`);
  }
}
