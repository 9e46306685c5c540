import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { makeReader } from '../../../test/factories.ts';

describe.each(DIALECTS)('administration console: changes and their audit records on %s', (dialect) => {
  let h: HttpHarness;
  let admin: string;
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    await h.context.services.auth.upsertAccount({
      loginName: 'consoleadmin',
      password: GOOD_PASSWORD,
      roles: ['reader', 'admin'],
    });
    admin = (await h.login('consoleadmin', GOOD_PASSWORD)).cookie;
  });
  afterAll(async () => h.close());
  const get = (url: string, cookie: string) => h.request({ method: 'GET', url, cookie });
  const post = (url: string, cookie: string) => h.request({ method: 'POST', url, cookie, body: {} });

  it('a change and its audit record are one transaction: when the record cannot be written, nothing changed', async () => {
    // The audit log fails once, after the change was made in the transaction.
    const breakAuditOnce = () =>
      vi.spyOn(h.context.services.admin, 'record').mockRejectedValueOnce(new Error('audit log unavailable'));
    const audited = async (action: string) =>
      (await get(`/api/admin/audit?action=${action}`, admin)).json<{ total: number }>().total;
    try {
      const made = await makeReader(h, 'auditfail');
      const user = (await h.context.repos.users.findByLoginName(made.loginName))!;
      const roles = { before: await audited('user.roles') };
      breakAuditOnce();
      const refused = await h.request({
        method: 'PUT',
        url: `/api/admin/users/${user.id}/roles`,
        cookie: admin,
        body: { roles: ['reader', 'printAdmin'] },
      });
      expect(refused.statusCode).toBe(500);
      expect((await h.context.repos.users.findById(user.id))!.roles).toEqual(['reader']);
      expect(await audited('user.roles')).toBe(roles.before);

      breakAuditOnce();
      const disabled = await h.request({
        method: 'POST',
        url: `/api/admin/users/${user.id}/disable`,
        cookie: admin,
        body: { disabled: true },
      });
      expect(disabled.statusCode).toBe(500);
      expect((await h.context.repos.users.findById(user.id))!.disabled).toBe(0);

      const failed = await h.context.queue.enqueue('ocr.page', { pageId: 1 }, { tx: h.context.database.db });
      await h.context.database.db
        .updateTable('jobs')
        .set({ status: 'failed' })
        .where('id', '=', failed)
        .execute();
      breakAuditOnce();
      expect((await post(`/api/admin/jobs/${failed}/retry`, admin)).statusCode).toBe(500);
      expect(await h.context.repos.jobs.findById(failed)).toMatchObject({ status: 'failed' });

      const books = { before: await audited('book.create') };
      breakAuditOnce();
      const created = await h.request({
        method: 'POST',
        url: '/api/admin/books',
        cookie: admin,
        body: { title: '未記錄之書' },
      });
      expect(created.statusCode).toBe(500);
      expect(
        (
          await h.context.repos.catalog.searchBooks({
            title: '未記錄之書',
            visibleOnly: false,
            offset: 0,
            limit: 10,
          })
        ).total,
      ).toBe(0);
      expect(await audited('book.create')).toBe(books.before);

      // With the audit log working again, the same change is made and recorded once.
      const kept = await h.request({
        method: 'POST',
        url: '/api/admin/books',
        cookie: admin,
        body: { title: '未記錄之書' },
      });
      expect(kept.statusCode).toBe(200);
      expect(await audited('book.create')).toBe(books.before + 1);
      const bookId = kept.json<{ catalogId: number }>().catalogId;
      breakAuditOnce();
      expect(
        (await h.request({ method: 'DELETE', url: `/api/admin/books/${bookId}`, cookie: admin })).statusCode,
      ).toBe(500);
      expect(await h.context.repos.catalog.findBook(bookId)).toBeDefined();
    } finally {
      vi.restoreAllMocks();
    }
  });
});
