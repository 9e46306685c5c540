import { AlipaySdk } from 'alipay-sdk';
import type { PaymentNotice, PaymentProvider, ProviderTrade, RefundResult, TradeRequest } from './payment.ts';
import { TRADE_LIFETIME_MS } from './payment.ts';
import { fenOfYuan, yuanOfFen } from './payment-amount.ts';
import type { AlipayConfig } from '../../config/payment.ts';

/** The notify webhook's path (under the site's public origin). */
export const ALIPAY_NOTIFY_PATH = '/api/payments/notify/alipay';

const PAID = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);
const UNPAID = new Set(['WAIT_BUYER_PAY', 'TRADE_CLOSED']);

type Answer = Record<string, unknown> & { code?: string; msg?: string; subCode?: string; subMsg?: string };

/** Alipay's words for a refused call, as "code msg (sub_code sub_msg)". */
const reasonOf = (a: Answer) =>
  [a.code, a.msg, a.subCode ? `(${a.subCode} ${a.subMsg ?? ''})` : ''].filter(Boolean).join(' ').trim();

/**
 * Alipay face-to-face payment (当面付, precreate QR) through Alipay's official Node SDK: the SDK signs
 * each request (RSA2) and verifies each response's signature with Alipay's public key; notices are
 * verified with the same key (checkNotifySignV2), then their app, seller, amount and status are checked.
 */
export class AlipayPaymentProvider implements PaymentProvider {
  readonly name = 'alipay';
  private readonly sdk: AlipaySdk;

  constructor(private readonly config: AlipayConfig) {
    this.sdk = new AlipaySdk({
      appId: config.appId,
      privateKey: config.privateKey,
      keyType: 'PKCS8',
      alipayPublicKey: config.alipayPublicKey,
      signType: 'RSA2',
      timeout: 10_000,
      ...(config.gateway ? { gateway: config.gateway } : {}),
    });
  }

  /** One signed call whose signed answer is verified; throws with Alipay's reason unless code 10000. */
  private async call(
    method: string,
    bizContent: Record<string, unknown>,
    extra: Record<string, string> = {},
  ) {
    const answer = (await this.sdk.exec(method, { ...extra, bizContent }, { validateSign: true })) as Answer;
    return answer;
  }

  /** alipay.trade.precreate: its qr_code is what the checkout's QR code shows. */
  async createTrade(trade: TradeRequest): Promise<{ payUrl: string }> {
    const answer = await this.call(
      'alipay.trade.precreate',
      {
        out_trade_no: trade.tradeNo,
        total_amount: yuanOfFen(trade.amountFen),
        subject: trade.subject,
        timeout_express: `${TRADE_LIFETIME_MS / 60_000}m`,
      },
      { notify_url: `${trade.origin}${ALIPAY_NOTIFY_PATH}` },
    );
    if (answer.code !== '10000' || answer.outTradeNo !== trade.tradeNo || typeof answer.qrCode !== 'string')
      throw new Error(`Alipay precreate refused: ${reasonOf(answer)}`);
    return { payUrl: answer.qrCode };
  }

  /**
   * An asynchronous notice (form fields, already decoded): Alipay's RSA2 signature over the sorted
   * fields, then our app id, our seller (when configured), a well-formed amount and a known status.
   */
  verifyNotice(body: unknown): PaymentNotice | undefined {
    if (!body || typeof body !== 'object') return undefined;
    const fields = body as Record<string, unknown>;
    if (Object.values(fields).some((v) => typeof v !== 'string')) return undefined;
    const f = fields as Record<string, string>;
    if (typeof f.sign !== 'string' || (f.sign_type && f.sign_type !== 'RSA2')) return undefined;
    let signed: boolean;
    try {
      signed = this.sdk.checkNotifySignV2(f);
    } catch {
      signed = false;
    }
    if (!signed) return undefined;
    if (f.app_id !== this.config.appId) return undefined;
    if (this.config.sellerId && f.seller_id !== this.config.sellerId) return undefined;
    const amountFen = fenOfYuan(f.total_amount);
    const status = f.trade_status ?? '';
    if (!f.notify_id || !f.out_trade_no || amountFen === undefined) return undefined;
    if (!PAID.has(status) && !UNPAID.has(status)) return undefined;
    return { noticeId: `alipay:${f.notify_id}`, tradeNo: f.out_trade_no, amountFen, paid: PAID.has(status) };
  }

  /** alipay.trade.refund with out_request_no: repeating it with the same number is the same refund. */
  async refund(r: {
    tradeNo: string;
    refundNo: string;
    amountFen: number;
    reason: string;
  }): Promise<RefundResult> {
    const answer = await this.call('alipay.trade.refund', {
      out_trade_no: r.tradeNo,
      refund_amount: yuanOfFen(r.amountFen),
      out_request_no: r.refundNo,
      refund_reason: r.reason,
    });
    // 20000 (or a system error) leaves the outcome unknown: the same out_request_no is asked again.
    if (answer.code === '20000' || answer.subCode === 'ACQ.SYSTEM_ERROR')
      return { status: 'pending', detail: reasonOf(answer) };
    if (answer.code !== '10000') return { status: 'failed', detail: reasonOf(answer) };
    // code 10000 is a refund accepted: fund_change N only says this repeat moved no money again.
    return { status: 'success', detail: null };
  }

  /**
   * alipay.trade.fastpay.refund.query: a refund Alipay answers with refund_status REFUND_SUCCESS is done;
   * one it does not know (no refund_amount) was not made.
   */
  async queryRefund(r: { tradeNo: string; refundNo: string }): Promise<RefundResult> {
    const answer = await this.call('alipay.trade.fastpay.refund.query', {
      out_trade_no: r.tradeNo,
      out_request_no: r.refundNo,
    });
    if (answer.code !== '10000') return { status: 'pending', detail: reasonOf(answer) };
    if (answer.refundStatus === 'REFUND_SUCCESS') return { status: 'success', detail: null };
    if (answer.refundAmount === undefined) return { status: 'failed', detail: '支付宝无此退款' };
    return { status: 'pending', detail: null };
  }

  /** alipay.trade.query: the trade's status and amount as Alipay has them. */
  async queryTrade(tradeNo: string): Promise<ProviderTrade> {
    const answer = await this.call('alipay.trade.query', { out_trade_no: tradeNo });
    if (answer.code === '40004' && answer.subCode === 'ACQ.TRADE_NOT_EXIST')
      return { tradeNo, state: 'missing', amountFen: null };
    if (answer.code !== '10000') throw new Error(`Alipay query refused: ${reasonOf(answer)}`);
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    const status = text(answer.tradeStatus);
    const amountFen = fenOfYuan(text(answer.totalAmount)) ?? null;
    if (PAID.has(status)) return { tradeNo, state: 'paid', amountFen };
    // A paid trade fully refunded is closed by Alipay.
    if (status === 'TRADE_CLOSED' && answer.sendPayDate) return { tradeNo, state: 'refunded', amountFen };
    return { tradeNo, state: 'unpaid', amountFen };
  }
}
