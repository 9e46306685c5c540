import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBook, pageImage } from '../../../test/catalog-factory.ts';
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
import { BOOK, ownClient, ownUsers } from './own-test-kit.ts';

/**
 * Reviewers' decisions on own books and catalogue staff's edits of the library's volumes and pages
 * are each one transaction with their audit record: when the record cannot be written, nothing
 * changed. Owners' edits of their own books are not audited.
 */
describe.each(DIALECTS)('own books: decisions and staff edits with their audit records (%s)', (dialect) => {
  let h: HttpHarness;
  let alice: string;
  let reviewer: string;
  let staff: string;
  const audited = async (action: string) =>
    (await h.context.repos.audit.page({ action, offset: 0, limit: 50 })).rows.map((r) => r.target);
  const breakAuditLog = () =>
    vi.spyOn(h.context.services.admin, 'record').mockRejectedValue(new Error('audit log unavailable'));

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    ({ alice, reviewer } = await ownUsers(h));
    await h.context.services.auth.upsertAccount({
      loginName: 'ownauditstaff',
      password: GOOD_PASSWORD,
      roles: ['reader', 'catalogAdmin'],
    });
    staff = (await h.login('ownauditstaff', GOOD_PASSWORD)).cookie;
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => h.close());

  it('a review decision whose audit record fails is not made', async () => {
    const { bookId, volumeId } = await createOwnVolume(h, alice, { ...BOOK, title: '待審家譜' });
    const form = multipartFile('file', 'p.zip', makeZip({ '1.png': await pageImage(1, 600, 400) }));
    expect((await postForm(h, `/api/own/volumes/${volumeId}/zip`, alice, form)).statusCode).toBe(200);
    expect((await ownClient(h, alice).post('/api/own/books/submit', { ids: [bookId] })).statusCode).toBe(200);
    const r = ownClient(h, reviewer);
    const statusOf = async () =>
      (await ownClient(h, alice).get(`/api/own/books/${bookId}`)).json<{ auditStatus: string }>().auditStatus;

    breakAuditLog();
    expect((await r.post(`/api/admin/own-books/${bookId}/approve`)).statusCode).toBe(500);
    expect((await r.post(`/api/admin/own-books/${bookId}/refuse`, { reason: '缺頁' })).statusCode).toBe(500);
    vi.restoreAllMocks();
    expect(await statusOf()).toBe('1');
    expect(await audited('ownbook.approve')).toEqual([]);
    expect(await audited('ownbook.refuse')).toEqual([]);

    expect((await r.post(`/api/admin/own-books/${bookId}/approve`)).statusCode).toBe(200);
    expect(await statusOf()).toBe('2');
    expect(await audited('ownbook.approve')).toEqual([`book:${bookId}`]);

    breakAuditLog();
    expect((await r.post(`/api/admin/own-books/${bookId}/withdraw`, { reason: '版權' })).statusCode).toBe(
      500,
    );
    vi.restoreAllMocks();
    expect(await statusOf()).toBe('2');
    expect(await audited('ownbook.withdraw')).toEqual([]);
  });

  it("a staff edit whose audit record fails is not made; an owner's own edit is not audited", async () => {
    const library = await createBook(h.context, { volumes: [2] });
    const [volumeId] = library.volumeIds;
    const s = ownClient(h, staff);
    const volumes = async () => (await s.get(`/api/own/books/${library.bookId}/volumes`)).json<unknown>();
    const pages = async () => (await s.get(`/api/own/volumes/${volumeId}/pages`)).json<unknown>();
    const directory = async () =>
      (await h.request({ method: 'GET', url: `/api/volumes/${volumeId}/directory` })).json<unknown>();
    const before = { volumes: await volumes(), pages: await pages(), directory: await directory() };
    const [first, second] = library.pageIds;

    const spy = breakAuditLog();
    const edits = {
      'volume.create': () => s.post(`/api/own/books/${library.bookId}/volumes`, { name: '卷外' }),
      'volume.update': () => s.put(`/api/own/volumes/${volumeId}`, { name: '改名卷' }),
      'pages.order': () => s.post(`/api/own/volumes/${volumeId}/order`, { imageIds: [second, first] }),
      'page.rename': () => s.put(`/api/own/pages/${first}`, { imageName: '改名葉' }),
      'directory.save': () => s.put(`/api/own/volumes/${volumeId}/directory`, { entries: [] }),
      'page.delete': () => s.del(`/api/own/pages/${first}`),
      'volume.delete': () => s.del(`/api/own/volumes/${volumeId}`),
    };
    for (const [action, edit] of Object.entries(edits)) expect((await edit()).statusCode, action).toBe(500);
    expect(spy).toHaveBeenCalledTimes(7);
    // An owner's edit writes no record, so a broken audit log does not stop it.
    const own = await createOwnVolume(h, alice, { ...BOOK, title: '自家草稿' });
    expect(
      (await ownClient(h, alice).put(`/api/own/volumes/${own.volumeId}`, { name: '卷首' })).statusCode,
    ).toBe(200);
    expect(spy).toHaveBeenCalledTimes(7);
    vi.restoreAllMocks();

    expect({ volumes: await volumes(), pages: await pages(), directory: await directory() }).toEqual(before);
    expect((await s.put(`/api/own/pages/${first}`, { imageName: '改名葉' })).statusCode).toBe(200);
    expect(await audited('page.rename')).toEqual([`page:${first}`]);
    for (const action of [
      'volume.create',
      'volume.update',
      'volume.delete',
      'pages.order',
      'page.delete',
      'directory.save',
    ])
      expect(await audited(action), action).toEqual([]);
  });

  it('a staff upload whose audit record fails adds no page', async () => {
    const library = await createBook(h.context, { volumes: [1] });
    const [volumeId] = library.volumeIds;
    const pages = async () =>
      (await ownClient(h, staff).get(`/api/own/volumes/${volumeId}/pages`)).json<unknown[]>();
    const zip = async () =>
      multipartFile('file', 'more.zip', makeZip({ '2.png': await pageImage(2, 600, 400) }));

    breakAuditLog();
    expect((await postForm(h, `/api/own/volumes/${volumeId}/zip`, staff, await zip())).statusCode).toBe(500);
    vi.restoreAllMocks();
    expect(await pages()).toHaveLength(1);
    expect(await audited('pages.upload')).toEqual([]);

    expect((await postForm(h, `/api/own/volumes/${volumeId}/zip`, staff, await zip())).statusCode).toBe(200);
    expect(await pages()).toHaveLength(2);
    expect(await audited('pages.upload')).toEqual([`volume:${volumeId}`]);
  });
});
