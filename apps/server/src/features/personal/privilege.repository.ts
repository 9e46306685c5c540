import type { Row } from '../../db/schema.ts';
import type { Db, DbOrTx } from '../../db/database.ts';

/** The privileges approved reservations grant: reading a book until a time. */
export class PrivilegeRepository {
  constructor(private readonly db: Db) {}

  /** A reader's privileges in force at `now`, one row per book with the latest expiry, soonest first. */
  async activePage(
    userId: number,
    now: string,
    offset: number,
    limit: number,
    tx: DbOrTx = this.db,
  ): Promise<{
    rows: Array<Pick<Row<'book_privileges'>, 'book_id' | 'expires_at' | 'reservation_id'>>;
    total: number;
  }> {
    const base = tx
      .selectFrom('book_privileges')
      .where('user_id', '=', userId)
      .where('starts_at', '<=', now)
      .where('expires_at', '>', now);
    const { n } = await tx
      .selectFrom(base.select('book_id').groupBy('book_id').as('active'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .select((eb) => [
        'book_id',
        eb.fn.max('expires_at').as('expires_at'),
        eb.fn.max('reservation_id').as('reservation_id'),
      ])
      .groupBy('book_id')
      .orderBy('expires_at')
      .limit(limit)
      .offset(offset)
      .execute();
    return {
      rows: rows.map((r) => ({
        book_id: r.book_id,
        expires_at: String(r.expires_at),
        reservation_id: r.reservation_id ?? null,
      })),
      total: Number(n),
    };
  }
}
