import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';

/**
 * An administrator's save of the site settings is one transaction with its audit record (only what
 * changed): when the record cannot be written, nothing is saved.
 */
describe.each(DIALECTS)('site settings and their audit record (%s)', (dialect) => {
  let h: HttpHarness;
  let admin: string;
  const save = (body: unknown) => h.request({ method: 'PUT', url: '/api/admin/site', cookie: admin, body });
  const site = async () =>
    (await h.request({ method: 'GET', url: '/api/site' })).json<{ copyright: string; siteName: string }>();
  const records = async () =>
    (await h.context.repos.audit.page({ action: 'site.update', offset: 0, limit: 50 })).rows;

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    await h.context.services.auth.upsertAccount({
      loginName: 'siteadmin',
      password: GOOD_PASSWORD,
      roles: ['reader', 'admin'],
    });
    admin = (await h.login('siteadmin', GOOD_PASSWORD)).cookie;
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => h.close());

  it('saves nothing when the audit record fails; records only what changed, once', async () => {
    const before = await site();
    vi.spyOn(h.context.services.admin, 'record').mockRejectedValue(new Error('audit log unavailable'));
    expect((await save({ ...before, copyright: '版权所有 © 某某图书馆' })).statusCode).toBe(500);
    vi.restoreAllMocks();
    expect(await site()).toMatchObject({ copyright: before.copyright });
    expect(await h.context.repos.settings.getAll()).not.toHaveProperty('copyright');
    expect(await records()).toEqual([]);

    // The console's form sends every field; the record holds the one that changed.
    expect((await save({ ...before, copyright: '版权所有 © 某某图书馆' })).statusCode).toBe(200);
    expect(await site()).toMatchObject({ copyright: '版权所有 © 某某图书馆' });
    const [record, ...more] = await records();
    expect(more).toEqual([]);
    expect(JSON.parse(record!.before!)).toEqual({ copyright: before.copyright });
    expect(JSON.parse(record!.after!)).toEqual({ copyright: '版权所有 © 某某图书馆' });
    // Saving without a change changes nothing, and the log says nothing.
    expect((await save({ copyright: '版权所有 © 某某图书馆' })).statusCode).toBe(200);
    expect(await records()).toHaveLength(1);
  });
});
