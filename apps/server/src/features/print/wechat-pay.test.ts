import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, type ReconciliationReport, type Refund } from '@guji/shared';
import { createBook } from '../../../test/catalog-factory.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { orderPayState, scanPrintOrder } from '../../../test/print-scan.ts';
import { makeStaff } from '../../../test/factories.ts';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import {
  certifiedKey,
  forgedSigner,
  WechatPayStandIn,
  type WechatNotice,
  type WechatSigner,
} from '../../../test/wechat-pay-stand-in.ts';
import { WechatPayProvider } from './wechat-pay.ts';

/** Issue 18 part 5: WeChat Pay Native (API v3), against a stand-in API with test keys and certificates. */
const OUTSIDE = '203.0.113.9';
import { APP_ID, certificateCalls, envOf, MCH_ID, ORIGIN } from '../../../test/wechat-pay-fixture.ts';

describe.each(DIALECTS)('WeChat Pay Native (%s)', (dialect) => {
  let merchant: WechatSigner;
  let wechat: WechatPayStandIn;
  let h: HttpHarness;
  let book: { pageIds: number[] };

  beforeAll(async () => {
    merchant = certifiedKey(`${MCH_ID} merchant API certificate`);
    wechat = await new WechatPayStandIn(APP_ID, MCH_ID, merchant).start();
    h = await createHttpHarness(dialect, { ...envOf(merchant, wechat), PUBLIC_ORIGIN: ORIGIN });
    book = await createBook(h.context, { volumes: [6] });
  });
  afterAll(async () => {
    await h.close();
    await wechat.close();
  });

  /** A reader with a scan order of `pages` pages, and the order's trade opened (its QR code). */
  const scanOrder = (pages: number) => scanPrintOrder(h, book.pageIds.slice(0, pages), 'wechat');

  const post = (notice: Pick<WechatNotice, 'path' | 'raw' | 'headers'>) =>
    h.request({
      method: 'POST',
      url: notice.path,
      headers: notice.headers,
      payload: Buffer.from(notice.raw),
    });

  const state = (orderNum: string) => orderPayState(h, orderNum);

  it('health names WeChat Pay; the QR code shows the code_url of a native order WeChat found exact', async () => {
    expect((await h.request({ method: 'GET', url: '/api/health' })).json()).toMatchObject({
      payment: { provider: 'wechat' },
    });
    const before = Date.now();
    const { order, scan } = await scanOrder(3);
    expect(scan.statusCode, scan.body).toBe(200);
    const body = scan.json<{ tradeNo: string; amountFen: number; payUrl: string; qrCode: string }>();
    expect(wechat.problems).toEqual([]);
    const call = wechat.calls.find((c) => c.body.out_trade_no === body.tradeNo)!;
    expect(call).toMatchObject({ method: 'POST', path: '/v3/pay/transactions/native' });
    expect(call.body).toEqual({
      appid: APP_ID,
      mchid: MCH_ID,
      description: `古籍数字图书馆 打印订单 ${order.orderNum}`,
      out_trade_no: body.tradeNo,
      time_expire: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/) as unknown,
      notify_url: `${ORIGIN}/api/payments/notify/wechat`,
      amount: { total: 450, currency: 'CNY' },
    });
    // The trade may be paid for 15 minutes (TRADE_LIFETIME_MS), written in Beijing time.
    const expires = Date.parse(call.body.time_expire as string);
    expect(expires - before).toBeGreaterThanOrEqual(15 * 60_000 - 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    expect(order.totalFen).toBe(450);
    expect(body.payUrl).toBe(wechat.trades.get(body.tradeNo)!.codeUrl);
    expect(body.payUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(body.amountFen).toBe(450);
    // The platform certificates were fetched once, to verify the first answer.
    expect(certificateCalls(wechat)).toBe(1);
  });

  it('a genuine notice pays the order once and is answered 204; replays change nothing', async () => {
    const { order, scan, send } = await scanOrder(2);
    const { tradeNo } = scan.json<{ tradeNo: string }>();
    const notice = wechat.pay(tradeNo);
    expect(notice.path).toBe('/api/payments/notify/wechat');
    const answer = await post(notice);
    expect(answer.statusCode, answer.body).toBe(204);
    expect(answer.body).toBe('');
    expect((await send('GET', `/api/print/orders/${order.orderNum}/pay-status`)).json()).toEqual({
      data: 'paid',
    });
    const paid = await state(order.orderNum);
    expect(paid).toMatchObject({ payStatus: 1, notices: 1 });
    // WeChat sends a notice again (the same id, signed anew) until it reads success: answered 204, once.
    expect((await post(notice)).statusCode).toBe(204);
    expect((await post(wechat.notice(tradeNo, { id: notice.id }))).statusCode).toBe(204);
    expect(await state(order.orderNum)).toEqual(paid);
    expect(wechat.problems).toEqual([]);
  });

  it('forged, tampered, stale, unknown-key, wrong-amount, wrong-merchant and undecryptable notices are refused', async () => {
    const { order, scan } = await scanOrder(2);
    const { tradeNo } = scan.json<{ tradeNo: string }>();
    const now = Math.floor(Date.now() / 1000);
    const amount = { total: 300, payer_total: 300, currency: 'CNY', payer_currency: 'CNY' };
    const refused: Array<[string, WechatNotice]> = [
      ['forged signature', wechat.notice(tradeNo, { signWith: forgedSigner(wechat.signer.serial) })],
      [
        'tampered body',
        wechat.notice(tradeNo, {
          tamper: (raw) => raw.replace('"summary":"支付成功"', '"summary":"支付成功!"'),
        }),
      ],
      [
        'tampered ciphertext',
        wechat.notice(tradeNo, {
          tamper: (raw) =>
            raw.replace(/"ciphertext":"(.)/, (_m, c: string) => `"ciphertext":"${c === 'A' ? 'B' : 'A'}`),
        }),
      ],
      ['stale timestamp', wechat.notice(tradeNo, { timestamp: now - 330 })],
      ['future timestamp', wechat.notice(tradeNo, { timestamp: now + 330 })],
      [
        'unknown serial',
        wechat.notice(tradeNo, { signWith: forgedSigner('5A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5A') }),
      ],
      ['another APIv3 key', wechat.notice(tradeNo, { apiV3Key: randomBytes(16).toString('hex') })],
      ['wrong amount', wechat.notice(tradeNo, { transaction: { amount: { ...amount, total: 299 } } })],
      ['amount as text', wechat.notice(tradeNo, { transaction: { amount: { ...amount, total: '300' } } })],
      ['wrong mchid', wechat.notice(tradeNo, { transaction: { mchid: '1900000999' } })],
      ['wrong appid', wechat.notice(tradeNo, { transaction: { appid: 'wx0000000000000999' } })],
      ['unknown state', wechat.notice(tradeNo, { transaction: { trade_state: 'PAID_MAYBE' } })],
      ['refund notice', wechat.notice(tradeNo, { event: { event_type: 'REFUND.SUCCESS' } })],
      ['other trade', wechat.notice(tradeNo, { transaction: { out_trade_no: '0'.repeat(24) } })],
    ];
    for (const [what, notice] of refused) {
      const answer = await post(notice);
      expect(answer.statusCode, what).toBe(400);
      expect(answer.json(), what).toEqual({
        code: 'FAIL',
        message: expect.stringMatching(/[\u4e00-\u9fff]/) as unknown,
      });
    }
    const good = wechat.notice(tradeNo);
    const bare = { ...good, headers: { 'content-type': 'application/json' } };
    expect((await post(bare)).json()).toMatchObject({ code: 'FAIL' });
    expect((await post({ ...good, raw: 'not json' })).statusCode).toBe(400);
    expect((await post({ ...good, raw: '[1]' })).statusCode).toBe(400);
    expect(await state(order.orderNum)).toEqual({ payStatus: 0, paidAt: null, notices: 0 });
    // A not-paid notice is recorded and pays nothing; the genuine payment then pays.
    const waiting = wechat.notice(tradeNo, {
      transaction: { trade_state: 'NOTPAY', trade_state_desc: '未支付' },
    });
    expect((await post(waiting)).statusCode).toBe(204);
    expect(await state(order.orderNum)).toMatchObject({ payStatus: 0, notices: 1 });
    expect((await post(wechat.pay(tradeNo))).statusCode).toBe(204);
    expect((await state(order.orderNum)).payStatus).toBe(1);
  });

  it('money paid on a superseded trade pays nothing and goes back; only the live provider’s webhook exists', async () => {
    const { order, scan, send } = await scanOrder(1);
    const first = scan.json<{ tradeNo: string }>().tradeNo;
    const second = (await send('POST', `/api/print/orders/${order.orderNum}/scan`)).json<{
      tradeNo: string;
    }>().tradeNo;
    // A not-paid notice for the closed trade is refused; WeChat's payment on it is taken and refunded.
    const closed = await post(wechat.notice(first, { transaction: { trade_state: 'CLOSED' } }));
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toEqual({ code: 'FAIL', message: MSG.paymentTradeClosed });
    expect((await post(wechat.pay(first))).statusCode).toBe(204);
    expect((await state(order.orderNum)).payStatus).toBe(0);
    const refund = wechat.calls.find(
      (c) => c.path === '/v3/refund/domestic/refunds' && c.body.out_trade_no === first,
    );
    expect(refund?.body).toMatchObject({ amount: { refund: 150, total: 150, currency: 'CNY' } });
    expect(wechat.problems).toEqual([]);
    expect((await post(wechat.pay(second))).statusCode).toBe(204);
    for (const url of ['/api/payments/notify/sandbox', '/api/payments/notify/alipay'])
      expect((await h.request({ method: 'POST', url, body: {} })).statusCode).toBe(404);
  });

  it('when WeChat refuses the order, or its answer is not signed by WeChat, the reader is told in Chinese', async () => {
    wechat.failNext = { status: 500, code: 'SYSTEM_ERROR', message: '系统错误' };
    const refused = await scanOrder(1);
    wechat.forgeNext = forgedSigner(wechat.signer.serial);
    const forged = await scanOrder(1);
    for (const { scan, order } of [refused, forged]) {
      expect(scan.statusCode).toBe(503);
      expect(scan.json()).toMatchObject({ code: 'PAYMENT_PROVIDER', message: MSG.paymentProviderDown });
      const trades = await h.context.database.db
        .selectFrom('payments')
        .innerJoin('print_orders', 'print_orders.id', 'payments.order_id')
        .select('payments.status')
        .where('print_orders.order_num', '=', order.orderNum)
        .execute();
      expect(trades).toEqual([{ status: 'closed' }]);
    }
    expect(wechat.problems).toEqual([]);
  });

  it('refunds, refund queries and trade queries go to WeChat as documented', async () => {
    const provider = h.context.services.checkout.provider as WechatPayProvider;
    expect(provider).toBeInstanceOf(WechatPayProvider);
    const { scan, order } = await scanOrder(2);
    const { tradeNo } = scan.json<{ tradeNo: string }>();
    expect(await provider.queryTrade(tradeNo)).toEqual({ tradeNo, state: 'unpaid', amountFen: 300 });
    expect(await provider.queryTrade('0'.repeat(24))).toEqual({
      tradeNo: '0'.repeat(24),
      state: 'missing',
      amountFen: null,
    });
    expect((await post(wechat.pay(tradeNo))).statusCode).toBe(204);
    expect(await provider.queryTrade(tradeNo)).toEqual({ tradeNo, state: 'paid', amountFen: 300 });
    expect(wechat.calls.at(-1)!.path).toBe(`/v3/pay/transactions/out-trade-no/${tradeNo}?mchid=${MCH_ID}`);

    const refundNo = `R${randomBytes(10).toString('hex')}`;
    const request = { tradeNo, refundNo, amountFen: 100, totalFen: order.totalFen, reason: '读者取消打印' };
    expect(await provider.refund(request)).toEqual({ status: 'pending', detail: null });
    expect(wechat.calls.at(-1)).toEqual({
      method: 'POST',
      path: '/v3/refund/domestic/refunds',
      body: {
        out_trade_no: tradeNo,
        out_refund_no: refundNo,
        reason: '读者取消打印',
        amount: { refund: 100, total: 300, currency: 'CNY' },
      },
    });
    // The same refund number again is the same refund (nothing more is refunded).
    expect(await provider.refund(request)).toEqual({ status: 'pending', detail: null });
    expect([...wechat.refunds.values()].filter((r) => r.outTradeNo === tradeNo)).toHaveLength(1);
    expect(await provider.queryRefund({ tradeNo, refundNo })).toEqual({ status: 'pending', detail: null });
    expect(wechat.calls.at(-1)!.path).toBe(`/v3/refund/domestic/refunds/${refundNo}`);
    wechat.refunds.get(refundNo)!.status = 'SUCCESS';
    expect(await provider.queryRefund({ tradeNo, refundNo })).toEqual({ status: 'success', detail: null });
    expect(await provider.queryTrade(tradeNo)).toEqual({ tradeNo, state: 'refunded', amountFen: 300 });

    // More than is left, an unknown refund, an abnormal one, and one WeChat completes at once.
    const tooMuch = await provider.refund({
      ...request,
      refundNo: `R${randomBytes(10).toString('hex')}`,
      amountFen: 201,
    });
    expect(tooMuch).toEqual({ status: 'failed', detail: '400 INVALID_REQUEST 申请退款金额超过订单可退金额' });
    expect(await provider.queryRefund({ tradeNo, refundNo: 'R0000' })).toEqual({
      status: 'failed',
      detail: '微信支付无此退款',
    });
    wechat.refunds.get(refundNo)!.status = 'ABNORMAL';
    expect(await provider.queryRefund({ tradeNo, refundNo })).toMatchObject({
      status: 'failed',
      detail: expect.stringContaining('退款异常') as unknown,
    });
    wechat.refundStatus = 'SUCCESS';
    expect(
      await provider.refund({ ...request, refundNo: `R${randomBytes(10).toString('hex')}`, amountFen: 200 }),
    ).toEqual({ status: 'success', detail: null });
    wechat.refundStatus = 'PROCESSING';
    // An unpaid trade cannot be refunded.
    const unpaid = (await scanOrder(1)).scan.json<{ tradeNo: string }>().tradeNo;
    expect(
      await provider.refund({
        ...request,
        tradeNo: unpaid,
        refundNo: `R${randomBytes(10).toString('hex')}`,
        amountFen: 150,
        totalFen: 150,
      }),
    ).toEqual({
      status: 'failed',
      detail: '403 INVALID_REQUEST 订单未支付，不能退款',
    });
    expect(wechat.problems).toEqual([]);
  });
  it('the desk cancels a WeChat-paid order: the refund, pending at first, is done when asked again; the day reconciles', async () => {
    const desk = await makeStaff(h, ['printAdmin'], 'wechatdesk');
    const as = { cookie: desk.cookie, remoteAddress: OUTSIDE };
    const { scan, order } = await scanOrder(1);
    const { tradeNo } = scan.json<{ tradeNo: string }>();
    expect((await post(wechat.pay(tradeNo))).statusCode).toBe(204);
    const cancelled = await h.request({
      method: 'POST',
      url: `/api/admin/print/orders/${order.orderNum}/cancel`,
      body: { reason: '读者取消打印' },
      ...as,
    });
    // WeChat's first answer is PROCESSING: the refund waits.
    const refund = cancelled.json<Refund>();
    expect(refund).toMatchObject({
      provider: 'wechat',
      tradeNo,
      status: 'pending',
      amountFen: order.totalFen,
    });
    expect(wechat.calls.at(-1)!.body).toMatchObject({
      out_trade_no: tradeNo,
      out_refund_no: refund.refundNo,
      amount: { refund: order.totalFen, total: order.totalFen, currency: 'CNY' },
    });
    wechat.refunds.get(refund.refundNo)!.status = 'SUCCESS';
    const retried = await h.request({
      method: 'POST',
      url: `/api/admin/print/refunds/${refund.id}/retry`,
      ...as,
    });
    expect(retried.json<Refund>()).toMatchObject({ id: refund.id, status: 'success' });
    expect([...wechat.refunds.values()].filter((r) => r.outTradeNo === tradeNo)).toHaveLength(1);
    const paid = await scanOrder(1);
    const paidTrade = paid.scan.json<{ tradeNo: string }>().tradeNo;
    expect((await post(wechat.pay(paidTrade))).statusCode).toBe(204);
    const today = new Date(h.clock.now().getTime() + 8 * 3600_000).toISOString().slice(0, 10);
    const report = (
      await h.request({ method: 'GET', url: `/api/admin/print/reconciliation?date=${today}`, ...as })
    ).json<ReconciliationReport>();
    expect(report.provider).toBe('wechat');
    const row = (no: string) => report.trades.find((t) => t.tradeNo === no);
    expect(row(tradeNo)).toMatchObject({ theirs: 'refunded', refundedFen: order.totalFen, verdict: 'ok' });
    expect(row(paidTrade)).toMatchObject({ ours: 'paid', theirs: 'paid', verdict: 'ok' });
    expect(wechat.problems).toEqual([]);
  });
});
