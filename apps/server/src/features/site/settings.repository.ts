import type { Db, DbOrTx } from '../../db/database.ts';
import { nowIso } from '../../db/database.ts';

/** Key/value site settings, values stored as JSON text. */
export class SettingsRepository {
  constructor(private readonly db: Db) {}

  async getAll(tx: DbOrTx = this.db): Promise<Record<string, unknown>> {
    const rows = await tx.selectFrom('settings').selectAll().execute();
    return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
  }

  async set(key: string, value: unknown, tx: DbOrTx): Promise<void> {
    const text = JSON.stringify(value);
    const now = nowIso();
    await tx
      .insertInto('settings')
      .values({ key, value: text, updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: text, updated_at: now }))
      .execute();
  }
}
