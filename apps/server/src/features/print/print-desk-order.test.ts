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
});
