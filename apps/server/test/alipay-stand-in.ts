import { createSign, createVerify, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A fresh RSA-2048 key pair as PEM (PKCS#8 private, SPKI public), like Alipay's key tool makes. */
export function rsaKeys(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** Alipay's content to sign: the fields but `sign` (and `sign_type` for notices), non-empty, sorted. */
export function signContent(fields: Record<string, string>, omitSignType: boolean): string {
  return Object.keys(fields)
    .filter((k) => k !== 'sign' && !(omitSignType && k === 'sign_type') && fields[k] !== '')
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('&');
}

const rsa2 = (text: string, key: string | KeyObject) =>
  createSign('RSA-SHA256').update(text, 'utf8').sign(key, 'base64');

interface Trade {
  outTradeNo: string;
  totalAmount: string;
  subject: string;
  notifyUrl: string;
  tradeNo: string;
  status: 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED';
  refunded: Map<string, string>;
}

/**
 * A stand-in for Alipay's open-platform gateway (gateway.do), for tests: checks each request as Alipay
 * documents it (RSA2 signature with the app's public key over the sorted parameters, the common
 * parameters, the biz_content fields and amounts), answers with a response signed by its own "Alipay"
 * key, keeps the trades it opened, and makes genuinely signed asynchronous notices for them.
 */
export class AlipayStandIn {
  readonly alipay = rsaKeys();
  readonly trades = new Map<string, Trade>();
  /** Every call as received (method and biz_content). */
  readonly calls: Array<{ method: string; biz: Record<string, string>; params: Record<string, string> }> = [];
  /** What was wrong with the requests it refused; a test expects none unless it sends a bad one. */
  readonly problems: string[] = [];
  /** Answer the next precreate with this business error (code 40004). */
  failNext: string | undefined;
  /** Answer the next refund with code 20000 (service unavailable: the outcome is unknown, ask again). */
  refundDownNext = false;
  private server!: http.Server;
  gateway = '';

  constructor(
    readonly appId: string,
    private readonly appPublicKey: string,
    readonly sellerId = '2088000000000001',
  ) {}

  async start(): Promise<this> {
    this.server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const text = this.answer(request.url ?? '/', body, String(request.headers['content-type'] ?? ''));
        response.writeHead(200, { 'content-type': 'text/html;charset=utf-8' }).end(text);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.gateway = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/gateway.do`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(url: string, body: string, contentType: string): string {
    const params: Record<string, string> = Object.fromEntries(new URL(url, 'http://x').searchParams);
    const form = contentType.includes('json')
      ? (JSON.parse(body || '{}') as Record<string, string>)
      : Object.fromEntries(new URLSearchParams(body));
    Object.assign(params, form);
    const method = params.method ?? '';
    const key = `${method.replaceAll('.', '_')}_response`;
    const refuse = (subCode: string, subMsg: string) => {
      this.problems.push(`${method}: ${subMsg}`);
      return this.signed(key, {
        code: '40002',
        msg: 'Invalid Arguments',
        sub_code: subCode,
        sub_msg: subMsg,
      });
    };
    const verified = createVerify('RSA-SHA256')
      .update(signContent(params, false), 'utf8')
      .verify(this.appPublicKey, params.sign ?? '', 'base64');
    if (!verified) return refuse('isv.invalid-signature', '验签出错');
    if (params.app_id !== this.appId) return refuse('isv.invalid-app-id', 'app_id 无效');
    if (params.charset !== 'utf-8' || params.sign_type !== 'RSA2' || params.version !== '1.0')
      return refuse('isv.invalid-parameter', 'charset/sign_type/version 无效');
    if (!/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(params.timestamp ?? ''))
      return refuse('isv.invalid-timestamp', 'timestamp 格式错误');
    let biz: Record<string, string>;
    try {
      biz = JSON.parse(params.biz_content ?? '') as Record<string, string>;
    } catch {
      return refuse('isv.missing-biz-content', 'biz_content 不是 JSON');
    }
    this.calls.push({ method, biz, params });
    const amount = (text: string | undefined) => /^(0|[1-9]\d*)\.\d{2}$/.test(text ?? '') && Number(text) > 0;
    if (method === 'alipay.trade.precreate') {
      if (!/^[A-Za-z0-9_]{1,64}$/.test(biz.out_trade_no ?? ''))
        return refuse('isv.invalid-out-trade-no', 'out_trade_no');
      if (!amount(biz.total_amount))
        return refuse('isv.invalid-total-amount', 'total_amount 须为两位小数的元');
      if (!biz.subject || biz.subject.length > 256) return refuse('isv.invalid-subject', 'subject');
      if (!/^https?:\/\//.test(params.notify_url ?? ''))
        return refuse('isv.invalid-notify-url', 'notify_url');
      if (this.failNext) {
        const subMsg = this.failNext;
        this.failNext = undefined;
        return this.signed(key, {
          code: '40004',
          msg: 'Business Failed',
          sub_code: 'ACQ.SYSTEM_ERROR',
          sub_msg: subMsg,
        });
      }
      const trade: Trade = {
        outTradeNo: biz.out_trade_no!,
        totalAmount: biz.total_amount!,
        subject: biz.subject,
        notifyUrl: params.notify_url!,
        tradeNo: `2026${randomBytes(12).toString('hex')}`,
        status: 'WAIT_BUYER_PAY',
        refunded: new Map(),
      };
      this.trades.set(trade.outTradeNo, trade);
      const qr = `https://qr.alipay.com/bax0${randomBytes(10).toString('hex')}`;
      return this.signed(key, { code: '10000', msg: 'Success', out_trade_no: trade.outTradeNo, qr_code: qr });
    }
    const trade = this.trades.get(biz.out_trade_no ?? '');
    if (!trade)
      return this.signed(key, {
        code: '40004',
        msg: 'Business Failed',
        sub_code: 'ACQ.TRADE_NOT_EXIST',
        sub_msg: '交易不存在',
      });
    if (method === 'alipay.trade.query') {
      return this.signed(key, {
        code: '10000',
        msg: 'Success',
        out_trade_no: trade.outTradeNo,
        trade_no: trade.tradeNo,
        trade_status: trade.status,
        total_amount: trade.totalAmount,
        ...(trade.status === 'TRADE_SUCCESS' || trade.refunded.size > 0
          ? { send_pay_date: '2026-06-01 16:00:05' }
          : {}),
      });
    }
    if (method === 'alipay.trade.refund') {
      if (!amount(biz.refund_amount))
        return refuse('isv.invalid-refund-amount', 'refund_amount 须为两位小数的元');
      if (!biz.out_request_no) return refuse('isv.missing-out-request-no', 'out_request_no');
      if (this.refundDownNext) {
        this.refundDownNext = false;
        return this.signed(key, {
          code: '20000',
          msg: 'Service Currently Unavailable',
          sub_code: 'isp.unknow-error',
          sub_msg: '系统繁忙',
        });
      }
      const again = trade.refunded.has(biz.out_request_no);
      if (!again) {
        if (trade.status !== 'TRADE_SUCCESS')
          return this.signed(key, {
            code: '40004',
            msg: 'Business Failed',
            sub_code: 'ACQ.TRADE_STATUS_ERROR',
            sub_msg: '交易状态不合法',
          });
        const done = [...trade.refunded.values()].reduce((sum, v) => sum + Math.round(Number(v) * 100), 0);
        if (done + Math.round(Number(biz.refund_amount) * 100) > Math.round(Number(trade.totalAmount) * 100))
          return this.signed(key, {
            code: '40004',
            msg: 'Business Failed',
            sub_code: 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL',
            sub_msg: '退款金额超限',
          });
        trade.refunded.set(biz.out_request_no, biz.refund_amount!);
        const total = [...trade.refunded.values()].reduce((sum, v) => sum + Math.round(Number(v) * 100), 0);
        if (total === Math.round(Number(trade.totalAmount) * 100)) trade.status = 'TRADE_CLOSED';
      }
      return this.signed(key, {
        code: '10000',
        msg: 'Success',
        out_trade_no: trade.outTradeNo,
        trade_no: trade.tradeNo,
        refund_fee: biz.refund_amount!,
        fund_change: again ? 'N' : 'Y',
      });
    }
    if (method === 'alipay.trade.fastpay.refund.query') {
      if (!biz.out_request_no) return refuse('isv.missing-out-request-no', 'out_request_no');
      const amount = trade.refunded.get(biz.out_request_no);
      // A refund Alipay does not know is answered without refund_amount (documented behaviour).
      return this.signed(key, {
        code: '10000',
        msg: 'Success',
        out_trade_no: trade.outTradeNo,
        out_request_no: biz.out_request_no,
        ...(amount
          ? { refund_amount: amount, total_amount: trade.totalAmount, refund_status: 'REFUND_SUCCESS' }
          : {}),
      });
    }
    return refuse('isv.invalid-method', `不支持的接口 ${method}`);
  }

  /** A response as Alipay sends it: the signature is over the exact JSON text of the response object. */
  private signed(key: string, value: Record<string, string>): string {
    const inner = JSON.stringify(value);
    return `{"${key}":${inner},"sign":"${rsa2(inner, this.alipay.privateKey)}"}`;
  }

  /** The payer pays: the trade is paid at Alipay, and its genuine notice. */
  pay(outTradeNo: string): { path: string; form: string; fields: Record<string, string> } {
    const trade = this.trades.get(outTradeNo);
    if (trade) trade.status = 'TRADE_SUCCESS';
    return this.notice(outTradeNo);
  }

  /**
   * A notice for a trade (status TRADE_SUCCESS unless `fields` says otherwise): the asynchronous notice for the
   * trade, form-encoded and signed with the "Alipay" key (or `signWith`, a forgery), and the path of the
   * notify_url our precreate gave. `fields` change the notice before it is signed; `after` after.
   */
  notice(
    outTradeNo: string,
    options: { fields?: Record<string, string>; after?: Record<string, string>; signWith?: string } = {},
  ): { path: string; form: string; fields: Record<string, string> } {
    const trade = this.trades.get(outTradeNo);
    if (!trade) throw new Error(`no trade ${outTradeNo}`);
    const fields: Record<string, string> = {
      gmt_create: '2026-06-01 16:00:00',
      charset: 'utf-8',
      gmt_payment: '2026-06-01 16:00:05',
      notify_time: '2026-06-01 16:00:06',
      subject: trade.subject,
      buyer_id: '2088102177846880',
      invoice_amount: trade.totalAmount,
      version: '1.0',
      notify_id: randomBytes(16).toString('hex'),
      fund_bill_list: JSON.stringify([{ amount: trade.totalAmount, fundChannel: 'ALIPAYACCOUNT' }]),
      notify_type: 'trade_status_sync',
      out_trade_no: trade.outTradeNo,
      total_amount: trade.totalAmount,
      trade_status: 'TRADE_SUCCESS',
      trade_no: trade.tradeNo,
      auth_app_id: this.appId,
      receipt_amount: trade.totalAmount,
      point_amount: '0.00',
      app_id: this.appId,
      buyer_pay_amount: trade.totalAmount,
      sign_type: 'RSA2',
      seller_id: this.sellerId,
      ...options.fields,
    };
    fields.sign = rsa2(signContent(fields, true), options.signWith ?? this.alipay.privateKey);
    Object.assign(fields, options.after);
    return { path: new URL(trade.notifyUrl).pathname, form: new URLSearchParams(fields).toString(), fields };
  }
}

/** The site's environment for Alipay through a stand-in gateway (the application's keys are the test's). */
export function alipayEnv(
  standIn: AlipayStandIn,
  app: { privateKey: string },
  origin = 'https://guji.example.org',
): Record<string, string> {
  return {
    PAYMENT_PROVIDER: 'alipay',
    ALIPAY_APP_ID: standIn.appId,
    ALIPAY_PRIVATE_KEY: app.privateKey,
    ALIPAY_PUBLIC_KEY: standIn.alipay.publicKey,
    ALIPAY_SELLER_ID: standIn.sellerId,
    ALIPAY_GATEWAY: standIn.gateway,
    PUBLIC_ORIGIN: origin,
  };
}
