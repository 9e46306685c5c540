import { OWN_STATUS } from '@guji/shared';
import type { ReservationDuration } from '@guji/shared';
import type { Db, DbOrTx } from '../../db/database.ts';
import { likeText } from '../../db/query.ts';
import { scriptVariants } from '../../search/fold.ts';
import type { Row } from '../../db/schema.ts';

/** A reservation with the applicant's name and its duration's label. */
export type ReservationRow = Omit<Row<'reservations'>, 'reviewer_id'> & {
  applicant: string;
  duration_label: Row<'reservation_durations'>['label'] | null;
};

/** Reservations, their durations, and the privileges approvals grant. */
export class ReservationRepository {
  constructor(private readonly db: Db) {}

  async durations(tx: DbOrTx = this.db): Promise<ReservationDuration[]> {
    return tx.selectFrom('reservation_durations').select(['code', 'label', 'days']).orderBy('sort').execute();
  }

  async findDuration(
    code: string,
    tx: DbOrTx = this.db,
  ): Promise<{ code: string; days: number } | undefined> {
    return tx
      .selectFrom('reservation_durations')
      .select(['code', 'days'])
      .where('code', '=', code)
      .executeTakeFirst();
  }

  async updateDuration(
    code: string,
    change: { label: string; days: number },
    tx: DbOrTx,
  ): Promise<ReservationDuration | undefined> {
    return tx
      .updateTable('reservation_durations')
      .set(change)
      .where('code', '=', code)
      .returning(['code', 'label', 'days'])
      .executeTakeFirst();
  }

  /** Visible, published books whose call number starts with the text, by call number. */
  async booksByCallNumberPrefix(
    text: string,
    limit: number,
    tx: DbOrTx = this.db,
  ): Promise<Array<Pick<Row<'books'>, 'id' | 'call_number' | 'title'>>> {
    return tx
      .selectFrom('books')
      .select(['id', 'call_number', 'title'])
      .where('is_visible', '=', 1)
      .where('audit_status', '=', OWN_STATUS.published)
      .where((eb) => eb.or(scriptVariants(text).map((v) => likeText('call_number', v, 'prefix'))))
      .orderBy('call_number')
      .limit(limit)
      .execute();
  }

  /** The visible, published book with exactly this call number (in simplified or traditional characters). */
  async bookByCallNumber(
    callNumber: string,
    tx: DbOrTx = this.db,
  ): Promise<{ id: number; title: string; call_number: string | null } | undefined> {
    return tx
      .selectFrom('books')
      .select(['id', 'title', 'call_number'])
      .where('call_number', 'in', scriptVariants(callNumber))
      .where('is_visible', '=', 1)
      .where('audit_status', '=', OWN_STATUS.published)
      .executeTakeFirst();
  }

  async find(id: number, tx: DbOrTx = this.db): Promise<ReservationRow | undefined> {
    return this.select(tx).where('reservations.id', '=', id).executeTakeFirst();
  }

  /** Who applied, for a reservation that exists. */
  async applicantOf(id: number, tx: DbOrTx = this.db): Promise<number | undefined> {
    const row = await tx.selectFrom('reservations').select('user_id').where('id', '=', id).executeTakeFirst();
    return row?.user_id;
  }

  async create(
    entry: {
      userId: number;
      bookId: number;
      callNumber: string;
      title: string;
      durationCode: string;
      reason: string;
      status: number;
      now: string;
    },
    tx: DbOrTx,
  ): Promise<number> {
    const row = await tx
      .insertInto('reservations')
      .values({
        user_id: entry.userId,
        book_id: entry.bookId,
        call_number: entry.callNumber,
        title: entry.title,
        duration_code: entry.durationCode,
        reason: entry.reason,
        status: entry.status,
        created_at: entry.now,
        updated_at: entry.now,
        expires_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** One page of reservations of some users or some statuses, by id; with the count of all. */
  async page(
    where: { column: 'reservations.user_id' | 'reservations.status'; values: number[] },
    order: 'asc' | 'desc',
    offset: number,
    limit: number,
    tx: DbOrTx = this.db,
  ): Promise<{ rows: ReservationRow[]; total: number }> {
    const { n } = await tx
      .selectFrom('reservations')
      .where(where.column, 'in', where.values)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await this.select(tx)
      .where(where.column, 'in', where.values)
      .orderBy('reservations.id', order)
      .limit(limit)
      .offset(offset)
      .execute();
    return { rows, total: Number(n) };
  }

  /**
   * Moves a reservation to a new status if it is in one of `from` (and, when `notUser` is given, not
   * that user's own); the changes given are applied with it. False when nothing matched.
   */
  async transition(
    id: number,
    from: number[],
    change: {
      status: number;
      updated_at: string;
      reviewer_id?: number;
      refuse_reason?: string;
      expires_at?: string;
    },
    only: { userId?: number; notUserId?: number },
    tx: DbOrTx,
  ): Promise<boolean> {
    let query = tx.updateTable('reservations').set(change).where('id', '=', id).where('status', 'in', from);
    if (only.userId !== undefined) query = query.where('user_id', '=', only.userId);
    if (only.notUserId !== undefined) query = query.where('user_id', '<>', only.notUserId);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async setExpiry(id: number, expiresAt: string, tx: DbOrTx): Promise<void> {
    await tx.updateTable('reservations').set({ expires_at: expiresAt }).where('id', '=', id).execute();
  }

  /** What an approval needs: the applicant, the book and the duration's days. */
  async forApproval(
    id: number,
    tx: DbOrTx = this.db,
  ): Promise<{ user_id: number; book_id: number; days: number | null } | undefined> {
    return tx
      .selectFrom('reservations')
      .leftJoin('reservation_durations', 'reservation_durations.code', 'reservations.duration_code')
      .select(['reservations.user_id', 'reservations.book_id', 'reservation_durations.days'])
      .where('reservations.id', '=', id)
      .executeTakeFirst();
  }

  /** The privilege an approved reservation grants: reading the book until the expiry. */
  async grantPrivilege(
    entry: { userId: number; bookId: number; reservationId: number; startsAt: string; expiresAt: string },
    tx: DbOrTx,
  ): Promise<void> {
    await tx
      .insertInto('book_privileges')
      .values({
        user_id: entry.userId,
        book_id: entry.bookId,
        starts_at: entry.startsAt,
        expires_at: entry.expiresAt,
        created_at: entry.startsAt,
        reservation_id: entry.reservationId,
      })
      .execute();
  }

  private select(tx: DbOrTx) {
    return tx
      .selectFrom('reservations')
      .innerJoin('users', 'users.id', 'reservations.user_id')
      .leftJoin('reservation_durations', 'reservation_durations.code', 'reservations.duration_code')
      .selectAll('reservations')
      .select((eb) => [
        eb.fn.coalesce('users.real_name', 'users.nick_name', 'users.login_name').as('applicant'),
        'reservation_durations.label as duration_label',
      ]);
  }
}
