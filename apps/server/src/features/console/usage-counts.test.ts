import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DIALECTS, type TestContext } from '../../../test/helpers.ts';
import { UsageRepository } from './usage.repository.ts';
import { UsageService } from './usage.service.ts';

/**
 * Page views and searches are counted in memory and written a few seconds later in one upsert per day and
 * metric (the load test found every page turn waiting on the day's row). Nothing counted is lost: the
 * dashboard writes what is waiting before it reads, a failed write keeps its counts, and closing writes.
 */
describe.each(DIALECTS)('usage counts kept in memory, then written (%s)', (dialect) => {
  let t: TestContext;
  const rows = async () =>
    t.context.database.db
      .selectFrom('usage_daily')
      .select(['metric', 'count'])
      .where('day', '=', '2026-06-01')
      .orderBy('metric')
      .execute();
  const readers = async () =>
    Number(
      (
        await t.context.database.db
          .selectFrom('usage_readers')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('day', '=', '2026-06-01')
          .executeTakeFirstOrThrow()
      ).n,
    );

  const ids: number[] = [];
  beforeAll(async () => {
    t = await createTestContext(dialect);
    for (const loginName of ['usage_a', 'usage_b', 'usage_c']) {
      await t.context.services.auth.upsertAccount({ loginName, password: 'Shuyuan#2026', roles: ['reader'] });
      const row = await t.context.database.db
        .selectFrom('users')
        .select('id')
        .where('login_name', '=', loginName)
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
  });
  afterAll(async () => t.close());

  it('writes the day’s counts in one go, adds up flushes, and keeps counts a failed write could not write', async () => {
    const repository = new UsageRepository(t.context.database.db);
    const usage = new UsageService(repository, t.clock, () => Promise.resolve('Asia/Shanghai'), 60_000);
    for (let i = 0; i < 5; i++) await usage.count('pageViews', ids[0]!);
    await usage.count('bookOpens', ids[1]!);
    await usage.count('searches', ids[2]!); // a search does not make a reader of the day
    expect(await rows()).toEqual([]);
    await usage.flush();
    expect(await rows()).toEqual([
      { metric: 'bookOpens', count: 1 },
      { metric: 'pageViews', count: 5 },
      { metric: 'searches', count: 1 },
    ]);
    expect(await readers()).toBe(2);

    // The database refuses once: the counts wait for the next write.
    await usage.count('pageViews', ids[0]!);
    const failing = Object.create(repository) as UsageRepository;
    let refuse = true;
    failing.addCounts = async (...args) => {
      if (refuse) throw new Error('database away');
      return repository.addCounts(...args);
    };
    const flaky = new UsageService(failing, t.clock, () => Promise.resolve('Asia/Shanghai'), 60_000);
    await flaky.count('pageViews', ids[0]!);
    await expect(flaky.flush()).rejects.toThrow('database away');
    refuse = false;
    await flaky.count('pageViews', ids[0]!);
    await flaky.close();
    await usage.close();
    expect((await rows()).find((r) => r.metric === 'pageViews')?.count).toBe(8);
    expect(await readers()).toBe(2);
  });
});
