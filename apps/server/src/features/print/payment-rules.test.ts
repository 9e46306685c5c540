import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { createBook } from '../../../test/catalog-factory.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { SandboxPaymentProvider, TRADE_LIFETIME_MS } from './payment.ts';
import { makeReader } from '../../../test/factories.ts';

/** Issue 13 items 7–10: the payment provider switch, bounded id arrays, one live trade, access at payment. */
const OUTSIDE = '203.0.113.9';
const SANDBOX_SECRET = 'payment-rules-sandbox-secret';

type Order = { orderNum: string; totalFen: number; totalPage: number; payStatus: number };
type Scan = { tradeNo: string; amountFen: number; payUrl: string };

/** The reader's side of the print API, from outside the reading room. */
function reader(h: HttpHarness, cookie: string) {
  const send = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
    h.request({ method, url, cookie, remoteAddress: OUTSIDE, ...(body === undefined ? {} : { body }) });
  return {
    send,
    add: async (imageId: number) => {
      const response = await send('POST', '/api/print/items', { imageId });
      expect(response.statusCode, response.body).toBe(200);
    },
    unpaid: async () =>
      (await send('GET', '/api/print/items?tab=unpaid')).json<{
        records: Array<{ id: number; orderId: number | null; catalogId: number }>;
      }>().records,
    checkout: (itemIds: number[], payment: 0 | 1 = 1) =>
      send('POST', '/api/print/orders', { itemIds, extract: 0, payment }),
    order: async (orderNum: string) => (await send('GET', `/api/print/orders/${orderNum}`)).json<Order>(),
    scan: (orderNum: string) => send('POST', `/api/print/orders/${orderNum}/scan`),
  };
}

