import { createVerify, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  certifiedKey,
  encryptResource,
  exactKeys,
  fen,
  isObject,
  makeNotice,
  resourceNonce,
  rsa,
  signedHeaders,
  type Json,
  type NoticeOptions,
  type Refund,
  type Reply,
  type Trade,
  type WechatNotice,
  type WechatSigner,
} from './wechat-pay-keys.ts';

export { certifiedKey, forgedSigner, type WechatNotice, type WechatSigner } from './wechat-pay-keys.ts';

/**
 * A stand-in for WeChat Pay's API v3 (api.mch.weixin.qq.com), for tests: checks each request as WeChat
 * documents it (the WECHATPAY2-SHA256-RSA2048 Authorization with the merchant's signature over method,
 * path, timestamp, nonce and body, verified with the merchant certificate's public key; mchid and serial;
 * the JSON fields and amounts), answers signed with its platform key, serves the platform certificates
 * encrypted under the APIv3 key, keeps the trades and refunds it made, and makes genuinely signed and
 * encrypted payment notices (and forged or tampered ones).
 */
export class WechatPayStandIn {
  /** The merchant's APIv3 key (32 characters). */
  readonly apiV3Key = randomBytes(16).toString('hex');
  /** The certificates /v3/certificates publishes; answers are signed with `signer`. */
  readonly platform: WechatSigner[] = [];
  signer: WechatSigner;
  readonly trades = new Map<string, Trade>();
  readonly refunds = new Map<string, Refund>();
  /** Every call checked and accepted (its method, path with query, and JSON body). */
  readonly calls: Array<{ method: string; path: string; body: Json }> = [];
  /** What was wrong with the requests it refused; a test expects none unless it sends a bad one. */
  readonly problems: string[] = [];
  /** Answer the next native order with this error (e.g. 500 SYSTEM_ERROR). */
  failNext: { status: number; code: string; message: string } | undefined;
  /** Sign the next answer with this key instead (a forged answer). */
  forgeNext: WechatSigner | undefined;
  /** The state a new refund is answered with (WeChat: PROCESSING, then SUCCESS). */
  refundStatus: Refund['status'] = 'PROCESSING';
  private server!: http.Server;
  gateway = '';

  constructor(
    readonly appId: string,
    readonly mchId: string,
    private readonly merchant: { publicKey: string; serial: string },
    /** Sign with a WeChat Pay public key (its id) instead of a platform certificate. */
    options: { publicKeyId?: string } = {},
  ) {
    this.signer = options.publicKeyId
      ? { serial: options.publicKeyId, ...rsa(), certificate: undefined }
      : this.publish();
  }

  /** A new platform certificate, published from now on; it signs answers when `use` is set. */
  publish(use = false): WechatSigner {
    const key = certifiedKey('Tenpay.com platform stand-in');
    this.platform.push(key);
    if (use) this.signer = key;
    return key;
  }

  async start(): Promise<this> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const reply = this.answer(request.method ?? 'GET', request.url ?? '/', request.headers, body);
        const text = reply.body ? JSON.stringify(reply.body) : '';
        const signer = this.forgeNext ?? this.signer;
        this.forgeNext = undefined;
        response
          .writeHead(reply.status, {
            ...(text ? { 'content-type': 'application/json; charset=utf-8' } : {}),
            'request-id': randomUUID(),
            ...signedHeaders(signer, text),
          })
          .end(text);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.gateway = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private refuse(status: number, code: string, message: string, where: string): Reply {
    this.problems.push(`${where}: ${code} ${message}`);
    return { status, body: { code, message } };
  }

