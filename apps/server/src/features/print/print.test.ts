import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { createBook } from '../../../test/catalog-factory.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { makeReader } from '../../../test/factories.ts';

describe.each(DIALECTS)('print orders over HTTP (%s)', (dialect) => {
  let h: HttpHarness;
  let bob: string;
  let desk: string;
  let book: { bookId: number; pageIds: number[]; volumeIds: number[] };
  let closed: { bookId: number; pageIds: number[]; volumeIds: number[] };
  const OUTSIDE = '203.0.113.9';

  const as = (cookie: string) => ({
    get: (url: string) => h.request({ method: 'GET', url, cookie, remoteAddress: OUTSIDE }),
    post: (url: string, body: unknown = {}) =>
      h.request({ method: 'POST', url, body, cookie, remoteAddress: OUTSIDE }),
  });
  const unpaid = async (cookie: string) =>
    (await as(cookie).get('/api/print/items?tab=unpaid')).json<{
      records: Array<{ id: number; amountFen: number }>;
    }>().records;

  /** A reader of one test's own, so that test's print list holds only what it added. */
  let readers = 0;
  const freshReader = async (loginName: string) => {
    readers++;
    await h.register({ loginName, phone: `1340000${String(9000 + readers)}` });
    return (await h.login(loginName, GOOD_PASSWORD)).cookie;
  };

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    bob = (await makeReader(h, 'printbob')).cookie;
    await h.context.services.auth.upsertAccount({
      loginName: 'desk',
      password: GOOD_PASSWORD,
      roles: ['reader', 'printAdmin'],
    });
    desk = (await h.login('desk', GOOD_PASSWORD)).cookie;
    book = await createBook(h.context, { volumes: [5] });
    closed = await createBook(h.context, { volumes: [2], isOpen: false });
  });
  afterAll(async () => h.close());

  it('adds pages a reader may read, priced from the configuration; totals are exact', async () => {
    const alice = await freshReader('printadds');
    const a = as(alice);
    expect((await a.get('/api/print/prices')).json()).toEqual([
      { paperSize: 'A4', label: 'A4 单面', priceFen: 150 },
      { paperSize: 'A3', label: 'A3 单面', priceFen: 300 },
    ]);
    expect((await a.post('/api/print/items', { imageId: book.pageIds[0] })).json()).toMatchObject({
      added: 1,
      message: MSG.printAdded,
    });
    expect(
      (
        await a.post('/api/print/items', { fascicleId: book.volumeIds[0], from: 2, to: 4, paperSize: 'A3' })
      ).json(),
    ).toMatchObject({ added: 3 });
    expect(
      (await a.post('/api/print/items', { fascicleId: book.volumeIds[0], from: 4, to: 2 })).json(),
    ).toMatchObject({ message: MSG.printRangeInvalid });
    // Not a page of a book one may not read.
    expect((await a.post('/api/print/items', { imageId: closed.pageIds[0] })).statusCode).toBe(403);
    const items = await unpaid(alice);
    expect(items.map((i) => i.amountFen).sort()).toEqual([150, 300, 300, 300]);
    const list = (await a.get('/api/print/items')).json<{
      pageSize: number;
      records: Array<{ name: string | null; title: string; filePath: string }>;
    }>();
    expect(list.pageSize).toBe(6);
    expect(list.records[0]).toMatchObject({ name: '第二章' });

    // Many items: the order total is the exact sum in fen.
    await a.post('/api/print/items', { fascicleId: book.volumeIds[0], from: 1, to: 5 });
    await a.post('/api/print/items', { fascicleId: book.volumeIds[0], from: 1, to: 5, paperSize: 'A3' });
    const all = await unpaid(alice);
    const order = (
      await a.post('/api/print/orders', { itemIds: all.map((i) => i.id), extract: 0, payment: 0 })
    ).json<{ totalFen: number; totalPage: number; payStatus: number; orderNum: string }>();
    expect(order.totalFen).toBe(all.reduce((s, i) => s + i.amountFen, 0));
    expect(order).toMatchObject({ totalFen: 150 + 900 + 750 + 1500, totalPage: 14, payStatus: 0 });
    expect(order.orderNum).toMatch(/^P\d{20}$/);
    // Checked out again (as a scan order), the old empty order goes and the items follow.
    const again = (
      await a.post('/api/print/orders', { itemIds: all.map((i) => i.id), extract: 0, payment: 1 })
    ).json<{ orderNum: string }>();
    expect((await a.get(`/api/print/orders/${order.orderNum}`)).statusCode).toBe(404);
    expect((await a.get(`/api/print/orders/${again.orderNum}`)).json()).toMatchObject({
      totalPage: 14,
      payment: 1,
    });
  });

  it('prices are the administrators’ to set; added items keep the amount they were added with', async () => {
    const alice = await freshReader('printprices');
    const body = { prices: [{ paperSize: 'A4', label: 'A4 单面', priceFen: 200 }] };
    expect(
      (await h.request({ method: 'PUT', url: '/api/admin/print/prices', cookie: desk, body })).statusCode,
    ).toBe(403);
    await h.context.services.auth.upsertAccount({
      loginName: 'boss',
      password: GOOD_PASSWORD,
      roles: ['admin'],
    });
    const admin = (await h.login('boss', GOOD_PASSWORD)).cookie;
    await as(alice).post('/api/print/items', { imageId: book.pageIds[0] });
    const before = (await unpaid(alice)).map((i) => i.amountFen);
    expect(before).toEqual([150]);
    expect(
      (await h.request({ method: 'PUT', url: '/api/admin/print/prices', cookie: admin, body })).json(),
    ).toEqual(body.prices);
    expect((await unpaid(alice)).map((i) => i.amountFen)).toEqual(before);
    await h.request({
      method: 'PUT',
      url: '/api/admin/print/prices',
      cookie: admin,
      body: {
        prices: [
          { paperSize: 'A4', label: 'A4 单面', priceFen: 150 },
          { paperSize: 'A3', label: 'A3 单面', priceFen: 300 },
        ],
      },
    });
  });

  it('checkout rules and messages of spec §5', async () => {
    const alice = await freshReader('printrules');
    const a = as(alice);
    await a.post('/api/print/items', { imageId: book.pageIds[0] });
    const [item] = await unpaid(alice);
    const msg = async (body: unknown) =>
      (await a.post('/api/print/orders', body)).json<{ message: string }>().message;
    expect(await msg({ itemIds: [], extract: 0, payment: 0 })).toBe(MSG.checkoutSelectOne);
    expect(await msg({ itemIds: [item!.id] })).toBe(MSG.checkoutExtractRequired);
    expect(await msg({ itemIds: [item!.id], extract: 0 })).toBe(MSG.checkoutPaymentRequired);
    expect(await msg({ itemIds: [item!.id], extract: 0, payment: 1, isInvoice: 1 })).toBe(
      MSG.checkoutInvoiceTitleRequired,
    );
    // Post off (the default; another test turns it on).
    await h.context.services.settings.update({ printPostEnabled: false });
    expect(
      await msg({
        itemIds: [item!.id],
        extract: 1,
        consignee: '李',
        consigneePhonenum: '13400000201',
        deliveryAddress: '北京',
      }),
    ).toBe(MSG.checkoutPostOff);
    await h.context.services.settings.update({ printPostEnabled: true });
    expect(await msg({ itemIds: [item!.id], extract: 1 })).toBe(MSG.checkoutConsigneeRequired);
    expect(
      await msg({
        itemIds: [item!.id],
        extract: 1,
        consignee: '李',
        consigneePhonenum: '12',
        deliveryAddress: '北京',
      }),
    ).toBe(MSG.phoneInvalid);
    expect(
      await msg({ itemIds: [item!.id], extract: 1, consignee: '李', consigneePhonenum: '13400000201' }),
    ).toBe(MSG.checkoutAddressRequired);
  });

  it('scan to pay: QR link to the sandbox page, signed notice, polling reads paid, print desk told', async () => {
    const alice = await freshReader('printscan');
    const a = as(alice);
    await a.post('/api/print/items', { imageId: book.pageIds[1] });
    const [item] = await unpaid(alice);
    const order = (await a.post('/api/print/orders', { itemIds: [item!.id], extract: 0, payment: 1 })).json<{
      orderNum: string;
      totalFen: number;
    }>();
    expect((await a.get(`/api/print/orders/${order.orderNum}/pay-status`)).json()).toEqual({
      data: 'unpaid',
    });
    const scan = (await a.post(`/api/print/orders/${order.orderNum}/scan`)).json<{
      tradeNo: string;
      payUrl: string;
      qrCode: string;
      amountFen: number;
    }>();
    expect(scan.amountFen).toBe(order.totalFen);
    expect(scan.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const url = new URL(scan.payUrl);
    expect(url.pathname).toBe(`/SandboxPay/${scan.tradeNo}`);
    const sig = url.searchParams.get('sig')!;
    // The page needs its signature.
    expect(
      (await h.request({ method: 'GET', url: `/api/payments/sandbox/${scan.tradeNo}?sig=${'0'.repeat(32)}` }))
        .statusCode,
    ).toBe(404);
    expect(
      (await h.request({ method: 'GET', url: `/api/payments/sandbox/${scan.tradeNo}?sig=${sig}` })).json(),
    ).toMatchObject({
      orderNum: order.orderNum,
      amountFen: order.totalFen,
      status: 'pending',
    });
    // Bob cannot see, poll or pay Alice's order.
    expect((await as(bob).get(`/api/print/orders/${order.orderNum}`)).statusCode).toBe(404);
    expect((await as(bob).get(`/api/print/orders/${order.orderNum}/pay-status`)).statusCode).toBe(404);
    expect((await as(bob).post(`/api/print/orders/${order.orderNum}/scan`)).statusCode).toBe(404);
    expect((await as(bob).post('/api/print/items/delete', { ids: [item!.id] })).statusCode).toBe(404);
    expect(
      (await as(bob).post('/api/print/orders', { itemIds: [item!.id], extract: 0, payment: 0 })).json(),
    ).toMatchObject({ message: MSG.checkoutItemsUnavailable });

    const confirmed = await h.request({
      method: 'POST',
      url: `/api/payments/sandbox/${scan.tradeNo}/confirm`,
      body: { sig, pay: true },
    });
    expect(confirmed.json()).toEqual({ payResult: 1 });
    expect((await a.get(`/api/print/orders/${order.orderNum}/pay-status`)).json()).toEqual({ data: 'paid' });
    expect((await a.get(`/api/print/orders/${order.orderNum}`)).json()).toMatchObject({
      payStatus: 1,
      items: [{ payStatus: 1 }],
    });
    const notices = (await as(desk).get('/api/admin/notifications')).json<Array<{ text: string }>>();
    expect(notices[0]!.text).toContain(order.orderNum);
    expect(notices[0]!.text).toContain('共 1 页，扫码支付，合计 ¥1.50');
    // Paid items cannot be deleted.
    expect((await a.post('/api/print/items/delete', { ids: [item!.id] })).json()).toMatchObject({
      message: MSG.printDeleteOnlyUnpaid,
    });
  });

  it('a forged, replayed or wrong-amount notice changes nothing', async () => {
    const alice = await freshReader('printforged');
    const a = as(alice);
    await a.post('/api/print/items', { imageId: book.pageIds[2] });
    const [item] = await unpaid(alice);
    const order = (await a.post('/api/print/orders', { itemIds: [item!.id], extract: 0, payment: 1 })).json<{
      orderNum: string;
      totalFen: number;
    }>();
    const scan = (await a.post(`/api/print/orders/${order.orderNum}/scan`)).json<{ tradeNo: string }>();
    const provider = h.context.services.checkout.sandbox!;
    const notify = (body: unknown) =>
      h.request({ method: 'POST', url: '/api/payments/notify/sandbox', body });
    const status = async () =>
      (await a.get(`/api/print/orders/${order.orderNum}/pay-status`)).json<{ data: string }>().data;

    const forged = { ...provider.makeNotice(scan.tradeNo, order.totalFen, true), sign: 'f'.repeat(64) };
    expect((await notify(forged)).statusCode).toBe(400);
    const tampered = { ...provider.makeNotice(scan.tradeNo, order.totalFen, true), amountFen: 1 };
    expect((await notify(tampered)).statusCode).toBe(400);
    const wrongAmount = provider.makeNotice(scan.tradeNo, order.totalFen - 1, true);
    expect((await notify(wrongAmount)).json()).toMatchObject({ message: MSG.paymentAmountMismatch });
    const unknownTrade = provider.makeNotice('0'.repeat(24), order.totalFen, true);
    expect((await notify(unknownTrade)).statusCode).toBe(400);
    expect(await status()).toBe('unpaid');

    const good = provider.makeNotice(scan.tradeNo, order.totalFen, true);
    const [first, second] = await Promise.all([notify(good), notify(good)]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    expect(await status()).toBe('paid');
    expect((await notify(good)).statusCode).toBe(409);
    // A second genuine notice for a paid trade is accepted and changes nothing: one notification.
    expect((await notify(provider.makeNotice(scan.tradeNo, order.totalFen, true))).json()).toEqual({
      paid: true,
    });
    const notices = (await as(desk).get('/api/admin/notifications')).json<Array<{ text: string }>>();
    expect(notices.filter((n) => n.text.includes(order.orderNum))).toHaveLength(1);
  });

  it('the print desk: summary and filters, cash confirmed once, print to PDF, courier numbers, all logged', async () => {
    const alice = await freshReader('printdesk');
    const a = as(alice);
    expect((await a.get('/api/admin/print/orders')).statusCode).toBe(403);
    expect((await a.post('/api/admin/print/items/confirm-payment', { ids: [1] })).statusCode).toBe(403);
    await a.post('/api/print/items', { fascicleId: book.volumeIds[0], from: 1, to: 2 });
    const items = await unpaid(alice);
    const cash = (
      await a.post('/api/print/orders', { itemIds: items.map((i) => i.id), extract: 0, payment: 0 })
    ).json<{ orderNum: string; items: Array<{ id: number }> }>();
    const ids = cash.items.map((i) => i.id);

    const d = as(desk);
    const summary = (await d.get('/api/admin/print/orders?realName=张三&extract=0')).json<{
      pageSize: number;
      records: Array<{ orderNum: string; payNoPrint: number; realName: string }>;
    }>();
    expect(summary.pageSize).toBe(8);
    expect(summary.records[0]).toMatchObject({ orderNum: cash.orderNum, payNoPrint: 0, realName: '张三' });
    expect((await d.get('/api/admin/print/orders?phone=19999')).json<{ total: number }>().total).toBe(0);
    // A % or _ typed in a filter is that character, not a wildcard.
    expect((await d.get('/api/admin/print/orders?realName=%25')).json<{ total: number }>().total).toBe(0);
    expect((await d.get('/api/admin/print/orders?phone=_')).json<{ total: number }>().total).toBe(0);
    expect((await d.get(`/api/admin/print/orders/${cash.orderNum}/items`)).json<unknown[]>()).toHaveLength(2);

    expect((await d.post('/api/admin/print/items/confirm-payment', { ids: [] })).json()).toMatchObject({
      message: MSG.selectAtLeastOne,
    });
    expect((await d.post('/api/admin/print/items/printed', { ids })).json()).toMatchObject({
      message: MSG.adminPrintUnpaid,
    });
    // Two confirmations at once: paid once.
    const both = await Promise.all([
      d.post('/api/admin/print/items/confirm-payment', { ids }),
      d.post('/api/admin/print/items/confirm-payment', { ids }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect((await d.post('/api/admin/print/items/confirm-payment', { ids })).json()).toMatchObject({
      message: MSG.adminConfirmPaid,
    });
    expect((await a.get(`/api/print/orders/${cash.orderNum}/pay-status`)).json()).toEqual({ data: 'paid' });

    // Courier numbers: not for self-pickup.
    const printed = (await d.post('/api/admin/print/items/printed', { ids })).json<{
      pdfUrl: string;
      pages: number;
    }>();
    expect(printed.pages).toBe(2);
    const pdf = await d.get(printed.pdfUrl);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    // A cover sheet and the two pages.
    expect((await PDFDocument.load(pdf.rawPayload)).getPageCount()).toBe(3);
    expect((await a.get(printed.pdfUrl)).statusCode).toBe(403);
    expect(
      (await d.post('/api/admin/print/items/express', { ids, expressNumber: 'SF123' })).json(),
    ).toMatchObject({ message: MSG.adminExpressPickup });

    // A posted order: unprinted refused, empty refused, then saved once.
    await h.context.services.settings.update({ printPostEnabled: true });
    await a.post('/api/print/items', { imageId: book.pageIds[4] });
    const [postItem] = await unpaid(alice);
    const post = (
      await a.post('/api/print/orders', {
        itemIds: [postItem!.id],
        extract: 1,
        consignee: '张三',
        consigneePhonenum: '13400000201',
        deliveryAddress: '北京市海淀区',
      })
    ).json<{ orderNum: string; payment: number }>();
    expect(post.payment).toBe(1);
    await d.post('/api/admin/print/items/confirm-payment', { ids: [postItem!.id] });
    expect(
      (await d.post('/api/admin/print/items/express', { ids: [postItem!.id], expressNumber: 'SF1' })).json(),
    ).toMatchObject({ message: MSG.adminExpressUnprinted });
    await d.post('/api/admin/print/items/printed', { ids: [postItem!.id] });
    expect(
      (await d.post('/api/admin/print/items/express', { ids: [postItem!.id], expressNumber: ' ' })).json(),
    ).toMatchObject({ message: MSG.adminExpressEmpty });
    expect(
      (
        await d.post('/api/admin/print/items/express', { ids: [postItem!.id], expressNumber: 'SF1234567890' })
      ).json(),
    ).toMatchObject({ message: MSG.expressSaved });
    expect(
      (await d.post('/api/admin/print/items/express', { ids: [postItem!.id], expressNumber: 'SF0' })).json(),
    ).toMatchObject({ message: MSG.adminExpressExists });
    expect((await a.get(`/api/print/orders/${post.orderNum}`)).json()).toMatchObject({
      items: [{ expressNumber: 'SF1234567890', printStatus: 1 }],
    });

    const log = (await d.get(`/api/admin/print/orders/${cash.orderNum}/log`)).json<
      Array<{ action: string; actor: string }>
    >();
    expect(log.map((l) => l.action)).toEqual(['confirm-payment', 'printed']);
    expect(log.every((l) => l.actor === 'desk')).toBe(true);
  });
});
