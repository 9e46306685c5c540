import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBook } from '../../../test/catalog-factory.ts';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { makeReader } from '../../../test/factories.ts';

describe.each(DIALECTS)('administration console over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  let admin: string;
  let reader: string;
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    await h.context.services.auth.upsertAccount({
      loginName: 'consoleadmin',
      password: GOOD_PASSWORD,
      roles: ['reader', 'admin'],
    });
    admin = (await h.login('consoleadmin', GOOD_PASSWORD)).cookie;
    reader = (await makeReader(h, 'consolereader')).cookie;
  });
  afterAll(async () => h.close());
  const get = (url: string, cookie: string) => h.request({ method: 'GET', url, cookie });
  const post = (url: string, cookie: string) => h.request({ method: 'POST', url, cookie, body: {} });

  it('job monitor: lists by status, retries a failed job, cancels a queued one; staff only', async () => {
    const jobs = h.context.repos.jobs;
    const before = (await get('/api/admin/jobs/stats', admin)).json<{ counts: Record<string, number> }>()
      .counts;
    const failed = await h.context.queue.enqueue('ocr.page', { pageId: 1 }, { tx: h.context.database.db });
    await h.context.database.db
      .updateTable('jobs')
      .set({ status: 'failed', attempts: 3, last_error: '图像已损坏' })
      .where('id', '=', failed)
      .execute();
    const queued = await h.context.queue.enqueue(
      'images.pyramid',
      { pageId: 2 },
      { tx: h.context.database.db },
    );

    expect((await get('/api/admin/jobs', reader)).statusCode).toBe(403);
    expect((await post(`/api/admin/jobs/${failed}/retry`, reader)).statusCode).toBe(403);
    const list = (await get('/api/admin/jobs?status=failed', admin)).json<{
      records: Array<{ id: number; lastError: string }>;
    }>();
    expect(list.records).toContainEqual(expect.objectContaining({ id: failed, lastError: '图像已损坏' }));
    expect((await get('/api/admin/jobs/stats', admin)).json()).toMatchObject({
      counts: { failed: (before.failed ?? 0) + 1, queued: (before.queued ?? 0) + 1 },
    });

    expect((await post(`/api/admin/jobs/${queued}/retry`, admin)).statusCode).toBe(409);
    expect((await post(`/api/admin/jobs/${failed}/retry`, admin)).statusCode).toBe(200);
    expect(await jobs.findById(failed)).toMatchObject({ status: 'queued', attempts: 0 });
    expect((await post(`/api/admin/jobs/${queued}/cancel`, admin)).statusCode).toBe(200);
    expect(await jobs.findById(queued)).toMatchObject({ status: 'failed', last_error: '已由管理员取消' });
    expect((await post('/api/admin/jobs/99999/cancel', admin)).statusCode).toBe(404);
    // Both changes are in the audit log.
    const audited = async (action: string) =>
      (await get(`/api/admin/audit?action=${action}`, admin))
        .json<{ records: Array<{ target: string }> }>()
        .records.map((r) => r.target);
    expect(await audited('job.retry')).toContain(`job:${failed}`);
    expect(await audited('job.cancel')).toContain(`job:${queued}`);
  });

  it('audit log: who changed what, with the values before and after; filterable; staff only', async () => {
    await h.request({
      method: 'PUT',
      url: '/api/admin/site',
      cookie: admin,
      body: { copyright: '版权所有 © 某某图书馆' },
    });
    await h.request({
      method: 'PUT',
      url: '/api/admin/reservation-durations/ANB0402',
      cookie: admin,
      body: { label: '十日', days: 10 },
    });
    expect((await get('/api/admin/audit', reader)).statusCode).toBe(403);
    const all = (await get('/api/admin/audit', admin)).json<{
      total: number;
      records: Array<{ action: string; actor: string; before: unknown; after: unknown }>;
    }>();
    expect(all.records.map((r) => r.action)).toEqual(
      expect.arrayContaining(['site.update', 'duration.update']),
    );
    const site = (await get('/api/admin/audit?action=site.update', admin)).json<{
      records: Array<{ actor: string; before: unknown; after: unknown }>;
    }>();
    expect(site.records).toEqual([
      expect.objectContaining({
        actor: 'consoleadmin',
        before: { copyright: '版权所有 © 古籍数字图书馆' },
        after: { copyright: '版权所有 © 某某图书馆' },
      }),
    ]);
    expect((await get('/api/admin/audit?actor=nobody', admin)).json()).toMatchObject({ total: 0 });
  });

  it('users: search, roles, disable (sessions end), reset password; not on oneself; staff only', async () => {
    // A reader of this test's own: it is disabled and its password reset here.
    const { cookie: target, loginName: targetLogin } = await makeReader(h, 'consoletarget');
    const found = (await get('/api/admin/users?q=consoletarget', admin)).json<{
      records: Array<{ id: number; roles: string[]; disabled: boolean }>;
    }>();
    expect(found.records).toHaveLength(1);
    const id = found.records[0]!.id;
    expect(found.records[0]).toMatchObject({ roles: ['reader'], disabled: false });
    expect((await get('/api/admin/users', reader)).statusCode).toBe(403);

    const put = (url: string, body: unknown, cookie = admin) =>
      h.request({ method: 'PUT', url, cookie, body });
    const postBody = (url: string, body: unknown, cookie = admin) =>
      h.request({ method: 'POST', url, cookie, body });
    expect((await put(`/api/admin/users/${id}/roles`, { roles: ['reader', 'printAdmin'] })).statusCode).toBe(
      200,
    );
    expect(
      (await h.request({ method: 'GET', url: '/api/me', cookie: target }))
        .json<{ roles: string[] }>()
        .roles.sort(),
    ).toEqual(['printAdmin', 'reader']);
    const me = (await get('/api/me', admin)).json<{ userId: number }>();
    expect((await put(`/api/admin/users/${me.userId}/roles`, { roles: ['reader'] })).json()).toMatchObject({
      message: '不能取消自己的管理员角色',
    });

    expect((await postBody(`/api/admin/users/${id}/disable`, { disabled: true })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: '/api/me', cookie: target })).statusCode).toBe(401);
    // A disabled account is not confirmed, even to its right password (issue 13 item 12).
    expect((await h.login(targetLogin, GOOD_PASSWORD)).response.json()).toMatchObject({
      code: 'BAD_CREDENTIALS',
    });
    await postBody(`/api/admin/users/${id}/disable`, { disabled: false });

    const reset = (await postBody(`/api/admin/users/${id}/reset-password`, {})).json<{ password: string }>();
    expect(reset.password).toMatch(/^[A-Za-z]{6}\d{4}#[A-Za-z]$/);
    expect((await h.login(targetLogin, GOOD_PASSWORD)).response.statusCode).toBe(401);
    expect((await h.login(targetLogin, reset.password)).response.statusCode).toBe(200);
    const audit = (await get('/api/admin/audit?action=user.roles', admin)).json<{
      records: Array<{ before: unknown; after: unknown }>;
    }>();
    expect(audit.records[0]).toMatchObject({ before: ['reader'] });
  });

  it('classification dictionary: add under a parent with a matching code, rename, delete only when unused', async () => {
    // The reader of the tests above had their password reset: another reader tries.
    await h.context.services.auth.upsertAccount({
      loginName: 'consolereader2',
      password: GOOD_PASSWORD,
      roles: ['reader'],
    });
    const reader = (await h.login('consolereader2', GOOD_PASSWORD)).cookie;
    const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, cookie = admin) =>
      h.request({ method, url, cookie, ...(body === undefined ? {} : { body }) });
    expect(
      (
        await send(
          'POST',
          '/api/admin/classifications',
          { parentId: null, code: 'TESTCLS', name: '測試部' },
          reader,
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (await send('POST', '/api/admin/classifications', { parentId: null, code: 'bad code', name: '甲' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await send('POST', '/api/admin/classifications', { parentId: null, code: 'TESTCLS', name: '測試部' }))
        .statusCode,
    ).toBe(200);
    const tree = async () =>
      (await get('/api/classifications', admin)).json<
        Array<{
          dictionaryId: number;
          dictionaryValue: string;
          dictionaryName: string;
          children: Array<{ dictionaryId: number; dictionaryValue: string; dictionaryName: string }>;
        }>
      >();
    const top = (await tree()).find((c) => c.dictionaryValue === 'TESTCLS')!;
    expect(
      (
        await send('POST', '/api/admin/classifications', {
          parentId: top.dictionaryId,
          code: 'OTHER.A',
          name: '乙',
        })
      ).json(),
    ).toMatchObject({
      message: '分类代码须为“TESTCLS.”加一级，如 TESTCLS.NEW',
    });
    expect(
      (
        await send('POST', '/api/admin/classifications', {
          parentId: top.dictionaryId,
          code: 'TESTCLS.A',
          name: '甲類',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await send('POST', '/api/admin/classifications', {
          parentId: top.dictionaryId,
          code: 'TESTCLS.A',
          name: '重複',
        })
      ).json(),
    ).toMatchObject({ message: '分类代码已存在' });
    const child = (await tree()).find((c) => c.dictionaryValue === 'TESTCLS')!.children[0]!;
    expect(
      (await send('PUT', `/api/admin/classifications/${child.dictionaryId}`, { name: '甲類（改）' }))
        .statusCode,
    ).toBe(200);
    expect((await tree()).find((c) => c.dictionaryValue === 'TESTCLS')!.children[0]!.dictionaryName).toBe(
      '甲類（改）',
    );
    await createBook(h.context, { classCode: 'TESTCLS.A' });
    expect((await send('DELETE', `/api/admin/classifications/${top.dictionaryId}`)).json()).toMatchObject({
      message: '该分类（或其下级分类）仍有古籍，不能删除',
    });
    expect(
      (
        await send('POST', '/api/admin/classifications', {
          parentId: top.dictionaryId,
          code: 'TESTCLS.B',
          name: '乙類',
        })
      ).statusCode,
    ).toBe(200);
    const unused = (await tree())
      .find((c) => c.dictionaryValue === 'TESTCLS')!
      .children.find((c) => c.dictionaryValue === 'TESTCLS.B')!;
    expect((await send('DELETE', `/api/admin/classifications/${unused.dictionaryId}`)).statusCode).toBe(200);
    // Each change is in the audit log; the refused deletion is not.
    const log = async (action: string) =>
      (await get(`/api/admin/audit?action=${action}`, admin))
        .json<{ records: Array<{ target: string }> }>()
        .records.map((r) => r.target)
        .filter((target) => target.startsWith('class:TESTCLS'));
    expect(await log('class.create')).toEqual(['class:TESTCLS.B', 'class:TESTCLS.A', 'class:TESTCLS']);
    expect(await log('class.rename')).toEqual(['class:TESTCLS.A']);
    expect(await log('class.delete')).toEqual(['class:TESTCLS.B']);
  });

  it('a catalogue edit on the book page is in the audit log with its fields before and after', async () => {
    const { bookId } = await createBook(h.context, { title: '審計測試' });
    await h.request({
      method: 'PATCH',
      url: `/api/books/${bookId}`,
      cookie: admin,
      body: { title: '審計測試（改）', isOpen: false },
    });
    const log = (await get('/api/admin/audit?action=book.update', admin)).json<{
      records: Array<{ target: string; before: unknown; after: unknown }>;
    }>();
    expect(log.records[0]).toMatchObject({
      target: `book:${bookId}`,
      before: { title: '審計測試', isOpen: true },
      after: { title: '審計測試（改）', isOpen: false },
    });
  });

  it('reader categories: a research reader reads books closed to online reading until the last day; staff only', async () => {
    const OUTSIDE = '203.0.113.9';
    const { bookId } = await createBook(h.context, { title: '善本研究', isOpen: false });
    const { cookie: reader, loginName: readerLogin } = await makeReader(h, 'researcher');
    const readerId = (await h.context.repos.users.findByLoginName(readerLogin))!.id;
    const read = () =>
      h.request({
        method: 'GET',
        url: `/api/reader?catalogId=${bookId}`,
        cookie: reader,
        remoteAddress: OUTSIDE,
      });
    const setCategory = (cookie: string, body: unknown) =>
      h.request({ method: 'PUT', url: `/api/admin/users/${readerId}/category`, cookie, body });

    expect((await read()).statusCode).not.toBe(200);
    expect((await setCategory(reader, { flag: '2', lastDay: null })).statusCode).toBe(403);
    const bad = await setCategory(admin, { flag: '9', lastDay: null });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('读者类别无效');
    // The fake clock is 1 June 2026, 16:00 in Shanghai.
    const past = await setCategory(admin, { flag: '2', lastDay: '2026-05-31' });
    expect(past.json<{ message: string }>().message).toBe('截止日期不能早于今天');
    expect((await setCategory(admin, { flag: '2', lastDay: '2026-06-02' })).statusCode).toBe(200);

    const session = (await get('/api/session', reader)).json<{
      user: { flag: string; flagExpiresAt: string };
    }>();
    expect(session.user).toMatchObject({ flag: '2', flagExpiresAt: '2026-06-02T16:00:00.000Z' });
    expect((await read()).statusCode).toBe(200);
    const page = (await read()).json<{ pages: Array<{ imageId: number }> }>().pages[0]!;
    const tile = await h.request({
      method: 'GET',
      url: `/iiif/3/${page.imageId}/full/max/0/default.jpg`,
      cookie: reader,
      remoteAddress: OUTSIDE,
    });
    expect(tile.statusCode).toBe(200);
    const listed = (await get('/api/admin/users?flag=2', admin)).json<{
      records: Array<{ loginName: string; readerFlag: string }>;
    }>();
    expect(listed.records).toEqual([expect.objectContaining({ loginName: readerLogin, readerFlag: '2' })]);
    // A % typed in the search is a character, not a wildcard.
    expect(
      (await get(`/api/admin/users?q=${encodeURIComponent('%')}`, admin)).json<{ total: number }>().total,
    ).toBe(0);

    // After the last day (midnight in Shanghai), the book is closed to them again.
    h.clock.advance(32 * 3600);
    expect((await read()).statusCode).not.toBe(200);
    expect((await setCategory(admin, { flag: '1', lastDay: null })).statusCode).toBe(200);
    const log = (await get('/api/admin/audit?action=user.category', admin)).json<{
      records: Array<{ after: unknown }>;
    }>();
    expect(log.records.map((r) => r.after)).toEqual([
      { flag: '1', expiresAt: null },
      { flag: '2', expiresAt: '2026-06-02T16:00:00.000Z' },
    ]);
  });
});
