import type { Db, DbOrTx } from '../../db/database.ts';

/** The books a reader collected (收藏), once each. */
export class CollectionRepository {
  constructor(private readonly db: Db) {}

  async has(userId: number, bookId: number, tx: DbOrTx = this.db): Promise<boolean> {
    const row = await tx
      .selectFrom('collections')
      .select('id')
      .where('user_id', '=', userId)
      .where('book_id', '=', bookId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Adds the book; collecting it again changes nothing. */
  async add(userId: number, bookId: number, now: string, tx: DbOrTx = this.db): Promise<void> {
    await tx
      .insertInto('collections')
      .values({ user_id: userId, book_id: bookId, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'book_id']).doNothing())
      .execute();
  }

  async remove(userId: number, bookId: number, tx: DbOrTx = this.db): Promise<void> {
    await tx.deleteFrom('collections').where('user_id', '=', userId).where('book_id', '=', bookId).execute();
  }

  /** One page of a reader's collection, newest first; with the count of all. */
  async page(
    userId: number,
    offset: number,
    limit: number,
    tx: DbOrTx = this.db,
  ): Promise<{ rows: Array<{ book_id: number; created_at: string }>; total: number }> {
    const base = tx.selectFrom('collections').where('user_id', '=', userId);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .select(['book_id', 'created_at'])
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return { rows, total: Number(n) };
  }
}
