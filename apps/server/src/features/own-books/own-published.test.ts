import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { createBook, ocrFor, pageImage } from '../../../test/catalog-factory.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import {
  createHttpHarness,
  createOwnVolume,
  GOOD_PASSWORD,
  multipartFile,
  multipartFiles,
  type HttpHarness,
} from '../../../test/http.ts';
import { makeZip } from '../../../test/zip.ts';
import { makeReader } from '../../../test/factories.ts';

/**
 * Issue 13 item 4: a published own book is frozen for its owner (every change would be public at
 * once, unreviewed) until the owner withdraws it; every edit of a visible book keeps the title search
 * and the full-text index in step.
 */
describe.each(DIALECTS)('published own books are frozen for their owner (%s)', (dialect) => {
  let h: HttpHarness;
  let owner: string;
  let reviewer: string;
  let staff: string;
  const BOOK = {
    title: '李氏族譜',
    actualVolume: 1,
    author: '佚名',
    publishDynasty: '清',
    editionType: '抄本',
  };

  const as = (cookie: string | undefined) => ({
    get: (url: string) => h.request({ method: 'GET', url, ...(cookie ? { cookie } : {}) }),
    del: (url: string) => h.request({ method: 'DELETE', url, ...(cookie ? { cookie } : {}) }),
    post: (url: string, body: unknown = {}) =>
      h.request({ method: 'POST', url, body, ...(cookie ? { cookie } : {}) }),
    put: (url: string, body: unknown) =>
      h.request({ method: 'PUT', url, body, ...(cookie ? { cookie } : {}) }),
    patch: (url: string, body: unknown) =>
      h.request({ method: 'PATCH', url, body, ...(cookie ? { cookie } : {}) }),
    upload: (url: string, files: Array<[string, Buffer]>) => {
      const form =
        files.length === 1
          ? multipartFile('file', files[0]![0], files[0]![1])
          : multipartFiles('file', files);
      return h.request({
        method: 'POST',
        url,
        ...(cookie ? { cookie } : {}),
        headers: { 'content-type': form.contentType },
        payload: form.payload,
      });
    },
  });
  const titleSearch = async (title: string) =>
    (await h.request({ method: 'GET', url: `/api/books?title=${encodeURIComponent(title)}` }))
      .json<{ records: Array<{ catalogId: number }> }>()
      .records.map((r) => r.catalogId);
  const fullTextSearch = async (text: string) =>
    (await as(staff).get(`/api/search/full-text?text=${encodeURIComponent(text)}`))
      .json<{ records: Array<{ catalogId: number }> }>()
      .records.map((r) => r.catalogId);

  /** A book of the owner with one volume of one page, submitted and approved. */
  async function publishedBook(title: string) {
    const a = as(owner);
    const { bookId, volumeId } = await createOwnVolume(h, owner, { ...BOOK, title });
    const zip = await a.upload(`/api/own/volumes/${volumeId}/zip`, [
      ['p.zip', makeZip({ '1.png': await pageImage(1, 600, 400) })],
    ]);
    expect(zip.statusCode).toBe(200);
    const [page] = (await a.get(`/api/own/volumes/${volumeId}/pages`)).json<Array<{ imageId: number }>>();
    // Its text as recognised before review.
    await h.context.services.ocr.saveVersion(page!.imageId, ocrFor('宗祠碑記', 600, 400), 'original', null);
    expect((await a.post('/api/own/books/submit', { ids: [bookId] })).statusCode).toBe(200);
    expect((await as(reviewer).post(`/api/admin/own-books/${bookId}/approve`)).statusCode).toBe(200);
    return { bookId, volumeId, pageId: page!.imageId };
  }

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    owner = (await makeReader(h, 'frozenowner')).cookie;
    await h.context.services.auth.upsertAccount({
      loginName: 'frozenreviewer',
      password: GOOD_PASSWORD,
      roles: ['reader', 'reviewer'],
    });
    reviewer = (await h.login('frozenreviewer', GOOD_PASSWORD)).cookie;
    await h.context.services.auth.upsertAccount({
      loginName: 'frozenstaff',
      password: GOOD_PASSWORD,
      roles: ['reader', 'catalogAdmin'],
    });
    staff = (await h.login('frozenstaff', GOOD_PASSWORD)).cookie;
  });
  afterAll(async () => h.close());

  it('refuses every change by the owner after approval, with a clear message, and changes nothing', async () => {
    const { bookId, volumeId, pageId } = await publishedBook('李氏族譜');
    const a = as(owner);
    const refused = (response: { statusCode: number; json: () => unknown }) => {
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ message: MSG.ownPublishedLocked });
    };

    refused(await a.put(`/api/own/books/${bookId}`, { ...BOOK, title: '偷改的書名' }));
    expect((await a.get(`/api/own/books/${bookId}`)).json()).toMatchObject({
      title: '李氏族譜',
      auditStatus: '2',
    });
    expect(await titleSearch('偷改')).toEqual([]);
    expect(await titleSearch('李氏族谱')).toContain(bookId);

    refused(
      await a.upload(`/api/own/volumes/${volumeId}/zip`, [
        ['p.zip', makeZip({ '2.png': await pageImage(2) })],
      ]),
    );
    refused(await a.upload(`/api/own/volumes/${volumeId}/images`, [['2.png', await pageImage(2)]]));
    refused(await a.post(`/api/own/books/${bookId}/volumes`, { name: '卷二' }));
    refused(await a.put(`/api/own/volumes/${volumeId}`, { name: '改名' }));
    refused(await a.del(`/api/own/volumes/${volumeId}`));
    refused(await a.put(`/api/own/pages/${pageId}`, { imageName: '改名' }));
    refused(await a.del(`/api/own/pages/${pageId}`));
    refused(await a.post(`/api/own/volumes/${volumeId}/order`, { imageIds: [pageId] }));
    refused(
      await a.put(`/api/own/volumes/${volumeId}/directory`, {
        entries: [{ name: '序', imageId: pageId, children: [] }],
      }),
    );
    refused(await a.put(`/api/pages/${pageId}/ocr`, { ocr: ocrFor('偷改正文', 600, 400) }));
    refused(await a.post(`/api/pages/${pageId}/ocr/versions/1/restore`));
    refused(await a.post('/api/ocr/run', { scope: 'book', id: bookId }));

    const volumes = (await a.get(`/api/own/books/${bookId}/volumes`)).json<
      Array<{ name: string; imageCount: number }>
    >();
    expect(volumes).toMatchObject([{ name: '卷一', imageCount: 1 }]);
    expect((await a.get(`/api/own/volumes/${volumeId}/pages`)).json()).toMatchObject([
      { imageId: pageId, name: '1' },
    ]);
    expect(await fullTextSearch('偷改')).toEqual([]);
    expect(await fullTextSearch('宗祠碑記')).toContain(bookId);
    // The text history can still be read.
    expect((await a.get(`/api/pages/${pageId}/ocr/versions`)).statusCode).toBe(200);
  });

  it('after the owner withdraws it: out of the catalogue and both indexes at once, editable, and back through review', async () => {
    const { bookId, pageId } = await publishedBook('張氏家乘');
    const a = as(owner);
    expect((await as(undefined).post(`/api/own/books/${bookId}/unpublish`)).statusCode).toBe(401);
    const other = (await makeReader(h, 'frozenother')).cookie;
    expect((await as(other).post(`/api/own/books/${bookId}/unpublish`)).statusCode).toBe(404);

    expect((await a.post(`/api/own/books/${bookId}/unpublish`)).json()).toMatchObject({
      message: MSG.ownUnpublished,
    });
    expect((await a.get(`/api/own/books/${bookId}`)).json()).toMatchObject({ auditStatus: '0' });
    expect((await h.request({ method: 'GET', url: `/api/books/${bookId}` })).statusCode).toBe(404);
    expect(await titleSearch('張氏家乘')).not.toContain(bookId);
    expect(await fullTextSearch('宗祠碑記')).not.toContain(bookId);
    // A draft cannot be withdrawn again.
    expect((await a.post(`/api/own/books/${bookId}/unpublish`)).json()).toMatchObject({
      message: MSG.ownNotUnpublishable,
    });

    expect((await a.put(`/api/own/books/${bookId}`, { ...BOOK, title: '張氏家乘續編' })).statusCode).toBe(
      200,
    );
    expect((await a.put(`/api/pages/${pageId}/ocr`, { ocr: ocrFor('續修序文', 600, 400) })).statusCode).toBe(
      200,
    );
    // Nothing of it is public before review.
    expect(await titleSearch('續編')).toEqual([]);
    expect(await fullTextSearch('續修序文')).toEqual([]);

    await a.post('/api/own/books/submit', { ids: [bookId] });
    await as(reviewer).post(`/api/admin/own-books/${bookId}/approve`);
    // The new title is found by title search (books.title_search followed the edit) and the new text by full text.
    expect(await titleSearch('张氏家乘续编')).toContain(bookId);
    expect(await fullTextSearch('續修序文')).toContain(bookId);
    expect(await fullTextSearch('宗祠碑記')).not.toContain(bookId);
  });

  it('catalogue staff editing a library book keep the title search and the full-text index in step at once', async () => {
    const { bookId, pageIds } = await createBook(h.context, {
      title: '舊題名',
      texts: [['舊文字']],
      volumes: [1],
    });
    expect(await titleSearch('舊題名')).toContain(bookId);
    expect((await as(staff).patch(`/api/books/${bookId}`, { title: '新題名甲' })).statusCode).toBe(200);
    expect(await titleSearch('新题名甲')).toContain(bookId);
    expect(await titleSearch('舊題名')).not.toContain(bookId);

    expect(
      (await as(staff).put(`/api/pages/${pageIds[0]}/ocr`, { ocr: ocrFor('校訂文字', 600, 400) })).statusCode,
    ).toBe(200);
    expect(await fullTextSearch('校訂文字')).toContain(bookId);
    expect(await fullTextSearch('舊文字')).not.toContain(bookId);
    // Library books are not frozen for staff: the volume screens still work.
    expect((await as(staff).put(`/api/own/pages/${pageIds[0]}`, { imageName: '首葉' })).statusCode).toBe(200);
  });
});
