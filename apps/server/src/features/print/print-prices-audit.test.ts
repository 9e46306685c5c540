import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';

/**
 * A change of the print prices is one transaction with the desk log's entry and its audit record: when
 * the record cannot be written, the prices stay as they were.
 */
describe.each(DIALECTS)('print prices and their audit record (%s)', (dialect) => {
  let h: HttpHarness;
  let admin: string;
  const setPrices = (prices: unknown) =>
    h.request({ method: 'PUT', url: '/api/admin/print/prices', cookie: admin, body: { prices } });
  const prices = async () => (await h.request({ method: 'GET', url: '/api/print/prices' })).json<unknown>();
  const records = async () =>
    (await h.context.repos.audit.page({ action: 'cart.prices', offset: 0, limit: 50 })).rows;

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    await h.context.services.auth.upsertAccount({
      loginName: 'priceadmin',
      password: GOOD_PASSWORD,
      roles: ['reader', 'admin'],
    });
    admin = (await h.login('priceadmin', GOOD_PASSWORD)).cookie;
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => h.close());

  it('keeps the old prices when the audit record fails; records before and after once', async () => {
    const before = await prices();
    const next = [{ paperSize: 'A4', label: 'A4 单面', priceFen: 200 }];
    vi.spyOn(h.context.services.admin, 'record').mockRejectedValue(new Error('audit log unavailable'));
    expect((await setPrices(next)).statusCode).toBe(500);
    vi.restoreAllMocks();
    expect(await prices()).toEqual(before);
    expect(await records()).toEqual([]);

    expect((await setPrices(next)).json()).toEqual(next);
    const [record, ...more] = await records();
    expect(more).toEqual([]);
    expect(record).toMatchObject({ target: 'print-prices' });
    expect(JSON.parse(record!.before!)).toEqual(before);
    expect(JSON.parse(record!.after!)).toEqual(next);
  });
});
