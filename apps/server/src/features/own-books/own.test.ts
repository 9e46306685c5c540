import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { pageImage } from '../../../test/catalog-factory.ts';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { makeZip } from '../../../test/zip.ts';
import { BOOK, ownClient, ownUsers } from './own-test-kit.ts';
import { makeReader } from '../../../test/factories.ts';

describe.each(DIALECTS)('own books over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  let alice: string;
  let bob: string;
  let reviewer: string;
  const as = (cookie: string) => ownClient(h, cookie);

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    ({ alice, bob, reviewer } = await ownUsers(h));
  });
  afterAll(async () => h.close());

  it('adds books with the required fields of spec §5, pages 5 then 6, and keeps them from other users', async () => {
    // Two readers of this test's own: the counts below are theirs alone.
    const a = as((await makeReader(h, 'owncarol')).cookie);
    const message = async (body: unknown) =>
      (await a.post('/api/own/books', body)).json<{ message: string }>().message;
    expect(await message({ ...BOOK, title: ' ' })).toBe(MSG.ownTitleRequired);
    expect(await message({ ...BOOK, actualVolume: undefined })).toBe(MSG.ownVolumeCountRequired);
    expect(await message({ ...BOOK, author: '' })).toBe(MSG.ownAuthorRequired);
    expect(await message({ ...BOOK, publishDynasty: '' })).toBe(MSG.ownDynastyRequired);
    expect(await message({ ...BOOK, editionType: '' })).toBe(MSG.ownEditionTypeRequired);
    for (let i = 0; i < 7; i++)
      expect((await a.post('/api/own/books', { ...BOOK, title: `家譜${i}` })).statusCode).toBe(200);
    expect((await a.get('/api/own/books')).json()).toMatchObject({ pageSize: 5, total: 7, pages: 2 });
    expect((await a.get('/api/own/books?pageNum=2')).json<{ records: unknown[] }>().records).toHaveLength(2);
    const first = (await a.get('/api/own/books')).json<{
      records: Array<{ catalogId: number; auditStatus: string }>;
    }>().records[0]!;
    expect(first.auditStatus).toBe('0');

    const b = as((await makeReader(h, 'owndave')).cookie);
    expect((await b.get('/api/own/books')).json()).toMatchObject({ total: 0 });
    expect((await b.get(`/api/own/books/${first.catalogId}`)).statusCode).toBe(404);
    expect((await b.put(`/api/own/books/${first.catalogId}`, BOOK)).statusCode).toBe(404);
    expect((await b.del(`/api/own/books/${first.catalogId}`)).statusCode).toBe(404);
    expect((await b.post(`/api/own/books/${first.catalogId}/volumes`, { name: '卷一' })).statusCode).toBe(
      404,
    );
    expect((await b.post('/api/own/books/submit', { ids: [first.catalogId] })).statusCode).toBe(404);
    // Not in the catalogue before review.
    expect((await h.request({ method: 'GET', url: `/api/books/${first.catalogId}` })).statusCode).toBe(404);
    expect((await a.del(`/api/own/books/${first.catalogId}`)).statusCode).toBe(200);
  });

  it('submit, refuse with a reason, resubmit, approve: public and searchable; staff can withdraw it', async () => {
    const a = as(alice);
    const book = (await a.post('/api/own/books', { ...BOOK, title: '王氏宗譜' })).json<{
      catalogId: number;
    }>();
    // Nothing to review without pages.
    expect((await a.post('/api/own/books/submit', { ids: [book.catalogId] })).json()).toMatchObject({
      message: MSG.ownNotSubmittable,
    });
    await a.post(`/api/own/books/${book.catalogId}/volumes`, { name: '卷一' });
    const [volume] = (await a.get(`/api/own/books/${book.catalogId}/volumes`)).json<
      Array<{ fascicleId: number }>
    >();
    await a.upload(
      `/api/own/volumes/${volume!.fascicleId}/zip`,
      'p.zip',
      makeZip({ '1.png': await pageImage(3) }),
    );
    expect((await a.post('/api/own/books/submit', { ids: [book.catalogId] })).json()).toMatchObject({
      message: MSG.ownSubmitted,
    });
    // Under review, the owner cannot change it.
    expect((await a.put(`/api/own/books/${book.catalogId}`, BOOK)).json()).toMatchObject({
      message: MSG.ownLocked,
    });

    expect((await a.get('/api/admin/own-books')).statusCode).toBe(403);
    expect((await a.post(`/api/admin/own-books/${book.catalogId}/approve`)).statusCode).toBe(403);
    const queue = (await as(reviewer).get('/api/admin/own-books')).json<
      Array<{ catalogId: number; owner: string }>
    >();
    expect(queue.find((b) => b.catalogId === book.catalogId)).toMatchObject({ owner: 'ownalice' });
    // The reviewer opens it in the reader; another reader may not.
    expect((await as(reviewer).get(`/api/reader?catalogId=${book.catalogId}`)).statusCode).toBe(200);
    expect((await as(bob).get(`/api/reader?catalogId=${book.catalogId}`)).statusCode).toBe(404);
    expect(
      (await as(reviewer).post(`/api/admin/own-books/${book.catalogId}/refuse`, { reason: '' })).json(),
    ).toMatchObject({ message: MSG.refuseReasonRequired });
    await as(reviewer).post(`/api/admin/own-books/${book.catalogId}/refuse`, { reason: '缺少版權說明' });
    expect((await a.get(`/api/own/books/${book.catalogId}`)).json()).toMatchObject({
      auditStatus: '3',
      refuseReason: '缺少版權說明',
    });

    await a.put(`/api/own/books/${book.catalogId}`, { ...BOOK, title: '王氏宗譜（附版權說明）' });
    await a.post('/api/own/books/submit', { ids: [book.catalogId] });
    expect((await as(reviewer).post(`/api/admin/own-books/${book.catalogId}/approve`)).json()).toMatchObject({
      message: MSG.ownPublished,
    });
    expect((await a.get(`/api/own/books/${book.catalogId}`)).json()).toMatchObject({
      auditStatus: '2',
      refuseReason: null,
    });
    const search = (
      await h.request({ method: 'GET', url: `/api/books?title=${encodeURIComponent('王氏宗谱')}` })
    ).json<{ records: Array<{ catalogId: number }> }>();
    expect(search.records.map((r) => r.catalogId)).toContain(book.catalogId);
    expect((await h.request({ method: 'GET', url: `/api/books/${book.catalogId}` })).statusCode).toBe(200);

    await as(reviewer).post(`/api/admin/own-books/${book.catalogId}/withdraw`, {
      reason: '讀者投訴，暫停公開',
    });
    expect((await h.request({ method: 'GET', url: `/api/books/${book.catalogId}` })).statusCode).toBe(404);
    expect((await a.get(`/api/own/books/${book.catalogId}`)).json()).toMatchObject({
      auditStatus: '3',
      refuseReason: '讀者投訴，暫停公開',
    });
  });
});
