import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '@guji/shared';
import { createBook } from '../../../test/catalog-factory.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { makeReader } from '../../../test/factories.ts';

describe.each(DIALECTS)('console dashboard (%s)', (dialect) => {
  let h: HttpHarness;
  let admin: string;
  let reader: string;
  let readerLogin = '';
  let readerId: number;
  let book: { bookId: number; pageIds: number[] };
  const get = (url: string, cookie: string) => h.request({ method: 'GET', url, cookie });
  const post = (url: string, cookie: string, body: unknown) =>
    h.request({ method: 'POST', url, cookie, body });

  beforeAll(async () => {
    // The fake clock starts at 2026-06-01T08:00Z: 16:00 on 1 June in the default zone, Asia/Shanghai.
    h = await createHttpHarness(dialect);
    await h.context.services.auth.upsertAccount({
      loginName: 'dashadmin',
      password: GOOD_PASSWORD,
      roles: ['reader', 'admin'],
    });
    admin = (await h.login('dashadmin', GOOD_PASSWORD)).cookie;
    ({ cookie: reader, loginName: readerLogin } = await makeReader(h, 'dashreader'));
    readerId = (
      await h.context.database.db
        .selectFrom('users')
        .select('id')
        .where('login_name', '=', readerLogin)
        .executeTakeFirstOrThrow()
    ).id;
    book = await createBook(h.context, { title: '論語', volumes: [3] });
  });
  afterAll(async () => h.close());

  it('counts readers, page views, book openings and searches per local day; staff only', async () => {
    expect((await get(`/api/reader?catalogId=${book.bookId}`, reader)).statusCode).toBe(200);
    for (const pageId of book.pageIds)
      expect((await post('/api/me/footprints', reader, { imageId: pageId })).statusCode).toBe(200);
    await get(`/api/books?title=${encodeURIComponent('論語')}`, reader);
    await get(`/api/books?title=${encodeURIComponent('論語')}&pageNum=2`, reader); // paging: not a new search
    await get('/api/books', reader); // the whole list: not a search
    await get(`/api/books?title=${encodeURIComponent('孟子')}`, admin);

    // 17:00Z is already 01:00 on 2 June in Shanghai.
    h.clock.advance(9 * 3600);
    expect((await post('/api/me/footprints', reader, { imageId: book.pageIds[0] })).statusCode).toBe(200);
    const db = h.context.database.db;
    await db
      .insertInto('print_orders')
      .values({
        order_num: 'D20260601001',
        user_id: readerId,
        extract: 0,
        payment: 1,
        is_invoice: 0,
        invoice_title: null,
        consignee: null,
        consignee_phone: null,
        delivery_address: null,
        total_fen: 1250,
        pay_status: 1,
        paid_at: '2026-06-01T16:30:00.000Z',
        created_at: '2026-06-01T15:50:00.000Z',
        updated_at: '2026-06-01T16:30:00.000Z',
      })
      .execute();
    await db
      .insertInto('ocr_versions')
      .values([
        {
          page_id: book.pageIds[0]!,
          version: 90,
          source: 'ocr:ppocr',
          ocr_json: '{}',
          created_by: null,
          created_at: '2026-06-01T12:00:00.000Z',
        },
        {
          page_id: book.pageIds[1]!,
          version: 90,
          source: 'ocr:ppocr',
          ocr_json: '{}',
          created_by: null,
          created_at: '2026-06-01T16:01:00.000Z',
        },
        {
          page_id: book.pageIds[2]!,
          version: 90,
          source: 'proofread',
          ocr_json: '{}',
          created_by: null,
          created_at: '2026-06-01T16:02:00.000Z',
        },
      ])
      .execute();

    expect((await get('/api/admin/dashboard', reader)).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/admin/dashboard' })).statusCode).toBe(401);
    const bad = await get('/api/admin/dashboard?days=5', admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('统计范围只能是 7、30 或 90 天');

    const response = await get('/api/admin/dashboard?days=7', admin);
    expect(response.statusCode).toBe(200);
    const dashboard = response.json<Dashboard>();
    expect(dashboard.timeZone).toBe('Asia/Shanghai');
    expect(dashboard.days.map((d) => d.day)).toEqual([
      '2026-05-27',
      '2026-05-28',
      '2026-05-29',
      '2026-05-30',
      '2026-05-31',
      '2026-06-01',
      '2026-06-02',
    ]);
    const [june1, june2] = dashboard.days.slice(-2);
    expect(june1).toMatchObject({
      readers: 1,
      pageViews: 3,
      bookOpens: 1,
      searches: 2,
      registrations: 2,
      orders: 1,
      paidOrders: 0,
      revenueFen: 0,
      ocrPages: 1,
    });
    expect(june2).toMatchObject({
      readers: 1,
      pageViews: 1,
      bookOpens: 0,
      searches: 0,
      registrations: 0,
      orders: 0,
      paidOrders: 1,
      revenueFen: 1250,
      ocrPages: 1,
    });
    expect(dashboard.totals).toMatchObject({ pageViews: 4, searches: 2, revenueFen: 1250, ocrPages: 2 });
    expect(dashboard.catalogue).toMatchObject({ books: 1, visibleBooks: 1, pages: 3, users: 2 });
  });
});