  /** The merchant's Authorization, as WeChat checks it; a problem's text, or undefined when it is right. */
  private authProblem(method: string, url: string, headers: http.IncomingHttpHeaders, body: string) {
    const authorization = headers.authorization ?? '';
    const scheme = 'WECHATPAY2-SHA256-RSA2048 ';
    if (!authorization.startsWith(scheme)) return 'Authorization 认证类型不是 WECHATPAY2-SHA256-RSA2048';
    const fields: Record<string, string> = {};
    for (const part of authorization.slice(scheme.length).split(',')) {
      const match = /^\s*([a-z_]+)="([^"]*)"\s*$/.exec(part);
      if (!match) return `Authorization 格式错误：${part}`;
      fields[match[1]!] = match[2]!;
    }
    const names = Object.keys(fields).sort().join(',');
    if (names !== 'mchid,nonce_str,serial_no,signature,timestamp') return `Authorization 参数不全：${names}`;
    if (fields.mchid !== this.mchId) return 'Authorization 中的 mchid 与商户号不符';
    if (fields.serial_no !== this.merchant.serial) return '商户证书序列号 serial_no 有误';
    if (!/^\d{10}$/.test(fields.timestamp!) || Math.abs(Date.now() / 1000 - Number(fields.timestamp)) > 300)
      return '请求时间戳已过期';
    if (!/^[0-9A-Za-z]{16,32}$/.test(fields.nonce_str!)) return 'nonce_str 格式错误';
    const signed = createVerify('RSA-SHA256')
      .update(`${method}\n${url}\n${fields.timestamp}\n${fields.nonce_str}\n${body}\n`, 'utf8')
      .verify(this.merchant.publicKey, fields.signature!, 'base64');
    if (!signed) return '签名错误';
    if (!String(headers.accept ?? '').includes('application/json')) return 'Accept 须为 application/json';
    if (!headers['user-agent']) return '缺少 User-Agent';
    if (method === 'POST' && !String(headers['content-type'] ?? '').startsWith('application/json'))
      return 'Content-Type 须为 application/json';
    return undefined;
  }

  private answer(method: string, url: string, headers: http.IncomingHttpHeaders, text: string): Reply {
    const where = `${method} ${url.split('?')[0]}`;
    const auth = this.authProblem(method, url, headers, text);
    if (auth) return this.refuse(401, 'SIGN_ERROR', auth, where);
    let body: Json = {};
    if (method === 'POST') {
      try {
        const parsed: unknown = JSON.parse(text);
        if (!isObject(parsed)) throw new Error('not an object');
        body = parsed;
      } catch {
        return this.refuse(400, 'PARAM_ERROR', '请求体不是 JSON 对象', where);
      }
    } else if (text) return this.refuse(400, 'PARAM_ERROR', 'GET 请求不应有请求体', where);
    const { pathname, searchParams } = new URL(url, 'http://x');
    this.calls.push({ method, path: url, body });

    if (method === 'GET' && pathname === '/v3/certificates') return this.certificates();
    if (method === 'POST' && pathname === '/v3/pay/transactions/native') return this.native(body, where);
    const byTrade = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(pathname);
    if (method === 'GET' && byTrade) {
      if (searchParams.get('mchid') !== this.mchId || [...searchParams.keys()].length !== 1)
        return this.refuse(400, 'PARAM_ERROR', '查询参数须为 mchid', where);
      const trade = this.trades.get(decodeURIComponent(byTrade[1]!));
      if (!trade) return { status: 404, body: { code: 'ORDER_NOT_EXIST', message: '订单不存在' } };
      return { status: 200, body: this.tradeBody(trade) };
    }
    if (method === 'POST' && pathname === '/v3/refund/domestic/refunds') return this.refund(body, where);
    const byRefund = /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/.exec(pathname);
    if (method === 'GET' && byRefund) {
      const refund = this.refunds.get(decodeURIComponent(byRefund[1]!));
      if (!refund) return { status: 404, body: { code: 'RESOURCE_NOT_EXISTS', message: '退款单不存在' } };
      return { status: 200, body: this.refundBody(refund) };
    }
    return this.refuse(404, 'NOT_FOUND', '接口不存在', where);
  }

  private certificates(): Reply {
    const data = this.platform.map((key) => {
      const nonce = resourceNonce();
      return {
        serial_no: key.serial,
        effective_time: '2026-01-01T00:00:00+08:00',
        expire_time: '2031-01-01T00:00:00+08:00',
        encrypt_certificate: {
          algorithm: 'AEAD_AES_256_GCM',
          nonce,
          associated_data: 'certificate',
          ciphertext: encryptResource(this.apiV3Key, key.certificate!, 'certificate', nonce),
        },
      };
    });
    return { status: 200, body: { data } };
  }

  private native(body: Json, where: string): Reply {
    const allowed = [
      'appid',
      'mchid',
      'description',
      'out_trade_no',
      'time_expire',
      'attach',
      'notify_url',
      'goods_tag',
      'support_fapiao',
      'amount',
      'detail',
      'scene_info',
      'settle_info',
    ];
    const required = ['appid', 'mchid', 'description', 'out_trade_no', 'notify_url', 'amount'];
    if (!exactKeys(body, allowed, required))
      return this.refuse(400, 'PARAM_ERROR', '参数不全或有未知参数', where);
    if (body.appid !== this.appId)
      return this.refuse(400, 'APPID_MCHID_NOT_MATCH', 'appid 和 mch_id 不匹配', where);
    if (body.mchid !== this.mchId) return this.refuse(400, 'PARAM_ERROR', 'mchid 与请求方商户号不符', where);
    const description = body.description;
    if (typeof description !== 'string' || !description || Buffer.byteLength(description) > 127)
      return this.refuse(400, 'PARAM_ERROR', 'description 须为 1 至 127 字节', where);
    if (typeof body.out_trade_no !== 'string' || !/^[A-Za-z0-9_\-|*]{6,32}$/.test(body.out_trade_no))
      return this.refuse(400, 'PARAM_ERROR', 'out_trade_no 须为 6 至 32 位字母数字', where);
    const expire = body.time_expire;
    if (
      expire !== undefined &&
      (typeof expire !== 'string' ||
        !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/.test(expire) ||
        Number.isNaN(Date.parse(expire)) ||
        Date.parse(expire) <= Date.now())
    )
      return this.refuse(400, 'PARAM_ERROR', 'time_expire 须为将来的 RFC 3339 时间（+08:00）', where);
    const notify = typeof body.notify_url === 'string' ? body.notify_url : '';
    if (!/^https:\/\/[^?#\s]+$/.test(notify))
      return this.refuse(400, 'PARAM_ERROR', 'notify_url 须为不带参数的 https 地址', where);
    const amount = body.amount;
    if (!isObject(amount) || !exactKeys(amount, ['total', 'currency'], ['total']) || !fen(amount.total))
      return this.refuse(400, 'PARAM_ERROR', 'amount.total 须为正整数（分）', where);
    if (amount.currency !== undefined && amount.currency !== 'CNY')
      return this.refuse(400, 'PARAM_ERROR', 'amount.currency 须为 CNY', where);
    if (this.failNext) {
      const { status, code, message } = this.failNext;
      this.failNext = undefined;
      return { status, body: { code, message } };
    }
    const existing = this.trades.get(body.out_trade_no);
    if (existing && existing.total !== amount.total)
      return this.refuse(400, 'INVALID_REQUEST', '201 商户订单号重复', where);
    // The same order again (a retry) is answered with the same code.
    if (existing) return { status: 200, body: { code_url: existing.codeUrl } };
    this.trades.set(body.out_trade_no, {
      appid: body.appid,
      mchid: body.mchid,
      outTradeNo: body.out_trade_no,
      description,
      timeExpire: String(expire ?? ''),
      notifyUrl: notify,
      total: amount.total as number,
      transactionId: `4200${randomBytes(12).toString('hex').replace(/\D/g, '7').slice(0, 24)}`,
      codeUrl: `weixin://wxpay/bizpayurl?pr=${randomBytes(6).toString('base64url')}`,
      state: 'NOTPAY',
    });
    return { status: 200, body: { code_url: this.trades.get(body.out_trade_no)!.codeUrl } };
  }

  private tradeBody(trade: Trade): Json {
    const paid = trade.state === 'SUCCESS' || trade.state === 'REFUND';
    return {
      appid: trade.appid,
      mchid: trade.mchid,
      out_trade_no: trade.outTradeNo,
      ...(paid ? { transaction_id: trade.transactionId, success_time: '2026-06-01T16:00:05+08:00' } : {}),
      trade_type: 'NATIVE',
      trade_state: trade.state,
      trade_state_desc: { NOTPAY: '未支付', SUCCESS: '支付成功', CLOSED: '已关闭', REFUND: '转入退款' }[
        trade.state
      ],
      amount: {
        total: trade.total,
        currency: 'CNY',
        ...(paid ? { payer_total: trade.total, payer_currency: 'CNY' } : {}),
      },
    };
  }

  private refund(body: Json, where: string): Reply {
    const allowed = [
      'out_trade_no',
      'transaction_id',
      'out_refund_no',
      'reason',
      'notify_url',
      'funds_account',
      'amount',
      'goods_detail',
    ];
    if (!exactKeys(body, allowed, ['out_refund_no', 'amount']) || typeof body.out_trade_no !== 'string')
      return this.refuse(400, 'PARAM_ERROR', '参数不全或有未知参数', where);
    if (typeof body.out_refund_no !== 'string' || !/^[A-Za-z0-9_\-|*@]{1,64}$/.test(body.out_refund_no))
      return this.refuse(400, 'PARAM_ERROR', 'out_refund_no 格式错误', where);
    if (body.reason !== undefined && (typeof body.reason !== 'string' || [...body.reason].length > 80))
      return this.refuse(400, 'PARAM_ERROR', 'reason 至多 80 个字符', where);
    const amount = body.amount;
    if (
      !isObject(amount) ||
      !exactKeys(amount, ['refund', 'total', 'currency', 'from'], ['refund', 'total', 'currency']) ||
      !fen(amount.refund) ||
      !fen(amount.total) ||
      amount.currency !== 'CNY'
    )
      return this.refuse(400, 'PARAM_ERROR', 'amount 须有 refund、total（正整数，分）与 currency CNY', where);
    const trade = this.trades.get(body.out_trade_no);
    if (!trade) return { status: 404, body: { code: 'RESOURCE_NOT_EXISTS', message: '订单不存在' } };
    const again = this.refunds.get(body.out_refund_no);
    if (again) {
      if (again.outTradeNo !== trade.outTradeNo || again.refund !== amount.refund)
        return this.refuse(400, 'INVALID_REQUEST', '同一退款单号的参数与之前请求不一致', where);
      return { status: 200, body: this.refundBody(again) };
    }
    if (trade.state !== 'SUCCESS' && trade.state !== 'REFUND')
      return { status: 403, body: { code: 'INVALID_REQUEST', message: '订单未支付，不能退款' } };
    if (amount.total !== trade.total)
      return { status: 400, body: { code: 'INVALID_REQUEST', message: '订单金额 total 与原订单不符' } };
    const done = [...this.refunds.values()]
      .filter((r) => r.outTradeNo === trade.outTradeNo && r.status !== 'CLOSED' && r.status !== 'ABNORMAL')
      .reduce((sum, r) => sum + r.refund, 0);
    if (done + (amount.refund as number) > trade.total)
      return { status: 400, body: { code: 'INVALID_REQUEST', message: '申请退款金额超过订单可退金额' } };
    const refund: Refund = {
      refundId: `5030${randomBytes(12).toString('hex').replace(/\D/g, '3').slice(0, 24)}`,
      outRefundNo: body.out_refund_no,
      outTradeNo: trade.outTradeNo,
      transactionId: trade.transactionId,
      refund: amount.refund as number,
      total: trade.total,
      status: this.refundStatus,
      createTime: '2026-06-01T16:10:00+08:00',
    };
    this.refunds.set(refund.outRefundNo, refund);
    trade.state = 'REFUND';
    return { status: 200, body: this.refundBody(refund) };
  }

  private refundBody(r: Refund): Json {
    return {
      refund_id: r.refundId,
      out_refund_no: r.outRefundNo,
      transaction_id: r.transactionId,
      out_trade_no: r.outTradeNo,
      channel: 'ORIGINAL',
      user_received_account: '支付用户零钱',
      ...(r.status === 'SUCCESS' ? { success_time: '2026-06-01T16:10:05+08:00' } : {}),
      create_time: r.createTime,
      status: r.status,
      funds_account: 'AVAILABLE',
      amount: {
        total: r.total,
        refund: r.refund,
        payer_total: r.total,
        payer_refund: r.refund,
        settlement_refund: r.refund,
        settlement_total: r.total,
        discount_refund: 0,
        currency: 'CNY',
      },
    };
  }

  /** The payer pays: the trade is paid at WeChat, and its genuine notice. */
  pay(outTradeNo: string): WechatNotice {
    const trade = this.trades.get(outTradeNo);
    if (trade) trade.state = 'SUCCESS';
    return this.notice(outTradeNo);
  }

  /**
   * A notice for a trade (TRANSACTION.SUCCESS unless `options` say otherwise), as WeChat posts it to the
   * notify_url our order gave (wechat-pay-keys.ts makeNotice).
   */
  notice(outTradeNo: string, options: NoticeOptions = {}): WechatNotice {
    const trade = this.trades.get(outTradeNo);
    if (!trade) throw new Error(`no trade ${outTradeNo}`);
    return makeNotice(
      trade,
      { mchId: this.mchId, appId: this.appId, apiV3Key: this.apiV3Key, signer: this.signer },
      options,
    );
  }
}
