import {
  createPrivateKey,
  createPublicKey,
  randomBytes,
  sign,
  verify,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';
import type { PaymentNotice, PaymentProvider, ProviderTrade, RefundResult, TradeRequest } from './payment.ts';
import { TRADE_LIFETIME_MS } from './payment.ts';
import { beijingTime, decryptResource, utf8Prefix } from './wechat-pay-format.ts';
import type { WechatPayConfig } from '../../config/payment.ts';

/** The notify webhook's path (under the site's public origin). */
export const WECHAT_NOTIFY_PATH = '/api/payments/notify/wechat';

/** How far a signed answer's or notice's timestamp may be from our clock (WeChat's rule: 5 minutes). */
const CLOCK_SKEW_S = 5 * 60;
/** Platform certificates are fetched again for an unknown serial at most this often. */
const REFRESH_INTERVAL_MS = 60_000;
const TIMEOUT_MS = 10_000;
const SCHEME = 'WECHATPAY2-SHA256-RSA2048';

const PAID = new Set(['SUCCESS']);
const UNPAID = new Set(['NOTPAY', 'CLOSED', 'REVOKED', 'USERPAYING', 'PAYERROR']);

/** What an API call answered: the HTTP status and the JSON body (verified when 2xx). */
interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** A field's text (anything but text or a number reads as empty). */
const textOf = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

/** WeChat's words for a refused call: "HTTP status code message". */
const reasonOf = (a: Answer) =>
  `${a.status} ${textOf(a.body.code)} ${textOf(a.body.message)}`.replace(/\s+/g, ' ').trim();

const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/** One key WeChat signs with: a platform certificate's (valid between its dates) or the public key. */
interface Verifier {
  key: KeyObject;
  notBefore: number;
  notAfter: number;
}

/**
 * WeChat Pay Native (扫码支付, API v3) with node:crypto and fetch only (WeChat publishes no Node SDK).
 * Each request is signed with the merchant's API private key (WECHATPAY2-SHA256-RSA2048); each 2xx
 * answer and each notice is verified with WeChat's key named by its Wechatpay-Serial: a platform
 * certificate (fetched from /v3/certificates, decrypted with the APIv3 key, fetched again when an unknown
 * serial appears, at most once a minute) or the configured WeChat Pay public key. Notices' resources are
 * decrypted with the APIv3 key, then their app, merchant, state and amount are checked.
 */
export class WechatPayProvider implements PaymentProvider {
  readonly name = 'wechat';
  private readonly privateKey: KeyObject;
  private readonly verifiers = new Map<string, Verifier>();
  private readonly now: () => number;
  private lastRefresh = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly config: WechatPayConfig,
    /** The clock (tests move it); Date.now by default. */
    options: { now?: () => number } = {},
  ) {
    this.privateKey = createPrivateKey(config.privateKey);
    this.now = options.now ?? Date.now;
    if (config.publicKey)
      this.verifiers.set(config.publicKey.id.toUpperCase(), {
        key: createPublicKey(config.publicKey.pem),
        notBefore: Number.NEGATIVE_INFINITY,
        notAfter: Number.POSITIVE_INFINITY,
      });
  }

  /** The Authorization header of a request: the merchant's signature over method, path, time, nonce, body. */
  private authorization(method: string, path: string, body: string): string {
    const timestamp = String(Math.floor(this.now() / 1000));
    const nonce = randomBytes(16).toString('hex').toUpperCase();
    const message = `${method}\n${path}\n${timestamp}\n${nonce}\n${body}\n`;
    const signature = sign('RSA-SHA256', Buffer.from(message, 'utf8'), this.privateKey).toString('base64');
    return `${SCHEME} mchid="${this.config.mchId}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${this.config.certSerial}"`;
  }

  /** One signed call; a 2xx answer's signature is checked (by `verifyWith` when given). */
  private async call(
    method: 'GET' | 'POST',
    path: string,
    payload?: Record<string, unknown>,
    verifyWith?: (headers: Headers, text: string) => boolean,
  ): Promise<Answer> {
    const body = payload ? JSON.stringify(payload) : '';
    const response = await fetch(`${this.config.gateway}${path}`, {
      method,
      headers: {
        authorization: this.authorization(method, path, body),
        accept: 'application/json',
        'user-agent': 'guji-library (node)',
        ...(payload ? { 'content-type': 'application/json' } : {}),
        ...(this.config.publicKey ? { 'wechatpay-serial': this.config.publicKey.id } : {}),
      },
      ...(payload ? { body } : {}),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = {};
    }
    const answer = { status: response.status, body: isObject(parsed) ? parsed : {} };
    // Only a 2xx answer is signed for certain (WeChat's SDKs verify those); an error is only read.
    if (!response.ok) return answer;
    const signed = verifyWith
      ? verifyWith(response.headers, text)
      : await this.verifyAnswer((name) => response.headers.get(name) ?? undefined, text);
    if (!signed)
      throw new Error(`WeChat Pay answer to ${method} ${path.split('?')[0]} is not signed by WeChat Pay`);
    return answer;
  }

  /** A signed message's check: 'ok', 'unknown' (a serial we have no key for) or 'bad'. */
  private check(
    header: (name: string) => string | undefined,
    text: string,
    /** Keys trusted for this message only (the certificates of the answer that brings them). */
    extra?: Map<string, Verifier>,
  ): 'ok' | 'unknown' | 'bad' {
    const timestamp = header('wechatpay-timestamp') ?? '';
    const nonce = header('wechatpay-nonce') ?? '';
    const signature = header('wechatpay-signature') ?? '';
    const serial = (header('wechatpay-serial') ?? '').toUpperCase();
    const type = header('wechatpay-signature-type');
    if (type !== undefined && type !== SCHEME) return 'bad';
    if (!/^\d{1,12}$/.test(timestamp) || !nonce || !signature || !serial) return 'bad';
    const now = this.now();
    if (Math.abs(now / 1000 - Number(timestamp)) > CLOCK_SKEW_S) return 'bad';
    const verifier = extra?.get(serial) ?? this.verifiers.get(serial);
    if (!verifier || now < verifier.notBefore || now > verifier.notAfter) return 'unknown';
    try {
      const message = Buffer.from(`${timestamp}\n${nonce}\n${text}\n`, 'utf8');
      return verify('RSA-SHA256', message, verifier.key, Buffer.from(signature, 'base64')) ? 'ok' : 'bad';
    } catch {
      return 'bad';
    }
  }

  /** An answer's signature, fetching the platform certificates first when its serial is unknown. */
  private async verifyAnswer(header: (name: string) => string | undefined, text: string): Promise<boolean> {
    const first = this.check(header, text);
    if (first !== 'unknown') return first === 'ok';
    await this.refreshCertificates().catch(() => undefined);
    return this.check(header, text) === 'ok';
  }

  /**
   * The platform certificates again from GET /v3/certificates, at most once a minute (concurrent callers
   * share one fetch). Each is decrypted with the APIv3 key (which authenticates it) and its serial checked;
   * the answer itself must be signed with one of them.
   */
  refreshCertificates(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    if (this.now() - this.lastRefresh < REFRESH_INTERVAL_MS) return Promise.resolve();
    this.lastRefresh = this.now();
    this.refreshing = this.fetchCertificates().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async fetchCertificates(): Promise<void> {
    const fetched = new Map<string, Verifier>();
    const answer = await this.call('GET', '/v3/certificates', undefined, (headers, text) => {
      let data: unknown;
      try {
        data = (JSON.parse(text) as { data?: unknown }).data;
      } catch {
        return false;
      }
      if (!Array.isArray(data)) return false;
      for (const entry of data as unknown[]) {
        if (!isObject(entry) || typeof entry.serial_no !== 'string' || !isObject(entry.encrypt_certificate))
          continue;
        try {
          const cert = new X509Certificate(decryptResource(this.config.apiV3Key, entry.encrypt_certificate));
          if (cert.serialNumber.toUpperCase() !== entry.serial_no.toUpperCase()) continue;
          fetched.set(cert.serialNumber.toUpperCase(), {
            key: cert.publicKey,
            notBefore: Date.parse(cert.validFrom),
            notAfter: Date.parse(cert.validTo),
          });
        } catch {
          // not decryptable with our APIv3 key: not WeChat's
        }
      }
      return this.check((name) => headers.get(name) ?? undefined, text, fetched) === 'ok';
    });
    if (answer.status !== 200) throw new Error(`WeChat Pay certificates refused: ${reasonOf(answer)}`);
    for (const [serial, v] of fetched) this.verifiers.set(serial, v);
  }

  /** POST /v3/pay/transactions/native: its code_url is what the checkout's QR code shows. */
  async createTrade(trade: TradeRequest): Promise<{ payUrl: string }> {
    const answer = await this.call('POST', '/v3/pay/transactions/native', {
      appid: this.config.appId,
      mchid: this.config.mchId,
      description: utf8Prefix(trade.subject, 127),
      out_trade_no: trade.tradeNo,
      time_expire: beijingTime(this.now() + TRADE_LIFETIME_MS),
      notify_url: `${trade.origin}${WECHAT_NOTIFY_PATH}`,
      amount: { total: trade.amountFen, currency: 'CNY' },
    });
    const codeUrl = answer.body.code_url;
    if (answer.status !== 200 || typeof codeUrl !== 'string' || !codeUrl.startsWith('weixin://'))
      throw new Error(`WeChat Pay native order refused: ${reasonOf(answer)}`);
    return { payUrl: codeUrl };
  }

  /**
   * A notice (JSON, WeChat's signature in the headers over the raw text): the signature and its time,
   * then the resource decrypted with the APIv3 key, our app and merchant, the trade's state and amount.
   * An unknown serial (certificates rotated) refuses this one and fetches the certificates, so WeChat's
   * next try is accepted.
   */
  verifyNotice(_body: unknown, raw?: string, headers?: Record<string, unknown>): PaymentNotice | undefined {
    if (typeof raw !== 'string' || !headers) return undefined;
    const header = (name: string) => {
      const value = headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const signed = this.check(header, raw);
    if (signed === 'unknown') void this.refreshCertificates().catch(() => undefined);
    if (signed !== 'ok') return undefined;
    let notice: unknown;
    let transaction: unknown;
    try {
      notice = JSON.parse(raw);
      if (!isObject(notice) || !isObject(notice.resource)) return undefined;
      if (notice.resource.original_type !== 'transaction') return undefined;
      transaction = JSON.parse(decryptResource(this.config.apiV3Key, notice.resource));
    } catch {
      return undefined;
    }
    if (!isObject(transaction) || typeof notice.id !== 'string' || !notice.id) return undefined;
    if (typeof notice.event_type !== 'string' || !notice.event_type.startsWith('TRANSACTION.'))
      return undefined;
    const t = transaction;
    if (t.appid !== this.config.appId || t.mchid !== this.config.mchId) return undefined;
    if (typeof t.out_trade_no !== 'string' || !t.out_trade_no) return undefined;
    const state = typeof t.trade_state === 'string' ? t.trade_state : '';
    if (!PAID.has(state) && !UNPAID.has(state)) return undefined;
    const amount = isObject(t.amount) ? t.amount : {};
    const total = amount.total;
    if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 0) return undefined;
    if (amount.currency !== undefined && amount.currency !== 'CNY') return undefined;
    return {
      noticeId: `wechat:${notice.id}`,
      tradeNo: t.out_trade_no,
      amountFen: total,
      paid: PAID.has(state),
    };
  }

  /** A refund's state as WeChat reports it (refund and refund query answer the same object). */
  private refundOf(answer: Answer): RefundResult {
    switch (answer.body.status) {
      case 'SUCCESS':
        return { status: 'success', detail: null };
      case 'PROCESSING':
        return { status: 'pending', detail: null };
      case 'ABNORMAL':
        return { status: 'failed', detail: '退款异常：买家的银行卡已作废或冻结，请在微信支付商户平台处理' };
      case 'CLOSED':
        return { status: 'failed', detail: '微信支付已关闭此退款' };
      default:
        return { status: 'pending', detail: `微信支付退款状态未知：${textOf(answer.body.status)}` };
    }
  }

  /** A refused refund call: WeChat's busy answers are asked again (pending); others refused it. */
  private refusedRefund(answer: Answer): RefundResult {
    const busy =
      answer.status >= 500 || answer.body.code === 'SYSTEM_ERROR' || answer.body.code === 'FREQUENCY_LIMITED';
    return { status: busy ? 'pending' : 'failed', detail: reasonOf(answer) };
  }

  /**
   * POST /v3/refund/domestic/refunds with out_refund_no: repeating it with the same number is the same
   * refund. An answer that did not come (timeout) leaves it pending: its query says what became of it.
   */
  async refund(r: {
    tradeNo: string;
    refundNo: string;
    amountFen: number;
    totalFen: number;
    reason: string;
  }): Promise<RefundResult> {
    let answer: Answer;
    try {
      answer = await this.call('POST', '/v3/refund/domestic/refunds', {
        out_trade_no: r.tradeNo,
        out_refund_no: r.refundNo,
        reason: utf8Prefix(r.reason, 80),
        amount: { refund: r.amountFen, total: r.totalFen, currency: 'CNY' },
      });
    } catch (error) {
      return { status: 'pending', detail: `微信支付无有效应答：${(error as Error).message}` };
    }
    if (answer.status !== 200) return this.refusedRefund(answer);
    return this.refundOf(answer);
  }

  /** GET /v3/refund/domestic/refunds/{out_refund_no}: one WeChat does not know was not made. */
  async queryRefund(r: { tradeNo: string; refundNo: string }): Promise<RefundResult> {
    let answer: Answer;
    try {
      answer = await this.call('GET', `/v3/refund/domestic/refunds/${encodeURIComponent(r.refundNo)}`);
    } catch (error) {
      return { status: 'pending', detail: `微信支付无有效应答：${(error as Error).message}` };
    }
    if (answer.status === 404 && answer.body.code === 'RESOURCE_NOT_EXISTS')
      return { status: 'failed', detail: '微信支付无此退款' };
    if (answer.status !== 200) return { status: 'pending', detail: reasonOf(answer) };
    if (answer.body.out_refund_no !== r.refundNo || answer.body.out_trade_no !== r.tradeNo)
      return { status: 'pending', detail: '微信支付答复的退款单号不符' };
    return this.refundOf(answer);
  }

  /** GET /v3/pay/transactions/out-trade-no/{no}: the trade's state and amount as WeChat has them. */
  async queryTrade(tradeNo: string): Promise<ProviderTrade> {
    const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(tradeNo)}?mchid=${encodeURIComponent(this.config.mchId)}`;
    const answer = await this.call('GET', path);
    if (answer.status === 404 && answer.body.code === 'ORDER_NOT_EXIST')
      return { tradeNo, state: 'missing', amountFen: null };
    if (answer.status !== 200) throw new Error(`WeChat Pay query refused: ${reasonOf(answer)}`);
    const b = answer.body;
    if (b.out_trade_no !== tradeNo || b.mchid !== this.config.mchId)
      throw new Error('WeChat Pay answered the query for another trade or merchant');
    const total = isObject(b.amount) ? b.amount.total : undefined;
    const amountFen = typeof total === 'number' && Number.isSafeInteger(total) ? total : null;
    const state = textOf(b.trade_state);
    if (PAID.has(state)) return { tradeNo, state: 'paid', amountFen };
    if (state === 'REFUND') return { tradeNo, state: 'refunded', amountFen };
    return { tradeNo, state: 'unpaid', amountFen };
  }
}
