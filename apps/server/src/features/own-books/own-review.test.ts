import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { CLASS_UNKNOWN } from '../console/catalog-admin.service.ts';
import { pageImage } from '../../../test/catalog-factory.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import {
  createHttpHarness,
  createOwnVolume,
  GOOD_PASSWORD,
  multipartFile,
  postForm,
  type HttpHarness,
} from '../../../test/http.ts';
import { makeZip } from '../../../test/zip.ts';
import { makeReader } from '../../../test/factories.ts';

/**
 * Issue 13 re-probe: an owner who is also a reviewer cannot review their own book, and an owner cannot
 * delete a published book or one that other readers have collected, commented on or ordered prints of.
 */
describe.each(DIALECTS)('own books: no self-review, no deletion of a used book (%s)', (dialect) => {
  let h: HttpHarness;
  /** The owner, who also holds the reviewer role. */
  let owner: string;
  let reviewer: string;
  let reader: string;
  const BOOK = { actualVolume: 1, author: '佚名', publishDynasty: '清', editionType: '抄本' };

  const as = (cookie: string) => ({
    get: (url: string) => h.request({ method: 'GET', url, cookie }),
    del: (url: string) => h.request({ method: 'DELETE', url, cookie }),
    post: (url: string, body: unknown = {}) => h.request({ method: 'POST', url, body, cookie }),
    put: (url: string, body: unknown = {}) => h.request({ method: 'PUT', url, body, cookie }),
  });

  /** A book of the owner with one page, submitted for review. */
  async function submittedBook(title: string) {
    const a = as(owner);
    const { bookId, volumeId } = await createOwnVolume(h, owner, { ...BOOK, title });
    const form = multipartFile('file', 'p.zip', makeZip({ '1.png': await pageImage(1, 600, 400) }));
    const zip = await postForm(h, `/api/own/volumes/${volumeId}/zip`, owner, form);
    expect(zip.statusCode, zip.body).toBe(200);
    const [page] = (await a.get(`/api/own/volumes/${volumeId}/pages`)).json<Array<{ imageId: number }>>();
    expect((await a.post('/api/own/books/submit', { ids: [bookId] })).statusCode).toBe(200);
    return { bookId, pageId: page!.imageId };
  }
  const statusOf = async (bookId: number) =>
    (await as(owner).get(`/api/own/books/${bookId}`)).json<{ auditStatus: string }>().auditStatus;

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    await h.context.services.auth.upsertAccount({
      loginName: 'selfreviewer',
      password: GOOD_PASSWORD,
      roles: ['reader', 'reviewer'],
    });
    owner = (await h.login('selfreviewer', GOOD_PASSWORD)).cookie;
    await h.context.services.auth.upsertAccount({
      loginName: 'otherreviewer',
      password: GOOD_PASSWORD,
      roles: ['reader', 'reviewer'],
    });
    reviewer = (await h.login('otherreviewer', GOOD_PASSWORD)).cookie;
    reader = (await makeReader(h, 'bookfan')).cookie;
  });
  afterAll(async () => h.close());

  it('D: refuses a reviewer’s approve, refuse and withdraw of their own book (403), changing nothing', async () => {
    const { bookId } = await submittedBook('自審族譜');
    const selfReview = (response: { statusCode: number; json: () => unknown }) => {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'OWN_SELF_REVIEW', message: MSG.ownSelfReview });
    };
    const o = as(owner);
    selfReview(await o.post(`/api/admin/own-books/${bookId}/approve`));
    selfReview(await o.post(`/api/admin/own-books/${bookId}/refuse`, { reason: '自己拒絕' }));
    expect(await statusOf(bookId)).toBe('1');
    expect((await h.request({ method: 'GET', url: `/api/books/${bookId}` })).statusCode).toBe(404);
    // Another reviewer decides; the owner cannot withdraw it as a reviewer either.
    expect((await as(reviewer).post(`/api/admin/own-books/${bookId}/approve`)).statusCode).toBe(200);
    selfReview(await o.post(`/api/admin/own-books/${bookId}/withdraw`, { reason: '自己撤下' }));
    expect(await statusOf(bookId)).toBe('2');
    expect((await h.request({ method: 'GET', url: `/api/books/${bookId}` })).statusCode).toBe(200);
  });

  it('publishing gives the book the library’s call number and class; an unknown class publishes nothing', async () => {
    await h.context.repos.classifications.upsert({ code: 'PU', name: '譜牒', parentId: null, sort: 0 });
    const { bookId } = await submittedBook('編目族譜');
    const r = as(reviewer);
    const bad = await r.post(`/api/admin/own-books/${bookId}/approve`, {
      callNumber: '家譜-001',
      classCode: 'NOPE',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe(CLASS_UNKNOWN);
    expect(await statusOf(bookId)).toBe('1');
    const long = await r.post(`/api/admin/own-books/${bookId}/approve`, { callNumber: '號'.repeat(101) });
    expect(long.json<{ message: string }>().message).toBe('索书号不能超过 100 个字');
    const ok = await r.post(`/api/admin/own-books/${bookId}/approve`, {
      callNumber: ' 家譜-001 ',
      classCode: 'PU',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const book = (await h.request({ method: 'GET', url: `/api/books/${bookId}` })).json<{
      callNumber: string | null;
      classCode: string | null;
    }>();
    expect(book).toMatchObject({ callNumber: '家譜-001', classCode: 'PU' });
    const published = (await r.get('/api/admin/own-books?status=2')).json<
      Array<{ catalogId: number; callNumber: string }>
    >();
    expect(published.find((b) => b.catalogId === bookId)?.callNumber).toBe('家譜-001');
  });

  it('C: refuses to delete a published own book, and one readers have data on, keeping all of it', async () => {
    const { bookId, pageId } = await submittedBook('眾閱族譜');
    expect((await as(reviewer).post(`/api/admin/own-books/${bookId}/approve`)).statusCode).toBe(200);
    // Another reader collects it, comments on it and puts a page in the print basket.
    const r = as(reader);
    expect((await r.put(`/api/books/${bookId}/collect`)).statusCode).toBe(200);
    expect((await r.post(`/api/books/${bookId}/comments`, { text: '此本字跡清晰' })).statusCode).toBe(200);
    const item = await r.post('/api/print/items', { imageId: pageId });
    expect(item.statusCode, item.body).toBe(200);

    const o = as(owner);
    const published = await o.del(`/api/own/books/${bookId}`);
    expect(published.statusCode).toBe(409);
    expect(published.json()).toMatchObject({ code: 'OWN_PUBLISHED', message: MSG.ownPublishedUndeletable });
    expect((await h.request({ method: 'GET', url: `/api/books/${bookId}` })).statusCode).toBe(200);

    // Withdrawn from publication, it is still kept while readers have anything of theirs on it.
    expect((await o.post(`/api/own/books/${bookId}/unpublish`)).statusCode).toBe(200);
    const used = await o.del(`/api/own/books/${bookId}`);
    expect(used.statusCode).toBe(409);
    expect(used.json()).toMatchObject({ code: 'BOOK_IN_USE', message: MSG.ownBookHasReaderData });
    expect((await o.get(`/api/own/books/${bookId}`)).statusCode).toBe(200);
    const pages = await h.context.database.db
      .selectFrom('pages')
      .select('id')
      .where('book_id', '=', bookId)
      .execute();
    expect(pages.map((p) => p.id)).toEqual([pageId]);
    const items = await h.context.database.db
      .selectFrom('print_items')
      .select('id')
      .where('book_id', '=', bookId)
      .execute();
    expect(items).toHaveLength(1);
  });

  it('C: still deletes an own draft that nobody else has used', async () => {
    const o = as(owner);
    const draft = (await o.post('/api/own/books', { ...BOOK, title: '草稿族譜' })).json<{
      catalogId: number;
    }>();
    expect((await o.del(`/api/own/books/${draft.catalogId}`)).statusCode).toBe(200);
    expect((await o.get(`/api/own/books/${draft.catalogId}`)).statusCode).toBe(404);
  });
});
