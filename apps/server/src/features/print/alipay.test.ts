import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, yuan } from '@guji/shared';
import { alipayEnv, AlipayStandIn, rsaKeys } from '../../../test/alipay-stand-in.ts';
import { createBook } from '../../../test/catalog-factory.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { orderPayState, scanPrintOrder } from '../../../test/print-scan.ts';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';

/** Issue 18 part 5: Alipay face-to-face through alipay-sdk, against a stand-in gateway with test keys. */
const APP_ID = '2021000000000001';
const ORIGIN = 'https://guji.example.org';

describe.each(DIALECTS)('Alipay face-to-face (%s)', (dialect) => {
  const app = rsaKeys();
  let alipay: AlipayStandIn;
  let h: HttpHarness;
  let book: { pageIds: number[] };

  beforeAll(async () => {
    alipay = await new AlipayStandIn(APP_ID, app.publicKey).start();
    h = await createHttpHarness(dialect, alipayEnv(alipay, app, ORIGIN));
    book = await createBook(h.context, { volumes: [6] });
  });
  afterAll(async () => {
    await h.close();
    await alipay.close();
  });

  /** A reader with a scan order of `pages` pages, and the order's trade opened (its QR code). */
  const scanOrder = (pages: number) => scanPrintOrder(h, book.pageIds.slice(0, pages), 'alipay');

  const post = (path: string, form: string) =>
    h.request({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      payload: Buffer.from(form),
    });

  const state = (orderNum: string) => orderPayState(h, orderNum);

  it('health names Alipay; the QR code shows the qr_code of a precreate the gateway found exact', async () => {
    expect((await h.request({ method: 'GET', url: '/api/health' })).json()).toMatchObject({
      payment: { provider: 'alipay' },
    });
    const { order, scan } = await scanOrder(3);
    expect(scan.statusCode, scan.body).toBe(200);
    const body = scan.json<{ tradeNo: string; amountFen: number; payUrl: string; qrCode: string }>();
    expect(alipay.problems).toEqual([]);
    const call = alipay.calls.find((c) => c.biz.out_trade_no === body.tradeNo)!;
    expect(call.method).toBe('alipay.trade.precreate');
    expect(call.biz).toEqual({
      out_trade_no: body.tradeNo,
      total_amount: yuan(order.totalFen),
      subject: `古籍数字图书馆 打印订单 ${order.orderNum}`,
      timeout_express: '15m',
    });
    expect(order.totalFen).toBe(450);
    expect(call.biz.total_amount).toBe('4.50');
    expect(call.params.notify_url).toBe(`${ORIGIN}/api/payments/notify/alipay`);
    expect(body.payUrl).toMatch(/^https:\/\/qr\.alipay\.com\/bax0[0-9a-f]{20}$/);
    expect(body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(body.amountFen).toBe(450);
  });

  it('a genuine notice pays the order once and is answered success; a replay changes nothing', async () => {
    const { order, scan, send } = await scanOrder(2);
    const { tradeNo } = scan.json<{ tradeNo: string }>();
    const notice = alipay.pay(tradeNo);
    expect(notice.path).toBe('/api/payments/notify/alipay');
    const answer = await post(notice.path, notice.form);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe('success');
    expect((await send('GET', `/api/print/orders/${order.orderNum}/pay-status`)).json()).toEqual({
      data: 'paid',
    });
    const paid = await state(order.orderNum);
    expect(paid).toMatchObject({ payStatus: 1, notices: 1 });
    // Alipay sends a notice again until it reads success: the same one is answered success, once.
    const again = await post(notice.path, notice.form);
    expect(again.body).toBe('success');
    // TRADE_FINISHED later (another notify_id) changes nothing either.
    const finished = alipay.notice(tradeNo, { fields: { trade_status: 'TRADE_FINISHED' } });
    expect((await post(finished.path, finished.form)).body).toBe('success');
    expect(await state(order.orderNum)).toEqual({ ...paid, notices: 2 });
  });

  it('forged, tampered, wrong-amount, wrong-app and wrong-seller notices are refused and change nothing', async () => {
    const { order, scan } = await scanOrder(2);
    const { tradeNo } = scan.json<{ tradeNo: string }>();
    const forger = rsaKeys();
    const refused = [
      alipay.notice(tradeNo, { signWith: forger.privateKey }),
      alipay.notice(tradeNo, { after: { total_amount: '0.01' } }),
      alipay.notice(tradeNo, { after: { sign: '' } }),
      alipay.notice(tradeNo, { fields: { total_amount: '2.99' } }),
      alipay.notice(tradeNo, { fields: { total_amount: '3.000' } }),
      alipay.notice(tradeNo, { fields: { app_id: '2021000000000999' } }),
      alipay.notice(tradeNo, { fields: { seller_id: '2088000000000999' } }),
      alipay.notice(tradeNo, { fields: { trade_status: 'TRADE_PAID_MAYBE' } }),
      alipay.notice(tradeNo, { fields: { out_trade_no: '0'.repeat(24) } }),
    ];
    for (const notice of refused) {
      const answer = await post(notice.path, notice.form);
      expect(answer.body, notice.form).toBe('fail');
      expect(answer.statusCode).toBe(400);
    }
    expect(await post('/api/payments/notify/alipay', 'not=a&notice=1')).toMatchObject({ body: 'fail' });
    expect(await state(order.orderNum)).toEqual({ payStatus: 0, paidAt: null, notices: 0 });
    // A waiting notice is recorded and pays nothing; the genuine payment then pays.
    const waiting = alipay.notice(tradeNo, { fields: { trade_status: 'WAIT_BUYER_PAY' } });
    expect((await post(waiting.path, waiting.form)).body).toBe('success');
    expect((await state(order.orderNum)).payStatus).toBe(0);
    const good = alipay.pay(tradeNo);
    expect((await post(good.path, good.form)).body).toBe('success');
    expect((await state(order.orderNum)).payStatus).toBe(1);
  });

  it('a payment for a superseded trade does not pay the order (it is refunded); the sandbox routes do not exist', async () => {
    const { order, scan, send } = await scanOrder(1);
    const first = scan.json<{ tradeNo: string }>().tradeNo;
    const second = (await send('POST', `/api/print/orders/${order.orderNum}/scan`)).json<{
      tradeNo: string;
    }>().tradeNo;
    const stale = alipay.pay(first);
    // Handled (success, so Alipay stops sending it) by returning the money: refunds.test.ts.
    expect(await post(stale.path, stale.form)).toMatchObject({ statusCode: 200, body: 'success' });
    expect((await state(order.orderNum)).payStatus).toBe(0);
    expect(
      alipay.calls.filter((c) => c.method === 'alipay.trade.refund').map((c) => c.biz.out_trade_no),
    ).toContain(first);
    // A waiting (unpaid) notice for the superseded trade is still refused.
    const waiting = alipay.notice(first, { fields: { trade_status: 'WAIT_BUYER_PAY' } });
    expect(await post(waiting.path, waiting.form)).toMatchObject({ statusCode: 409, body: 'fail' });
    const good = alipay.pay(second);
    expect((await post(good.path, good.form)).body).toBe('success');
    expect(
      (await h.request({ method: 'POST', url: '/api/payments/notify/sandbox', body: {} })).statusCode,
    ).toBe(404);
  });

  it('when Alipay refuses the precreate the reader is told in Chinese and the trade is closed', async () => {
    alipay.failNext = '系统繁忙';
    const { scan, order } = await scanOrder(1);
    expect(scan.statusCode).toBe(503);
    expect(scan.json()).toMatchObject({ code: 'PAYMENT_PROVIDER', message: MSG.paymentProviderDown });
    const trades = await h.context.database.db
      .selectFrom('payments')
      .innerJoin('print_orders', 'print_orders.id', 'payments.order_id')
      .select('payments.status')
      .where('print_orders.order_num', '=', order.orderNum)
      .execute();
    expect(trades).toEqual([{ status: 'closed' }]);
    expect(alipay.problems).toEqual([]);
  });
});
