import svgCaptcha from 'svg-captcha';
import { LIMITS } from '@guji/shared';
import type { Captcha } from '@guji/shared';
import type { CaptchaRepository } from './captcha.repository.ts';
import { badRequest } from '../../errors.ts';
import { addSeconds, type Clock } from '../../lib/clock.ts';
import { hmacHex, randomToken, safeEqual } from '../../lib/crypto.ts';

export const CAPTCHA_MESSAGES = {
  wrong: '图形验证码错误',
  expired: '图形验证码已失效，请刷新后重试',
} as const;

/** Image captchas: single use, valid 5 minutes, answers stored as keyed hashes, case-insensitive. */
export class CaptchaService {
  constructor(
    private readonly captchas: CaptchaRepository,
    private readonly secret: string,
    private readonly clock: Clock,
  ) {}

  async create(): Promise<Captcha & { answer: string }> {
    const drawn = svgCaptcha.create({
      size: 4,
      noise: 2,
      color: true,
      background: '#f3ede1',
      ignoreChars: '0oO1ilI',
      width: 120,
      height: 40,
    });
    const id = randomToken();
    const now = this.clock.now();
    await this.captchas.create({
      id,
      answerHash: this.hash(id, drawn.text),
      createdAt: now.toISOString(),
      expiresAt: addSeconds(now, LIMITS.captchaTtlSeconds).toISOString(),
    });
    return {
      captchaId: id,
      image: `data:image/svg+xml;base64,${Buffer.from(drawn.data).toString('base64')}`,
      expiresInSeconds: LIMITS.captchaTtlSeconds,
      answer: drawn.text,
    };
  }

  /** Uses up the captcha and throws unless the answer was right; a captcha never works twice. */
  async verify(captchaId: string, answer: string): Promise<void> {
    const stored = await this.captchas.consume(captchaId, this.clock.now().toISOString());
    if (!stored) throw badRequest('CAPTCHA_EXPIRED', CAPTCHA_MESSAGES.expired);
    if (!safeEqual(stored, this.hash(captchaId, answer.trim()))) {
      throw badRequest('CAPTCHA_INVALID', CAPTCHA_MESSAGES.wrong);
    }
  }

  private hash(id: string, answer: string): string {
    return hmacHex(this.secret, `captcha:${id}:${answer.toLowerCase()}`);
  }
}
