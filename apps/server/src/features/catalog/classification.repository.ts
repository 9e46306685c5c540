import type { Db, DbOrTx } from '../../db/database.ts';
import type { ClassificationRow } from '../../db/schema.ts';

/** The classification dictionary (spec §3): codes are dotted paths (JING.SISHU), names are shown. */
export class ClassificationRepository {
  constructor(private readonly db: Db) {}

  async list(tx: DbOrTx = this.db): Promise<ClassificationRow[]> {
    return tx.selectFrom('classifications').selectAll().orderBy('sort').orderBy('id').execute();
  }

  async find(id: number, tx: DbOrTx = this.db): Promise<ClassificationRow | undefined> {
    return tx.selectFrom('classifications').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findByCode(code: string, tx: DbOrTx = this.db): Promise<ClassificationRow | undefined> {
    return tx.selectFrom('classifications').selectAll().where('code', '=', code).executeTakeFirst();
  }

  /** Creates or renames a classification by code; returns its id. */
  async upsert(entry: {
    code: string;
    name: string;
    parentId: number | null;
    sort: number;
  }): Promise<number> {
    const row = await this.db
      .insertInto('classifications')
      .values({ code: entry.code, name: entry.name, parent_id: entry.parentId, sort: entry.sort })
      .onConflict((oc) =>
        oc.column('code').doUpdateSet({ name: entry.name, parent_id: entry.parentId, sort: entry.sort }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Adds a classification after its siblings. */
  async append(entry: { code: string; name: string; parentId: number | null }, tx: DbOrTx): Promise<void> {
    const last = await tx
      .selectFrom('classifications')
      .select((eb) => eb.fn.max('sort').as('sort'))
      .where('parent_id', entry.parentId === null ? 'is' : '=', entry.parentId)
      .executeTakeFirst();
    await tx
      .insertInto('classifications')
      .values({
        code: entry.code,
        name: entry.name,
        parent_id: entry.parentId,
        sort: Number(last?.sort ?? -1) + 1,
      })
      .execute();
  }

  async rename(id: number, name: string, tx: DbOrTx): Promise<void> {
    await tx.updateTable('classifications').set({ name }).where('id', '=', id).execute();
  }

  async remove(id: number, tx: DbOrTx): Promise<void> {
    await tx.deleteFrom('classifications').where('id', '=', id).execute();
  }

  /** Whether any book is filed under the code or one of its sub-classes. */
  async inUse(code: string, tx: DbOrTx = this.db): Promise<boolean> {
    const used = await tx
      .selectFrom('books')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('class_code', '=', code),
          eb.and([eb('class_code', '>', `${code}.`), eb('class_code', '<', `${code}/`)]),
        ]),
      )
      .executeTakeFirst();
    return used !== undefined;
  }
}
