import type { Row } from '../../db/schema.ts';
import { countedPage } from '../../db/query.ts';
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
  async add(userId: number, bookId: number, now: string): Promise<void> {
    await this.db
      .insertInto('collections')
      .values({ user_id: userId, book_id: bookId, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'book_id']).doNothing())
      .execute();
  }

  async remove(userId: number, bookId: number): Promise<void> {
    await this.db
      .deleteFrom('collections')
      .where('user_id', '=', userId)
      .where('book_id', '=', bookId)
      .execute();
  }

  /** One page of a reader's collection, newest first; with the count of all. */
  async page(
    userId: number,
    offset: number,
    limit: number,
    tx: DbOrTx = this.db,
  ): Promise<{ rows: Array<Pick<Row<'collections'>, 'book_id' | 'created_at'>>; total: number }> {
    return countedPage(
      tx.selectFrom('collections').where('user_id', '=', userId),
      (base) => base.select(['book_id', 'created_at']).orderBy('id', 'desc'),
      { offset, limit },
    );
  }
}
