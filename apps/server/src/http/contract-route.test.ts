import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allContracts, paymentNotifyApi } from '@guji/shared';
import { DIALECTS } from '../../test/helpers.ts';
import { createHttpHarness, type HttpHarness } from '../../test/http.ts';

describe.each(DIALECTS)('route contracts on %s', (dialect) => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
  });
  afterAll(() => h.close());

  it('serves every route declared in packages/shared, with its method and path', () => {
    // A real provider's notify webhook is served only while that provider is live (not in tests' sandbox).
    const providers = new Set<unknown>(Object.values(paymentNotifyApi));
    const missing = allContracts
      .filter((c) => !providers.has(c) && !h.app.hasRoute({ method: c.method, url: c.path }))
      .map((c) => `${c.method} ${c.path}`);
    expect(missing).toEqual([]);
  });

  it('declares each method and path once', () => {
    const keys = allContracts.map((c) => `${c.method} ${c.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
