import type { Db, DbOrTx } from '../../db/database.ts';
import type { Row } from '../../db/schema.ts';

export type FootprintRow = Pick<Row<'footprints'>, 'book_id' | 'volume_id' | 'page_id' | 'created_at'> & {
  volume_name: Row<'volumes'>['name'] | null;
  seq: Row<'pages'>['seq'] | null;
};

/** Footprints: the books a reader opened, each with the last page turned to and when. */
export class FootprintRepository {
  constructor(private readonly db: Db) {}

  /** The reader is on this page: the book's newest footprint takes it, or a first one is made. */
  async touch(entry: {
    userId: number;
    bookId: number;
    volumeId: number;
    pageId: number;
    at: string;
  }): Promise<void> {
    const latest = await this.db
      .selectFrom('footprints')
      .select('id')
      .where('user_id', '=', entry.userId)
      .where('book_id', '=', entry.bookId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (latest) {
      await this.db
        .updateTable('footprints')
        .set({ page_id: entry.pageId, volume_id: entry.volumeId, created_at: entry.at })
        .where('id', '=', latest.id)
        .execute();
    } else {
      await this.db
        .insertInto('footprints')
        .values({
          user_id: entry.userId,
          book_id: entry.bookId,
          volume_id: entry.volumeId,
          page_id: entry.pageId,
          created_at: entry.at,
        })
        .execute();
    }
  }

  /** One row per book (its newest footprint), most recent first; with the count of books. */
  async page(
    userId: number,
    offset: number,
    limit: number,
    tx: DbOrTx = this.db,
  ): Promise<{ rows: FootprintRow[]; total: number }> {
    const latest = tx
      .selectFrom('footprints')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('user_id', '=', userId)
      .groupBy('book_id');
    const { n } = await tx
      .selectFrom(latest.as('latest'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await tx
      .selectFrom('footprints')
      .leftJoin('volumes', 'volumes.id', 'footprints.volume_id')
      .leftJoin('pages', 'pages.id', 'footprints.page_id')
      .select([
        'footprints.book_id',
        'footprints.volume_id',
        'footprints.page_id',
        'footprints.created_at',
        'volumes.name as volume_name',
        'pages.seq',
      ])
      .where('footprints.id', 'in', latest)
      .orderBy('footprints.created_at', 'desc')
      .orderBy('footprints.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return { rows, total: Number(n) };
  }

  /** Clears a reader's footprints, of one book or of all. */
  async remove(userId: number, bookId?: number): Promise<void> {
    let query = this.db.deleteFrom('footprints').where('user_id', '=', userId);
    if (bookId !== undefined) query = query.where('book_id', '=', bookId);
    await query.execute();
  }
}
