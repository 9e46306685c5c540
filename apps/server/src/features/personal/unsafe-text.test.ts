import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { createBook, ocrFor } from '../../../test/catalog-factory.ts';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { makeReader } from '../../../test/factories.ts';

/** Outside the reading room (the test config's reading room is loopback). */
const OUTSIDE = '203.0.113.9';
const NUL = 'a\u0000b';
const RLO_TAG = 'a\u202E\u0000<b x';

/**
 * Issue 13 item 13: the texts other people read — a reservation's reason, an invoice title, a
 * reviewer's refusal, the site's names and labels — refuse control and bidi characters (and tags),
 * with a clear message, and nothing is stored.
 */
describe.each(DIALECTS)('reader-visible texts refuse control, bidi characters and tags on %s', (dialect) => {
  let h: HttpHarness;
  let reader: string;
  let reviewer: string;
  let admin: string;
  let book: { bookId: number; pageIds: number[]; volumeIds: number[] };

  const send = (method: 'POST' | 'PUT' | 'PATCH', url: string, cookie: string, body: unknown) =>
    h.request({ method, url, cookie, body, remoteAddress: OUTSIDE });
  const refused = async (
    method: 'POST' | 'PUT' | 'PATCH',
    url: string,
    cookie: string,
    body: unknown,
    message: string,
  ) => {
    const response = await send(method, url, cookie, body);
    expect(response.statusCode, `${url} ${JSON.stringify(body)}: ${response.body}`).toBe(400);
    expect(response.json<{ message: string }>().message, `${url} ${JSON.stringify(body)}`).toBe(message);
  };

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    reader = (await makeReader(h, 'textreader')).cookie;
    await h.context.services.auth.upsertAccount({
      loginName: 'textreviewer',
      password: GOOD_PASSWORD,
      roles: ['reader', 'reviewer'],
    });
    reviewer = (await h.login('textreviewer', GOOD_PASSWORD)).cookie;
    await h.context.services.auth.upsertAccount({
      loginName: 'textadmin',
      password: GOOD_PASSWORD,
      roles: ['reader', 'admin', 'catalogAdmin'],
    });
    admin = (await h.login('textadmin', GOOD_PASSWORD)).cookie;
    book = await createBook(h.context, { volumes: [2], callNumber: 'TX-001', title: '文字試驗' });
  });
  afterAll(async () => h.close());

  it('a reservation reason with a NUL, a bidi override or a tag is refused; nothing is stored', async () => {
    const base = { callNumber: 'TX-001', title: '文字試驗', applyDays: 'ANB0402' };
    const count = async () =>
      (await h.request({ method: 'GET', url: '/api/me/reservations', cookie: reader })).json<{
        total: number;
      }>().total;
    const before = await count();
    await refused('POST', '/api/reservations', reader, { ...base, detailReason: NUL }, MSG.textUnsafeChars);
    await refused(
      'POST',
      '/api/reservations',
      reader,
      { ...base, detailReason: '研究\u202E需要' },
      MSG.textUnsafeChars,
    );
    await refused('POST', '/api/reservations', reader, { ...base, detailReason: '见<b x' }, MSG.noHtml);
    expect(await count()).toBe(before);
    // Line breaks and 《》 stay allowed.
    const ok = await send('POST', '/api/reservations', reader, {
      ...base,
      detailReason: '校勘《文字試驗》\n第二行',
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a reviewer’s refusal reason (reservations and own books) is held to the same rule', async () => {
    await createBook(h.context, { volumes: [1], callNumber: 'TX-002', title: '拒絕試驗', isOpen: false });
    const created = await send('POST', '/api/reservations', reader, {
      callNumber: 'TX-002',
      title: '拒絕試驗',
      applyDays: 'ANB0402',
      detailReason: '校勘',
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json<{ reservation: { id: number } }>().reservation.id;
    for (const reason of [NUL, '不予\u202E批准', '\u2066x\u2069']) {
      await refused(
        'POST',
        `/api/admin/reservations/${id}/refuse`,
        reviewer,
        { reason },
        MSG.textUnsafeChars,
      );
      // The own-book refusal reads the same request schema.
      await refused('POST', '/api/admin/own-books/1/refuse', reviewer, { reason }, MSG.textUnsafeChars);
    }
    await refused(
      'POST',
      `/api/admin/reservations/${id}/refuse`,
      reviewer,
      { reason: '<img src=x' },
      MSG.noHtml,
    );
    await refused('POST', '/api/admin/own-books/1/refuse', reviewer, { reason: '</p>' }, MSG.noHtml);
    const mine = (await h.request({ method: 'GET', url: '/api/me/reservations', cookie: reader })).json<{
      records: Array<{ id: number; auditStatus: number; refuseReason: string | null }>;
    }>();
    expect(mine.records.find((r) => r.id === id)).toMatchObject({ auditStatus: 0, refuseReason: null });
    const ok = await send('POST', `/api/admin/reservations/${id}/refuse`, reviewer, { reason: '馆藏修复中' });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('an invoice title, consignee or address with control, bidi characters or tags is refused at checkout', async () => {
    await send('POST', '/api/print/items', reader, { imageId: book.pageIds[0] });
    const items = (
      await h.request({
        method: 'GET',
        url: '/api/print/items?tab=unpaid',
        cookie: reader,
        remoteAddress: OUTSIDE,
      })
    ).json<{ records: Array<{ id: number }> }>().records;
    expect(items).toHaveLength(1);
    const base = { itemIds: [items[0]!.id], extract: 0, payment: 0, isInvoice: 1 };
    for (const invoiceTitle of [RLO_TAG, NUL, '某某公司<b', '\u202E司公']) {
      await refused('POST', '/api/print/orders', reader, { ...base, invoiceTitle }, MSG.nameUnsafeChars);
    }
    await h.context.services.settings.update({ printPostEnabled: true });
    const post = {
      itemIds: [items[0]!.id],
      extract: 1,
      consignee: '李四',
      consigneePhonenum: '13400001411',
      deliveryAddress: '北京市',
    };
    await refused(
      'POST',
      '/api/print/orders',
      reader,
      { ...post, consignee: 'a\u202Eb' },
      MSG.nameUnsafeChars,
    );
    await refused(
      'POST',
      '/api/print/orders',
      reader,
      { ...post, deliveryAddress: '<b x' },
      MSG.nameUnsafeChars,
    );
    await h.context.services.settings.update({ printPostEnabled: false });
    const orders = await h.context.database.db.selectFrom('print_orders').select('id').execute();
    expect(orders).toEqual([]);
    const ok = await send('POST', '/api/print/orders', reader, { ...base, invoiceTitle: '某某大学图书馆' });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('terminal, site, price, duration and classification names are refused with unsafe characters', async () => {
    await refused('POST', '/api/admin/terminals', admin, { name: RLO_TAG }, MSG.nameUnsafeChars);
    await refused('POST', '/api/admin/terminals', admin, { name: '一号机<script' }, MSG.nameUnsafeChars);
    const site = (await h.request({ method: 'GET', url: '/api/site' })).json<Record<string, unknown>>();
    for (const field of ['siteName', 'copyright', 'filingNumber', 'fundingNote']) {
      await refused('PUT', '/api/admin/site', admin, { [field]: RLO_TAG }, MSG.nameUnsafeChars);
      await refused('PUT', '/api/admin/site', admin, { [field]: '馆\u2067名' }, MSG.nameUnsafeChars);
    }
    await refused('PUT', '/api/admin/site', admin, { introduction: NUL }, MSG.textUnsafeChars);
    await refused('PUT', '/api/admin/site', admin, { introduction: '简介<script>' }, MSG.noHtml);
    await refused('PUT', '/api/admin/site', admin, { siteName: '  ' }, '请输入站点名称');
    expect((await h.request({ method: 'GET', url: '/api/site' })).json()).toEqual(site);
    const prices = (await h.request({ method: 'GET', url: '/api/print/prices' })).json<
      Array<{ paperSize: string; label: string; priceFen: number }>
    >();
    await refused(
      'PUT',
      '/api/admin/print/prices',
      admin,
      { prices: [{ ...prices[0]!, label: 'A4\u202E单面' }] },
      MSG.nameUnsafeChars,
    );
    await refused(
      'PUT',
      '/api/admin/print/prices',
      admin,
      { prices: [{ ...prices[0]!, paperSize: 'A4<b' }] },
      MSG.nameUnsafeChars,
    );
    expect((await h.request({ method: 'GET', url: '/api/print/prices' })).json()).toEqual(prices);
    await refused(
      'PUT',
      '/api/admin/reservation-durations/ANB0402',
      admin,
      { label: '长期\u0000', days: 30 },
      MSG.nameUnsafeChars,
    );
    await refused(
      'PUT',
      '/api/admin/reservation-durations/ANB0402',
      admin,
      { label: '<i>长期', days: 30 },
      MSG.nameUnsafeChars,
    );
    await refused(
      'POST',
      '/api/admin/classifications',
      admin,
      { parentId: null, code: 'TXT', name: '经\u202E部' },
      MSG.nameUnsafeChars,
    );
    // The rules still let ordinary texts through.
    const ok = await send('PUT', '/api/admin/site', admin, {
      siteName: '某某图书馆古籍库',
      copyright: '版权所有 © 某某图书馆',
      introduction: '本馆藏《論語》等古籍。\n欢迎阅览。',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const terminal = await send('POST', '/api/admin/terminals', admin, { name: '阅览室一号机' });
    expect(terminal.statusCode, terminal.body).toBe(200);
  });
  it('tags are refused in OCR words, a book’s notes, a volume’s introduction and MARC 500 notes; nothing is stored', async () => {
    // Issue 30 item 8: these were stored as sent.
    const pageId = book.pageIds[0]!;
    const ocr = ocrFor('學而時習之', 600, 400);
    ocr.ocr_res.content[0]!.words[1]!.word = '<img src=x>';
    await refused('PUT', `/api/pages/${pageId}/ocr`, admin, { ocr }, MSG.noHtml);
    const stored = await h.context.database.db
      .selectFrom('pages')
      .select('ocr_json')
      .where('id', '=', pageId)
      .executeTakeFirst();
    expect(stored?.ocr_json ?? '').not.toContain('<img');

    await refused('PATCH', `/api/books/${book.bookId}`, admin, { notes: '原缺<script>' }, MSG.noHtml);
    const notes = await h.context.database.db
      .selectFrom('books')
      .select('notes')
      .where('id', '=', book.bookId)
      .executeTakeFirst();
    expect(notes?.notes ?? '').not.toContain('<script');

    const own = await send('POST', '/api/own/books', reader, {
      title: '標記試驗',
      actualVolume: 1,
      author: '佚名',
      publishDynasty: '清',
      editionType: '抄本',
    });
    const catalogId = own.json<{ catalogId: number }>().catalogId;
    await refused(
      'POST',
      `/api/own/books/${catalogId}/volumes`,
      reader,
      { name: '卷一', introduction: '<iframe src=//x>' },
      MSG.noHtml,
    );
  });
});
