import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, PAY_STATUS, type ReconciliationReport, type Refund } from '@guji/shared';
import { alipayEnv, AlipayStandIn, rsaKeys } from '../../../test/alipay-stand-in.ts';
import { createBook } from '../../../test/catalog-factory.ts';
import { makePrintOrder, makeReader, makeStaff, type MadeUser } from '../../../test/factories.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';

/**
 * Issue 18 part 5: refunds of cancelled orders and of payments for closed trades, and the day's
 * reconciliation, through Alipay (alipay-sdk) against the stand-in gateway with test keys.
 */
const OUTSIDE = '203.0.113.9';
const APP_ID = '2021000000000002';
const FORM = { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' };

describe.each(DIALECTS)('refunds and reconciliation (%s)', (dialect) => {
  const app = rsaKeys();
  let alipay: AlipayStandIn;
  let h: HttpHarness;
  let book: Awaited<ReturnType<typeof createBook>>;
  let desk: MadeUser;

  beforeAll(async () => {
    alipay = await new AlipayStandIn(APP_ID, app.publicKey).start();
    h = await createHttpHarness(dialect, alipayEnv(alipay, app));
    book = await createBook(h.context, { volumes: [6] });
    desk = await makeStaff(h, ['printAdmin'], 'refunddesk');
  });
  afterAll(async () => {
    await h.close();
    await alipay.close();
  });

  const as = (user: MadeUser) => ({ cookie: user.cookie, remoteAddress: OUTSIDE });
  const notify = (notice: { path: string; form: string }) =>
    h.request({ method: 'POST', url: notice.path, headers: FORM, payload: Buffer.from(notice.form) });

  /** A reader's scan order of `pages` pages with its trade opened. */
  async function scanOrder(pages: number) {
    const reader = await makeReader(h, 'refund');
    const order = await makePrintOrder(h, reader, book, pages);
    // makePrintOrder checks out for cash; this order is paid by scan instead.
    await h.context.database.db
      .updateTable('print_orders')
      .set({ payment: 1 })
      .where('order_num', '=', order.orderNum)
      .execute();
    const scan = await h.request({
      method: 'POST',
      url: `/api/print/orders/${order.orderNum}/scan`,
      ...as(reader),
    });
    expect(scan.statusCode, scan.body).toBe(200);
    return { reader, order, tradeNo: scan.json<{ tradeNo: string }>().tradeNo };
  }

  async function paidScanOrder(pages: number) {
    const made = await scanOrder(pages);
    expect((await notify(alipay.pay(made.tradeNo))).body).toBe('success');
    return made;
  }

  const cancel = (orderNum: string, reason = '读者来电取消', user = desk) =>
    h.request({
      method: 'POST',
      url: `/api/admin/print/orders/${orderNum}/cancel`,
      body: { reason },
      ...as(user),
    });

  async function payStates(orderNum: string) {
    const order = await h.context.database.db
      .selectFrom('print_orders')
      .select(['id', 'pay_status'])
      .where('order_num', '=', orderNum)
      .executeTakeFirstOrThrow();
    const items = await h.context.database.db
      .selectFrom('print_items')
      .select('pay_status')
      .where('order_id', '=', order.id)
      .execute();
    return { order: order.pay_status, items: [...new Set(items.map((i) => i.pay_status))] };
  }

  it('cancels a paid scan order at the desk and refunds it through Alipay, once', async () => {
    const { order, tradeNo, reader } = await paidScanOrder(3);
    const response = await cancel(order.orderNum);
    expect(response.statusCode, response.body).toBe(200);
    const refund = response.json<Refund>();
    expect(refund).toMatchObject({
      orderNum: order.orderNum,
      provider: 'alipay',
      tradeNo,
      amountFen: order.totalFen,
      reason: '读者来电取消',
      status: 'success',
      detail: null,
    });
    expect(refund.refundNo).toMatch(/^R[0-9a-f]{24}$/);
    const call = alipay.calls.find(
      (c) => c.method === 'alipay.trade.refund' && c.biz.out_trade_no === tradeNo,
    )!;
    expect(call.biz).toEqual({
      out_trade_no: tradeNo,
      refund_amount: (order.totalFen / 100).toFixed(2),
      out_request_no: refund.refundNo,
      refund_reason: '读者来电取消',
    });
    expect(alipay.problems).toEqual([]);
    expect(await payStates(order.orderNum)).toEqual({
      order: PAY_STATUS.refunded,
      items: [PAY_STATUS.refunded],
    });
    // The reader sees the refunded items; the order cannot be cancelled, paid or printed again.
    const mine = await h.request({ method: 'GET', url: '/api/print/items?tab=all', ...as(reader) });
    expect(mine.json<{ records: Array<{ payStatus: number }> }>().records.map((r) => r.payStatus)).toContain(
      PAY_STATUS.refunded,
    );
    const again = await cancel(order.orderNum);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'ORDER_NOT_CANCELLABLE', message: MSG.printCancelRefused });
    const scan = await h.request({
      method: 'POST',
      url: `/api/print/orders/${order.orderNum}/scan`,
      ...as(reader),
    });
    expect(scan.statusCode).toBe(409);
    const listed = await h.request({
      method: 'GET',
      url: `/api/admin/print/orders/${order.orderNum}/refunds`,
      ...as(desk),
    });
    expect(listed.json<Refund[]>()).toHaveLength(1);
    expect(listed.json<Refund[]>()[0]!.actor).toBeTruthy();
    expect(
      alipay.calls.filter((c) => c.method === 'alipay.trade.refund' && c.biz.out_trade_no === tradeNo),
    ).toHaveLength(1);
  });

  it('refuses unpaid and printed orders, empty reasons and readers, and changes nothing', async () => {
    const { order } = await scanOrder(1);
    expect((await cancel(order.orderNum)).json()).toMatchObject({ message: MSG.printCancelRefused });
    expect(await payStates(order.orderNum)).toEqual({ order: PAY_STATUS.unpaid, items: [PAY_STATUS.unpaid] });
    const paid = await paidScanOrder(1);
    const items = (
      await h.request({
        method: 'GET',
        url: `/api/admin/print/orders/${paid.order.orderNum}/items`,
        ...as(desk),
      })
    ).json<Array<{ id: number }>>();
    expect(
      (
        await h.request({
          method: 'POST',
          url: '/api/admin/print/items/printed',
          body: { ids: items.map((i) => i.id) },
          ...as(desk),
        })
      ).statusCode,
    ).toBe(200);
    expect((await cancel(paid.order.orderNum)).statusCode).toBe(409);
    expect(await payStates(paid.order.orderNum)).toEqual({
      order: PAY_STATUS.paid,
      items: [PAY_STATUS.paid],
    });
    const other = await paidScanOrder(1);
    expect((await cancel(other.order.orderNum, '  ')).json()).toMatchObject({ message: '请填写取消原因' });
    expect((await cancel(other.order.orderNum, '因'.repeat(201))).json()).toMatchObject({
      message: '取消原因最多 200 字',
    });
    expect((await cancel(other.order.orderNum, '取消', other.reader)).statusCode).toBe(403);
    expect(await payStates(other.order.orderNum)).toEqual({
      order: PAY_STATUS.paid,
      items: [PAY_STATUS.paid],
    });
    expect(
      alipay.calls.filter((c) => c.method === 'alipay.trade.refund' && c.biz.out_trade_no === other.tradeNo),
    ).toEqual([]);
  });

  it('a cancel and a print of the same order at once: exactly one happens, never both', async () => {
    const itemsOf = async (orderNum: string) =>
      (
        await h.request({ method: 'GET', url: `/api/admin/print/orders/${orderNum}/items`, ...as(desk) })
      ).json<Array<{ id: number; printStatus: number }>>();
    const print = (ids: number[]) =>
      h.request({ method: 'POST', url: '/api/admin/print/items/printed', body: { ids }, ...as(desk) });
    for (let round = 0; round < 3; round++) {
      const { order } = await paidScanOrder(2);
      const ids = (await itemsOf(order.orderNum)).map((i) => i.id);
      const [cancelled, printed] = await Promise.all([cancel(order.orderNum), print(ids)]);
      expect([cancelled.statusCode, printed.statusCode].sort(), cancelled.body + printed.body).toEqual([
        200, 409,
      ]);
      const printedNow = (await itemsOf(order.orderNum)).filter((i) => i.printStatus === 1).length;
      if (cancelled.statusCode === 200) {
        expect(printed.json()).toMatchObject({ message: MSG.adminPrintRefunded });
        expect(await payStates(order.orderNum)).toEqual({
          order: PAY_STATUS.refunded,
          items: [PAY_STATUS.refunded],
        });
        expect(printedNow).toBe(0);
      } else {
        expect(cancelled.json()).toMatchObject({ message: MSG.printCancelRefused });
        expect(await payStates(order.orderNum)).toEqual({ order: PAY_STATUS.paid, items: [PAY_STATUS.paid] });
        expect(printedNow).toBe(2);
      }
      // Once refunded, the desk is told why it cannot print.
      if (cancelled.statusCode === 200)
        expect((await print(ids)).json()).toMatchObject({
          code: 'REFUNDED',
          message: MSG.adminPrintRefunded,
        });
    }
  });

  it('a cash order is refunded in cash at the desk', async () => {
    const reader = await makeReader(h, 'refundcash');
    const order = await makePrintOrder(h, reader, book, 2);
    const items = (
      await h.request({ method: 'GET', url: `/api/admin/print/orders/${order.orderNum}/items`, ...as(desk) })
    ).json<Array<{ id: number }>>();
    await h.request({
      method: 'POST',
      url: '/api/admin/print/items/confirm-payment',
      body: { ids: items.map((i) => i.id) },
      ...as(desk),
    });
    const refund = (await cancel(order.orderNum, '读者不需要了')).json<Refund>();
    expect(refund).toMatchObject({
      provider: 'cash',
      tradeNo: null,
      status: 'success',
      amountFen: order.totalFen,
    });
    expect(refund.detail).toContain('现金');
  });

  it('a refund Alipay cannot answer stays pending and is retried under the same number', async () => {
    const { order, tradeNo } = await paidScanOrder(1);
    alipay.refundDownNext = true;
    const pending = (await cancel(order.orderNum)).json<Refund>();
    expect(pending.status).toBe('pending');
    expect(pending.detail).toContain('20000');
    const retried = await h.request({
      method: 'POST',
      url: `/api/admin/print/refunds/${pending.id}/retry`,
      ...as(desk),
    });
    expect(retried.json<Refund>()).toMatchObject({
      id: pending.id,
      status: 'success',
      refundNo: pending.refundNo,
    });
    const refunds = alipay.calls.filter(
      (c) => c.method === 'alipay.trade.refund' && c.biz.out_trade_no === tradeNo,
    );
    expect(new Set(refunds.map((c) => c.biz.out_request_no))).toEqual(new Set([pending.refundNo]));
    const done = await h.request({
      method: 'POST',
      url: `/api/admin/print/refunds/${pending.id}/retry`,
      ...as(desk),
    });
    expect(done.statusCode).toBe(400);
    expect(done.json()).toMatchObject({ message: '该退款已完成' });
  });

  it('money for a superseded trade goes back by itself; the live trade still pays the order', async () => {
    const { order, tradeNo: first, reader } = await scanOrder(2);
    const second = (
      await h.request({ method: 'POST', url: `/api/print/orders/${order.orderNum}/scan`, ...as(reader) })
    ).json<{ tradeNo: string }>().tradeNo;
    const late = alipay.pay(first);
    expect((await notify(late)).body).toBe('success');
    // A replay of the same notice refunds nothing more.
    expect((await notify(late)).body).toBe('success');
    const refunds = (
      await h.request({
        method: 'GET',
        url: `/api/admin/print/orders/${order.orderNum}/refunds`,
        ...as(desk),
      })
    ).json<Refund[]>();
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      tradeNo: first,
      status: 'success',
      actor: null,
      reason: MSG.printLatePaymentRefund,
    });
    expect(await payStates(order.orderNum)).toEqual({ order: PAY_STATUS.unpaid, items: [PAY_STATUS.unpaid] });
    expect((await notify(alipay.pay(second))).body).toBe('success');
    expect(await payStates(order.orderNum)).toEqual({ order: PAY_STATUS.paid, items: [PAY_STATUS.paid] });
  });

  it('reconciles the day: agreed trades, refunds, and a payment whose notice never came', async () => {
    const paid = await paidScanOrder(1);
    const refunded = await paidScanOrder(1);
    expect((await cancel(refunded.order.orderNum)).json<Refund>().status).toBe('success');
    const waiting = await scanOrder(1);
    const silent = await scanOrder(1);
    alipay.pay(silent.tradeNo); // paid at Alipay; its notice is lost
    const today = new Date(h.clock.now().getTime() + 8 * 3600_000).toISOString().slice(0, 10);
    const response = await h.request({
      method: 'GET',
      url: `/api/admin/print/reconciliation?date=${today}`,
      ...as(desk),
    });
    expect(response.statusCode, response.body).toBe(200);
    const report = response.json<ReconciliationReport>();
    expect(report.provider).toBe('alipay');
    const row = (tradeNo: string) => report.trades.find((t) => t.tradeNo === tradeNo)!;
    expect(row(paid.tradeNo)).toMatchObject({ ours: 'paid', theirs: 'paid', verdict: 'ok' });
    expect(row(refunded.tradeNo)).toMatchObject({
      theirs: 'refunded',
      refundedFen: refunded.order.totalFen,
      verdict: 'ok',
    });
    expect(row(waiting.tradeNo)).toMatchObject({ ours: 'pending', theirs: 'unpaid', verdict: 'ok' });
    expect(row(silent.tradeNo)).toMatchObject({
      ours: 'pending',
      theirs: 'paid',
      verdict: 'paidNotRecorded',
    });
    expect(report.totals.discrepancies).toBeGreaterThanOrEqual(1);
    expect(report.totals.trades).toBe(report.trades.length);
    // Another day has none of them; a malformed day is refused in Chinese; readers may not look.
    const other = await h.request({
      method: 'GET',
      url: '/api/admin/print/reconciliation?date=2020-01-01',
      ...as(desk),
    });
    expect(other.json<ReconciliationReport>().trades).toEqual([]);
    const bad = await h.request({
      method: 'GET',
      url: '/api/admin/print/reconciliation?date=2026-13-45',
      ...as(desk),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(/日期/);
    expect(
      (
        await h.request({
          method: 'GET',
          url: `/api/admin/print/reconciliation?date=${today}`,
          ...as(paid.reader),
        })
      ).statusCode,
    ).toBe(403);
  });
});
