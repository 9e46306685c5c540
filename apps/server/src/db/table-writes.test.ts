import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DIALECTS, type TestContext } from '../../test/helpers.ts';
import { transactor } from './query.ts';

describe.each(DIALECTS)('the catalogue write count on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it('moves when books, volumes or pages are written and when a transaction ends, not on reads or other tables', async () => {
    const { db, catalogueWrites: writes } = t.context.database;
    const at = () => writes.generation;
    let before = at();
    await db.selectFrom('books').select('id').execute();
    await db.updateTable('settings').set({ value: 'x' }).where('key', '=', 'no-such-key').execute();
    expect(at()).toBe(before);
    for (const write of [
      () => db.updateTable('books').set({ is_open: 1 }).where('id', '=', -1).execute(),
      () => db.deleteFrom('pages').where('id', '=', -1).execute(),
      () => db.updateTable('volumes as v').set({ sort: 0 }).where('v.id', '=', -1).execute(),
    ]) {
      before = at();
      await write();
      expect(at()).toBeGreaterThan(before);
    }
    before = at();
    await transactor(db, () => writes.transactionEnded())(async (tx) =>
      tx.selectFrom('books').select('id').execute(),
    );
    expect(at()).toBe(before + 1);
  });
});
