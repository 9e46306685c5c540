import type { Row } from '../../db/schema.ts';
import { countedPage } from '../../db/query.ts';
import type { Db, DbOrTx } from '../../db/database.ts';

/** Readers' comments on books; staff may hide one (it stays, marked hidden). */
export class CommentRepository {
  constructor(private readonly db: Db) {}

  async add(entry: { userId: number; bookId: number; text: string; createdAt: string }) {
    await this.db
      .insertInto('comments')
      .values({ user_id: entry.userId, book_id: entry.bookId, text: entry.text, created_at: entry.createdAt })
      .execute();
  }

  /** One page of a book's comments with their authors' names, newest first; hidden ones when asked. */
  async pageOfBook(
    bookId: number,
    withHidden: boolean,
    offset: number,
    limit: number,
    tx: DbOrTx = this.db,
  ): Promise<{
    rows: Array<
      Pick<Row<'comments'>, 'id' | 'user_id' | 'text' | 'hidden_at' | 'created_at'> &
        Pick<Row<'users'>, 'nick_name' | 'login_name'>
    >;
    total: number;
  }> {
    let base = tx.selectFrom('comments').where('comments.book_id', '=', bookId);
    if (!withHidden) base = base.where('comments.hidden_at', 'is', null);
    return countedPage(
      base,
      (list) =>
        list
          .innerJoin('users', 'users.id', 'comments.user_id')
          .select([
            'comments.id',
            'comments.user_id',
            'comments.text',
            'comments.hidden_at',
            'comments.created_at',
            'users.nick_name',
            'users.login_name',
          ])
          .orderBy('comments.id', 'desc'),
      { offset, limit },
    );
  }

  /** One page of a reader's own comments, newest first. */
  async pageOfUser(
    userId: number,
    offset: number,
    limit: number,
    tx: DbOrTx = this.db,
  ): Promise<{
    rows: Array<Pick<Row<'comments'>, 'id' | 'book_id' | 'text' | 'hidden_at' | 'created_at'>>;
    total: number;
  }> {
    return countedPage(
      tx.selectFrom('comments').where('user_id', '=', userId),
      (base) => base.select(['id', 'book_id', 'text', 'hidden_at', 'created_at']).orderBy('id', 'desc'),
      { offset, limit },
    );
  }

  /** Deletes one of the reader's own comments; false when there is none. */
  async remove(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('comments')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Hides (with who and when) or shows again; false when there is no such comment. */
  async setHidden(id: number, hidden: { at: string; by: number } | null, tx: DbOrTx): Promise<boolean> {
    const result = await tx
      .updateTable('comments')
      .set(hidden ? { hidden_at: hidden.at, hidden_by: hidden.by } : { hidden_at: null, hidden_by: null })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
