import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A verified payment notice: the provider says this trade was paid with this amount. */
export interface PaymentNotice {
  /** Unique per notice: a second notice with the same id is a replay. */
  noticeId: string;
  tradeNo: string;
  amountFen: number;
  paid: boolean;
}

/** What a provider is asked to open: our trade number (its out_trade_no), the amount and the subject. */
export interface TradeRequest {
  tradeNo: string;
  amountFen: number;
  /** What the payer sees in the payment app. */
  subject: string;
  /** This site's public origin: the notify webhook is under it. */
  origin: string;
}

/** A refund as the provider answered it: done, still being processed, or refused (with its reason). */
export interface RefundResult {
  status: 'success' | 'pending' | 'failed';
  /** The provider's own words when it refused or is still processing (never a secret). */
  detail: string | null;
}

/** One trade as the provider reports it, for reconciliation. */
export interface ProviderTrade {
  tradeNo: string;
  /** 'paid', 'unpaid' (waiting or closed without payment), 'refunded' or 'missing' (unknown to it). */
  state: 'paid' | 'unpaid' | 'refunded' | 'missing';
  amountFen: number | null;
}

/**
 * A payment provider (DESIGN.md §9; docs/payments.md): opens a trade and gives the content of the QR
 * code the payer scans, verifies the notices its webhook receives, refunds a paid trade and reports a
 * trade's state for reconciliation. The sandbox, Alipay (face-to-face, `alipay-sdk`) and WeChat Pay
 * Native (API v3) implement it, each with its own signatures.
 */
export interface PaymentProvider {
  readonly name: string;
  /** Opens the trade with the provider: the QR code's content. Throws when the provider refuses. */
  createTrade(trade: TradeRequest): Promise<{ payUrl: string }>;
  /**
   * The notice if its signature is the provider's; undefined for anything forged or malformed. `body` is
   * the parsed body, `raw` its exact text (WeChat signs the raw text), `headers` the request's headers.
   */
  verifyNotice(body: unknown, raw?: string, headers?: Record<string, unknown>): PaymentNotice | undefined;
  /** Refunds (part of) a paid trade; `refundNo` makes a repeated request the same refund. */
  refund(refund: {
    tradeNo: string;
    refundNo: string;
    amountFen: number;
    totalFen: number;
    reason: string;
  }): Promise<RefundResult>;
  /** A refund's state now (a pending refund is asked again until it is done or refused). */
  queryRefund(refund: { tradeNo: string; refundNo: string }): Promise<RefundResult>;
  /** A trade's state at the provider (reconciliation). */
  queryTrade(tradeNo: string): Promise<ProviderTrade>;
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

  payUrl(trade: { tradeNo: string; amountFen?: number }, origin: string): string {
    return `${origin}/SandboxPay/${trade.tradeNo}?sig=${this.pageSignature(trade.tradeNo)}`;
  }

  createTrade(trade: TradeRequest): Promise<{ payUrl: string }> {
    return Promise.resolve({ payUrl: this.payUrl(trade, trade.origin) });
  }

  /** No money moved, so a sandbox refund is done at once. */
  refund(): Promise<RefundResult> {
    return Promise.resolve({ status: 'success', detail: null });
  }

  queryRefund(): Promise<RefundResult> {
    return Promise.resolve({ status: 'success', detail: null });
  }

  /** The sandbox keeps no ledger of its own: it knows no trade (reconciliation is for real providers). */
  queryTrade(tradeNo: string): Promise<ProviderTrade> {
    return Promise.resolve({ tradeNo, state: 'missing', amountFen: null });
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