async function paidTrades(h: HttpHarness, orderNum: string): Promise<number> {
  const row = await h.context.database.db
    .selectFrom('payments')
    .innerJoin('print_orders', 'print_orders.id', 'payments.order_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('print_orders.order_num', '=', orderNum)
    .where('payments.status', '=', 'paid')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The refunds of an order (money for a closed trade goes back by itself). */
function refundsOf(h: HttpHarness, orderNum: string) {
  return h.context.database.db
    .selectFrom('refunds')
    .innerJoin('print_orders', 'print_orders.id', 'refunds.order_id')
    .select(['refunds.trade_no', 'refunds.amount_fen', 'refunds.status'])
    .where('print_orders.order_num', '=', orderNum)
    .orderBy('refunds.id')
    .execute();
}

describe.each(DIALECTS)('print payments with the sandbox live (%s)', (dialect) => {
  let h: HttpHarness;
  let cookie: string;
  let cookieLogin = '';
  let userId: number;
  let desk: string;
  let open: { bookId: number; pageIds: number[] };
  let closed: { bookId: number; pageIds: number[] };

  const notify = (body: unknown) => h.request({ method: 'POST', url: '/api/payments/notify/sandbox', body });
  const sandbox = () => h.context.services.checkout.sandbox!;

  beforeAll(async () => {
    h = await createHttpHarness(dialect, { PAYMENT_SANDBOX_SECRET: SANDBOX_SECRET });
    ({ cookie: cookie, loginName: cookieLogin } = await makeReader(h, 'payrules'));
    userId = (await h.context.repos.users.findByLoginName(cookieLogin))!.id;
    await h.context.services.auth.upsertAccount({
      loginName: 'paydesk',
      password: GOOD_PASSWORD,
      roles: ['reader', 'printAdmin'],
    });
    desk = (await h.login('paydesk', GOOD_PASSWORD)).cookie;
    open = await createBook(h.context, { volumes: [6] });
    closed = await createBook(h.context, { volumes: [4], isOpen: false });
  });
  afterAll(async () => h.close());

  it('health and the start-up configuration name the live provider', async () => {
    expect(h.context.config.paymentProvider).toBe('sandbox');
    const health = await h.request({ method: 'GET', url: '/api/health' });
    expect(health.json()).toMatchObject({ payment: { provider: 'sandbox' } });
    expect((await h.request({ method: 'GET', url: '/api/site' })).json()).toMatchObject({ scanPay: true });
  });

  it('an item taken into a new checkout closes the old order’s trade: its notice is refused, its total follows', async () => {
    const a = reader(h, cookie);
    await a.add(open.pageIds[0]!);
    await a.add(open.pageIds[1]!);
    const items = (await a.unpaid()).filter((i) => i.orderId === null);
    const orderA = (await a.checkout(items.map((i) => i.id))).json<Order>();
    expect(orderA.totalFen).toBe(300);
    const oldTrade = (await a.scan(orderA.orderNum)).json<Scan>();
    expect(oldTrade.amountFen).toBe(300);

    // Order B takes one item of A.
    const orderB = (await a.checkout([items[0]!.id])).json<Order>();
    expect(orderB).toMatchObject({ totalFen: 150, totalPage: 1 });
    // What the reader sees of A: the item left and its total, to be paid with a new QR code.
    expect(await a.order(orderA.orderNum)).toMatchObject({ totalFen: 150, totalPage: 1, payStatus: 0 });

    // Money for the old trade (the old total) pays nothing: it goes back (refunds.test.ts).
    const refused = await notify(sandbox().makeNotice(oldTrade.tradeNo, 300, true));
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toEqual({ paid: false });
    expect(await refundsOf(h, orderA.orderNum)).toEqual([
      { trade_no: oldTrade.tradeNo, amount_fen: 300, status: 'success' },
    ]);
    // A waiting notice of the closed trade is refused.
    const waiting = await notify(sandbox().makeNotice(oldTrade.tradeNo, 300, false));
    expect(waiting.json()).toMatchObject({ code: 'PAYMENT_CLOSED', message: MSG.paymentTradeClosed });
    // Its sandbox page refuses too.
    const sig = new URL(oldTrade.payUrl).searchParams.get('sig')!;
    const page = await h.request({
      method: 'POST',
      url: `/api/payments/sandbox/${oldTrade.tradeNo}/confirm`,
      body: { sig, pay: true },
    });
    expect(page.statusCode).toBe(409);
    expect((await a.order(orderA.orderNum)).payStatus).toBe(0);
    expect(await paidTrades(h, orderA.orderNum)).toBe(0);

    // A's new trade is for the new total and pays A.
    const newTrade = (await a.scan(orderA.orderNum)).json<Scan>();
    expect(newTrade.amountFen).toBe(150);
    expect((await notify(sandbox().makeNotice(newTrade.tradeNo, 150, true))).json()).toEqual({ paid: true });
    expect((await a.order(orderA.orderNum)).payStatus).toBe(1);
    expect((await a.order(orderB.orderNum)).payStatus).toBe(0);
  });

  it('a newer QR code supersedes the older: only one trade of an order is ever recorded paid', async () => {
    const a = reader(h, cookie);
    await a.add(open.pageIds[2]!);
    const [item] = (await a.unpaid()).filter((i) => i.orderId === null);
    const order = (await a.checkout([item!.id])).json<Order>();
    const first = (await a.scan(order.orderNum)).json<Scan>();
    const second = (await a.scan(order.orderNum)).json<Scan>();
    expect(second.amountFen).toBe(first.amountFen);

    // Both notices are genuine and for the right amount; only the live trade's pays.
    const stale = await notify(sandbox().makeNotice(first.tradeNo, first.amountFen, true));
    expect(stale.json()).toEqual({ paid: false });
    expect((await notify(sandbox().makeNotice(second.tradeNo, second.amountFen, true))).json()).toEqual({
      paid: true,
    });
    // Once the order is paid no trade of it is live any more; a second notice of the old one refunds
    // nothing more (a trade is paid once).
    expect((await notify(sandbox().makeNotice(first.tradeNo, first.amountFen, true))).json()).toEqual({
      paid: false,
    });
    expect((await a.scan(order.orderNum)).statusCode).toBe(409);
    expect(await paidTrades(h, order.orderNum)).toBe(1);
    expect(await refundsOf(h, order.orderNum)).toHaveLength(1);
  });

  it('an order paid in cash at the desk closes its open trade', async () => {
    const a = reader(h, cookie);
    await a.add(open.pageIds[3]!);
    const [item] = (await a.unpaid()).filter((i) => i.orderId === null);
    const order = (await a.checkout([item!.id])).json<Order>();
    const trade = (await a.scan(order.orderNum)).json<Scan>();
    const confirmed = await h.request({
      method: 'POST',
      url: '/api/admin/print/items/confirm-payment',
      cookie: desk,
      body: { ids: [item!.id] },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // Paid twice: the scan payment goes back.
    expect((await notify(sandbox().makeNotice(trade.tradeNo, trade.amountFen, true))).json()).toEqual({
      paid: false,
    });
    expect(await paidTrades(h, order.orderNum)).toBe(0);
    expect(await refundsOf(h, order.orderNum)).toEqual([
      { trade_no: trade.tradeNo, amount_fen: trade.amountFen, status: 'success' },
    ]);
    expect((await a.order(order.orderNum)).payStatus).toBe(1);
  });

  it('pages added under a privilege cannot be checked out or paid by scanning after it ends', async () => {
    const a = reader(h, cookie);
    const grant = async (seconds: number) => {
      const now = h.clock.now().getTime();
      await h.context.repos.catalog.grantPrivilege(
        userId,
        closed.bookId,
        new Date(now - 60_000).toISOString(),
        new Date(now + seconds * 1000).toISOString(),
      );
    };
    const expect403 = (response: { statusCode: number; json: () => unknown }) => {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'PRINT_ACCESS', message: MSG.printAccessLapsed });
    };

    // Without a privilege the book is for the reading room only.
    expect((await a.send('POST', '/api/print/items', { imageId: closed.pageIds[0] })).statusCode).toBe(403);
    await grant(3600);
    await a.add(closed.pageIds[0]!);
    const [item] = (await a.unpaid()).filter((i) => i.catalogId === closed.bookId && i.orderId === null);

    // The privilege ends: checkout is refused and nothing changes.
    h.clock.advance(7200);
    expect403(await a.checkout([item!.id]));
    expect403(await a.checkout([item!.id], 0));
    expect((await a.unpaid()).find((i) => i.id === item!.id)).toMatchObject({ orderId: null });

    // Checked out under a new privilege that then ends: no QR code (no trade is opened).
    await grant(3600);
    const order = (await a.checkout([item!.id])).json<Order>();
    h.clock.advance(7200);
    expect403(await a.scan(order.orderNum));
    const trades = await h.context.database.db
      .selectFrom('payments')
      .innerJoin('print_orders', 'print_orders.id', 'payments.order_id')
      .select('payments.id')
      .where('print_orders.order_num', '=', order.orderNum)
      .execute();
    expect(trades).toHaveLength(0);

    // A trade opened while the privilege holds can be paid only within its lifetime.
    await grant(24 * 3600);
    const trade = (await a.scan(order.orderNum)).json<Scan>();
    const sig = new URL(trade.payUrl).searchParams.get('sig')!;
    h.clock.advance(TRADE_LIFETIME_MS / 1000 + 1);
    const late = await h.request({
      method: 'POST',
      url: `/api/payments/sandbox/${trade.tradeNo}/confirm`,
      body: { sig, pay: true },
    });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ message: MSG.paymentTradeClosed });
    expect((await a.order(order.orderNum)).payStatus).toBe(0);
    // A fresh one is paid.
    const fresh = (await a.scan(order.orderNum)).json<Scan>();
    const freshSig = new URL(fresh.payUrl).searchParams.get('sig')!;
    const paid = await h.request({
      method: 'POST',
      url: `/api/payments/sandbox/${fresh.tradeNo}/confirm`,
      body: { sig: freshSig, pay: true },
    });
    expect(paid.json()).toEqual({ payResult: 1 });
  });

  it('a long id array is refused with a message, not a 500, and deletes nothing', async () => {
    const a = reader(h, cookie);
    await a.add(open.pageIds[4]!);
    const before = await a.unpaid();
    const ids = Array.from({ length: 32999 }, (_, i) => i + 1);
    const response = await a.send('POST', '/api/print/items/delete', { ids });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: MSG.printSelectTooMany });
    expect(await a.unpaid()).toEqual(before);

    const many = Array.from({ length: 1001 }, (_, i) => i + 1);
    expect((await a.checkout(many)).json()).toMatchObject({ message: MSG.printSelectTooMany });
    const batch = await h.request({
      method: 'POST',
      url: '/api/admin/print/items/confirm-payment',
      cookie: desk,
      body: { ids: many },
    });
    expect(batch.statusCode).toBe(400);
    expect(batch.json()).toMatchObject({ message: MSG.printSelectTooMany });
    // The most a screen sends still works.
    expect(
      (await a.send('POST', '/api/print/items/delete', { ids: before.map((i) => i.id) })).statusCode,
    ).toBe(200);
  });

  it('other request arrays are bounded too: a deep directory, a huge OCR body, many search rows', async () => {
    // 20,000 levels (about 800 KB): written as text, since JSON.stringify itself would recurse that deep.
    const levels = 20000;
    const entry = '{"name":"目","imageId":null,"children":['.repeat(levels) + ']}'.repeat(levels);
    const deep = await h.request({
      method: 'PUT',
      url: '/api/own/volumes/1/directory',
      cookie,
      headers: { 'content-type': 'application/json' },
      payload: Buffer.from(`{"entries":[${entry}]}`),
    });
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({ message: MSG.directoryTooDeep });

    const lines = Array.from({ length: 2001 }, () => ({ words: [] }));
    const ocr = await h.request({
      method: 'PUT',
      url: `/api/pages/${open.pageIds[0]}/ocr`,
      cookie,
      body: {
        ocr: {
          imginfo: { width: 10, height: 10 },
          ocr_res: { header: [], footer: [], middleSeam: [], content: lines, others: [] },
        },
      },
    });
    expect(ocr.statusCode).toBe(400);
    expect(ocr.json()).toMatchObject({ message: MSG.ocrTooMany });

    const rows = Array.from({ length: 11 }, () => ({ key: 'title', value: '論', type: 0 }));
    const search = await h.request({ method: 'POST', url: '/api/books/advanced-search', body: { rows } });
    expect(search.statusCode).toBe(400);
    expect(search.json()).toMatchObject({ message: MSG.advancedRowsTooMany });
  });
});

