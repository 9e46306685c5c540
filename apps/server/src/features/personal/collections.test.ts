import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { personalClient, personalData, type TestBook } from './personal-test-kit.ts';

describe.each(DIALECTS)('collections over HTTP (%s)', (dialect) => {
  let h: HttpHarness;
  let alice: string;
  let bob: string;
  let open: TestBook;
  const as = (cookie: string) => personalClient(h, cookie);

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    ({ alice, bob, open } = await personalData(h));
  });
  afterAll(async () => h.close());

  it('collects and uncollects a book, and lists collections 10 a page; nobody sees another’s', async () => {
    const a = as(alice);
    expect((await a.put(`/api/books/${open.bookId}/collect`)).json()).toEqual({ collected: true });
    expect((await a.put(`/api/books/${open.bookId}/collect`)).statusCode).toBe(200); // idempotent
    expect((await a.get(`/api/books/${open.bookId}/collect`)).json()).toEqual({ collected: true });
    expect((await as(bob).get(`/api/books/${open.bookId}/collect`)).json()).toEqual({ collected: false });
    const list = (await a.get('/api/me/collections')).json<{
      total: number;
      pageSize: number;
      records: Array<{ book: { catalogId: number } }>;
    }>();
    expect(list).toMatchObject({ total: 1, pageSize: 10 });
    expect(list.records[0]!.book.catalogId).toBe(open.bookId);
    expect((await as(bob).get('/api/me/collections')).json()).toMatchObject({ total: 0, records: [] });
    // Bob cancelling changes only his own (absent) row.
    await as(bob).del(`/api/books/${open.bookId}/collect`);
    expect((await a.get(`/api/books/${open.bookId}/collect`)).json()).toEqual({ collected: true });
    expect((await a.del(`/api/books/${open.bookId}/collect`)).json()).toEqual({ collected: false });
    expect((await h.request({ method: 'GET', url: '/api/me/collections' })).statusCode).toBe(401);
  });
});
