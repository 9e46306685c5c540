import { expect } from 'vitest';
import { makeReader } from './factories.ts';
import type { HttpHarness } from './http.ts';

const OUTSIDE = '203.0.113.9';

/**
 * A new reader's print order of the given pages, paid by scan, with its trade opened at the live
 * provider (the scan answer: its trade number and QR code, or the provider's refusal).
 */
export async function scanPrintOrder(h: HttpHarness, pageIds: number[], prefix: string) {
  const { cookie } = await makeReader(h, prefix);
  const send = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    h.request({ method, url, cookie, remoteAddress: OUTSIDE, ...(body === undefined ? {} : { body }) });
  for (const imageId of pageIds)
    expect((await send('POST', '/api/print/items', { imageId })).statusCode).toBe(200);
  const ids = (await send('GET', '/api/print/items?tab=unpaid'))
    .json<{ records: Array<{ id: number }> }>()
    .records.map((r) => r.id);
  const order = (await send('POST', '/api/print/orders', { itemIds: ids, extract: 0, payment: 1 })).json<{
    orderNum: string;
    totalFen: number;
  }>();
  const scan = await send('POST', `/api/print/orders/${order.orderNum}/scan`);
  return { cookie, send, order, scan };
}

/** An order's pay status and time, and how many provider notices its trades have had recorded. */
export async function orderPayState(h: HttpHarness, orderNum: string) {
  const db = h.context.database.db;
  const row = await db
    .selectFrom('print_orders')
    .select(['pay_status', 'paid_at'])
    .where('order_num', '=', orderNum)
    .executeTakeFirstOrThrow();
  const notices = await db
    .selectFrom('payment_notices')
    .innerJoin('payments', 'payments.trade_no', 'payment_notices.trade_no')
    .innerJoin('print_orders', 'print_orders.id', 'payments.order_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('print_orders.order_num', '=', orderNum)
    .executeTakeFirstOrThrow();
  return { payStatus: row.pay_status, paidAt: row.paid_at, notices: Number(notices.n) };
}
