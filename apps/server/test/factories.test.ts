import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from './helpers.ts';
import { createHttpHarness, type HttpHarness } from './http.ts';
import { makeBook, makePrintOrder, makeReader, makeReservation, makeStaff } from './factories.ts';

describe.each(DIALECTS)('test factories (%s)', (dialect) => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
  });
  afterAll(() => h.close());

  it('make readers, staff, books, orders and reservations that belong to one test only', async () => {
    const [alice, bob] = [await makeReader(h), await makeReader(h)];
    expect(alice.loginName).not.toBe(bob.loginName);
    const callNumber = `FACT-${alice.loginName}`;
    const book = await makeBook(h, { volumes: [3], callNumber, title: '工厂测试书' });
    const order = await makePrintOrder(h, alice, book, 2);
    expect(order).toMatchObject({ totalPage: 2, totalFen: 300 });
    // Another reader cannot open it.
    const other = await h.request({
      method: 'GET',
      url: `/api/print/orders/${order.orderNum}`,
      cookie: bob.cookie,
    });
    expect(other.statusCode).toBe(404);

    const reservation = await makeReservation(h, bob, { callNumber, title: '工厂测试书' });
    expect(reservation.auditStatus).toBe(0);

    const desk = await makeStaff(h, ['printAdmin']);
    const queue = await h.request({ method: 'GET', url: '/api/admin/print/orders', cookie: desk.cookie });
    expect(queue.statusCode).toBe(200);
  });
});