describe.each(DIALECTS)('print payments with no provider live (%s)', (dialect) => {
  let h: HttpHarness;
  let cookie: string;
  let book: { bookId: number; pageIds: number[] };

  beforeAll(async () => {
    h = await createHttpHarness(dialect, {
      PAYMENT_PROVIDER: 'none',
      PAYMENT_SANDBOX_SECRET: SANDBOX_SECRET,
    });
    cookie = (await makeReader(h, 'cashonly')).cookie;
    book = await createBook(h.context, { volumes: [2] });
  });
  afterAll(async () => h.close());

  it('health names no provider, and the site tells the web app not to offer scan-to-pay', async () => {
    expect((await h.request({ method: 'GET', url: '/api/health' })).json()).toMatchObject({
      payment: { provider: 'none' },
    });
    expect((await h.request({ method: 'GET', url: '/api/site' })).json()).toMatchObject({ scanPay: false });
  });

  it('scan-to-pay checkout is refused with a clear message; cash works', async () => {
    const a = reader(h, cookie);
    await a.add(book.pageIds[0]!);
    const [item] = await a.unpaid();
    const scan = await a.checkout([item!.id], 1);
    expect(scan.statusCode).toBe(400);
    expect(scan.json()).toMatchObject({ code: 'PAYMENT_UNAVAILABLE', message: MSG.scanPayUnavailable });
    const cash = await a.checkout([item!.id], 0);
    expect(cash.statusCode).toBe(200);
    const order = cash.json<Order>();
    expect((await a.scan(order.orderNum)).statusCode).toBe(400);
  });

  it('the sandbox confirm endpoint and webhook answer 404 and the order stays unpaid', async () => {
    const a = reader(h, cookie);
    await a.add(book.pageIds[1]!);
    const [item] = (await a.unpaid()).filter((i) => i.orderId === null);
    const order = (await a.checkout([item!.id], 0)).json<Order>();
    // A trade left from when the sandbox was live, with the signature its pay URL carried.
    const tradeNo = 'ab'.repeat(12);
    await h.context.database.db
      .insertInto('payments')
      .values({
        order_id: sql<number>`(select id from print_orders where order_num = ${order.orderNum})`,
        provider: 'sandbox',
        trade_no: tradeNo,
        amount_fen: order.totalFen,
        status: 'pending',
        created_at: h.clock.now().toISOString(),
        paid_at: null,
      })
      .execute();
    const sandbox = new SandboxPaymentProvider(SANDBOX_SECRET);
    const sig = new URL(sandbox.payUrl({ tradeNo, amountFen: order.totalFen }, 'http://x')).searchParams.get(
      'sig',
    )!;
    const confirm = await a.send('POST', `/api/payments/sandbox/${tradeNo}/confirm`, { sig, pay: true });
    expect(confirm.statusCode).toBe(404);
    expect((await a.send('GET', `/api/payments/sandbox/${tradeNo}?sig=${sig}`)).statusCode).toBe(404);
    const notice = await h.request({
      method: 'POST',
      url: '/api/payments/notify/sandbox',
      body: sandbox.makeNotice(tradeNo, order.totalFen, true),
    });
    expect(notice.statusCode).toBe(404);
    expect(await a.order(order.orderNum)).toMatchObject({ payStatus: 0 });
    expect(await paidTrades(h, order.orderNum)).toBe(0);
  });
});
