import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { personalClient, personalData, type TestBook } from './personal-test-kit.ts';

describe.each(DIALECTS)('footprints over HTTP (%s)', (dialect) => {
  let h: HttpHarness;
  let alice: string;
  let bob: string;
  let open: TestBook;
  let closed: TestBook;
  const as = (cookie: string) => personalClient(h, cookie);

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    ({ alice, bob, open, closed } = await personalData(h));
  });
  afterAll(async () => h.close());

  it('footprints: one row per book with the last page, removable one by one or all, per user', async () => {
    const a = as(alice);
    expect((await a.get(`/api/reader?catalogId=${open.bookId}`)).statusCode).toBe(200);
    await a.post('/api/me/footprints', { imageId: open.pageIds[1] });
    expect((await a.post('/api/me/footprints', { imageId: closed.pageIds[0] })).statusCode).toBe(403);
    const list = (await a.get('/api/me/footprints')).json<{
      total: number;
      records: Array<{ book: { catalogId: number }; pageNumber: number }>;
    }>();
    expect(list.total).toBe(1);
    expect(list.records[0]).toMatchObject({ book: { catalogId: open.bookId }, pageNumber: 2 });
    expect((await as(bob).get('/api/me/footprints')).json<{ total: number }>().total).toBe(0);
    await as(bob).del(`/api/me/footprints/${open.bookId}`);
    expect((await a.get('/api/me/footprints')).json<{ total: number }>().total).toBe(1);
    await a.del(`/api/me/footprints/${open.bookId}`);
    expect((await a.get('/api/me/footprints')).json<{ total: number }>().total).toBe(0);
  });
});
