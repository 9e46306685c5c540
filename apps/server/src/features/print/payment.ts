import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A verified payment notice: the provider says this trade was paid with this amount. */
export interface PaymentNotice {
  /** Unique per notice: a second notice with the same id is a replay. */
  noticeId: string;
  tradeNo: string;
  amountFen: number;
  paid: boolean;
}

/**
 * A payment provider (DESIGN.md §9): makes the address a payer opens for a trade, and verifies the
 * notices its webhook receives. A real provider (WeChat Pay, Alipay, UnionPay) implements the same two
 * calls with its own signatures.
 */
export interface PaymentProvider {
  readonly name: string;
  /** The page the QR code opens for this trade. */
  payUrl(trade: { tradeNo: string; amountFen: number }, origin: string): string;
  /** The notice if its signature is the provider's; undefined for anything forged or malformed. */
  verifyNotice(body: unknown): PaymentNotice | undefined;
}

/**
 * How long a trade may be paid after its QR code is made (the `time_expire` a real provider is given).
 * Access to the order's pages is checked when the trade is opened, so this bounds how long after that
 * check money can still be taken; the sandbox page refuses older trades.
 */
export const TRADE_LIFETIME_MS = 15 * 60_000;

const canonical = (n: { noticeId: string; tradeNo: string; amountFen: number; status: string }) =>
  `noticeId=${n.noticeId}&tradeNo=${n.tradeNo}&amountFen=${n.amountFen}&status=${n.status}`;

/**
 * The built-in sandbox provider: the QR code opens a mobile payment page on this server
 * (/SandboxPay/{tradeNo}); confirming there makes a notice signed with the sandbox secret (HMAC-SHA256)
 * and posts it to the notify webhook like a real provider would. No money moves.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = 'sandbox';

  constructor(private readonly secret: string) {}

  private sign(text: string): string {
    return createHmac('sha256', this.secret).update(text).digest('hex');
  }

  /** A signature over the trade number, so the mobile page cannot be opened for a guessed trade. */
  pageSignature(tradeNo: string): string {
    return this.sign(`page:${tradeNo}`).slice(0, 32);
  }

  checkPageSignature(tradeNo: string, signature: string): boolean {
    return safeEqual(this.pageSignature(tradeNo), signature);
  }

  payUrl(trade: { tradeNo: string; amountFen: number }, origin: string): string {
    return `${origin}/SandboxPay/${trade.tradeNo}?sig=${this.pageSignature(trade.tradeNo)}`;
  }

  /** The notice the sandbox sends when the payer confirms (or cancels) on the mobile page. */
  makeNotice(tradeNo: string, amountFen: number, paid: boolean): Record<string, string | number> {
    const notice = {
      noticeId: randomBytes(12).toString('hex'),
      tradeNo,
      amountFen,
      status: paid ? 'SUCCESS' : 'CLOSED',
    };
    return { ...notice, sign: this.sign(canonical(notice)) };
  }

  verifyNotice(body: unknown): PaymentNotice | undefined {
    if (!body || typeof body !== 'object') return undefined;
    const b = body as Record<string, unknown>;
    const { noticeId, tradeNo, amountFen, status, sign } = b;
    if (
      typeof noticeId !== 'string' ||
      typeof tradeNo !== 'string' ||
      typeof amountFen !== 'number' ||
      !Number.isInteger(amountFen) ||
      (status !== 'SUCCESS' && status !== 'CLOSED') ||
      typeof sign !== 'string'
    )
      return undefined;
    if (!safeEqual(this.sign(canonical({ noticeId, tradeNo, amountFen, status })), sign)) return undefined;
    return { noticeId, tradeNo, amountFen, paid: status === 'SUCCESS' };
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
