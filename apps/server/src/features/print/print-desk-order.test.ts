import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { makeBook, makeReader, makeStaff } from '../../../test/factories.ts';

/** The desk lists an order's items, and prints them, in book order, whatever order they were added in. */
describe.each(DIALECTS)('print desk: items in book order (%s)', (dialect) => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
  });
  afterAll(() => h.close());

  it('lists an order’s pages volume by volume, page by page, not in the order they were added', async () => {
    const reader = await makeReader(h, 'deskorder');
    const desk = await makeStaff(h, ['printAdmin'], 'deskorderstaff');
    const book = await makeBook(h, { volumes: [3, 2] });
    const as = { cookie: reader.cookie, remoteAddress: '203.0.113.9' };
    // Added: volume 2 page 2, volume 1 page 3, volume 1 page 1.
    for (const imageId of [book.pageIds[4], book.pageIds[2], book.pageIds[0]])
      expect(
        (await h.request({ method: 'POST', url: '/api/print/items', body: { imageId }, ...as })).statusCode,
      ).toBe(200);
    const unpaid = (await h.request({ method: 'GET', url: '/api/print/items?tab=unpaid', ...as })).json<{
      records: Array<{ id: number }>;
    }>().records;
    const order = (
      await h.request({
        method: 'POST',
        url: '/api/print/orders',
        body: { itemIds: unpaid.map((i) => i.id), extract: 0, payment: 0 },
        ...as,
      })
    ).json<{ orderNum: string }>();
    const items = (
      await h.request({
        method: 'GET',
        url: `/api/admin/print/orders/${order.orderNum}/items`,
        cookie: desk.cookie,
      })
    ).json<Array<{ imageId: number; volumeName: string; pageNumber: number }>>();
    expect(items.map((i) => i.imageId)).toEqual([book.pageIds[0], book.pageIds[2], book.pageIds[4]]);
    expect(items.map((i) => `${i.volumeName}:${i.pageNumber}`)).toEqual(['卷一:1', '卷一:3', '卷二:2']);
  });

  it('shows the desk an order’s invoice, and its print file downloads as the order number', async () => {
    const reader = await makeReader(h, 'deskinvoice');
    const desk = await makeStaff(h, ['printAdmin'], 'deskinvoicestaff');
    const book = await makeBook(h, { volumes: [2] });
    const as = { cookie: reader.cookie, remoteAddress: '203.0.113.10' };
    await h.request({ method: 'POST', url: '/api/print/items', body: { imageId: book.pageIds[1] }, ...as });
    const [item] = (await h.request({ method: 'GET', url: '/api/print/items?tab=unpaid', ...as })).json<{
      records: Array<{ id: number }>;
    }>().records;
    const order = (
      await h.request({
        method: 'POST',
        url: '/api/print/orders',
        body: { itemIds: [item!.id], extract: 0, payment: 0, isInvoice: 1, invoiceTitle: '某大學圖書館' },
        ...as,
      })
    ).json<{ orderNum: string }>();
    const summary = (
      await h.request({ method: 'GET', url: '/api/admin/print/orders?realName=', cookie: desk.cookie })
    ).json<{ records: Array<{ orderNum: string; invoiceTitle: string | null }> }>();
    expect(summary.records.find((r) => r.orderNum === order.orderNum)?.invoiceTitle).toBe('某大學圖書館');
    const ids = { ids: [item!.id] };
    const url = '/api/admin/print/items';
    expect(
      (await h.request({ method: 'POST', url: `${url}/confirm-payment`, body: ids, cookie: desk.cookie }))
        .statusCode,
    ).toBe(200);
    const printed = await h.request({
      method: 'POST',
      url: `${url}/printed`,
      body: ids,
      cookie: desk.cookie,
    });
    expect(printed.statusCode).toBe(200);
    const pdf = await h.request({
      method: 'GET',
      url: printed.json<{ pdfUrl: string }>().pdfUrl,
      cookie: desk.cookie,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="${order.orderNum}.pdf"`);
    // Another reader's order without an invoice shows none.
    const other = await makeReader(h, 'desknoinvoice');
    const mine = { cookie: other.cookie, remoteAddress: '203.0.113.11' };
    await h.request({ method: 'POST', url: '/api/print/items', body: { imageId: book.pageIds[0] }, ...mine });
    const [otherItem] = (
      await h.request({ method: 'GET', url: '/api/print/items?tab=unpaid', ...mine })
    ).json<{
      records: Array<{ id: number }>;
    }>().records;
    const plain = (
      await h.request({
        method: 'POST',
        url: '/api/print/orders',
        body: { itemIds: [otherItem!.id], extract: 0, payment: 0 },
        ...mine,
      })
    ).json<{ orderNum: string }>();
    const after = (
      await h.request({ method: 'GET', url: '/api/admin/print/orders', cookie: desk.cookie })
    ).json<{
      records: Array<{ orderNum: string; invoiceTitle: string | null }>;
    }>();
    expect(after.records.find((r) => r.orderNum === plain.orderNum)?.invoiceTitle).toBeNull();
  });
});
