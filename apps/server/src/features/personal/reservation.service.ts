import {
  MSG,
  PERSONAL_PAGE_SIZE,
  RESERVATION_STATUS,
  SAME_DAY_DURATION,
  type CallNumberMatch,
  type Reservation,
  type ReservationDuration,
} from '@guji/shared';
import type { Db } from '../../db/database.ts';
import { nowIso } from '../../db/database.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { pagedOf, type Paged } from '../../lib/paged.ts';
import { likeText } from '../../db/query.ts';
import { endOfLocalDay } from '../../lib/local-day.ts';

interface ReservationRow {
  id: number;
  user_id: number;
  book_id: number;
  call_number: string;
  title: string;
  duration_code: string;
  reason: string;
  status: number;
  refuse_reason: string | null;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
  applicant: string;
  duration_label: string | null;
}

const toReservation = (row: ReservationRow): Reservation => ({
  id: row.id,
  catalogId: row.book_id,
  callNumber: row.call_number,
  title: row.title,
  applyDays: row.duration_code,
  durationLabel: row.duration_label ?? row.duration_code,
  detailReason: row.reason,
  auditStatus: row.status,
  refuseReason: row.refuse_reason,
  applicant: row.applicant,
  applyTime: row.created_at,
  updatedAt: row.updated_at,
  expiresAt: row.expires_at,
});

const NOT_FOUND = () => notFound(MSG.notFound, 'NOT_FOUND');
/** No reviewer decides their own application (separation of duties); the applicant may withdraw it. */
const SELF_REVIEW = () => forbidden(MSG.reservationSelfReview, 'RESERVATION_SELF_REVIEW');

/**
 * Reservations (spec §3, §4, §5; DESIGN.md §7): a reader applies for time-limited access to a book by
 * call number; the same-day duration (ANB0401) is approved at once, any other waits for a reviewer.
 * Approval grants a privilege that the access rule honours until the end of the expiry day in the
 * library's time zone.
 */
export class ReservationService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly timeZone: () => Promise<string>,
  ) {}

  async durations(): Promise<ReservationDuration[]> {
    return this.db
      .selectFrom('reservation_durations')
      .select(['code', 'label', 'days'])
      .orderBy('sort')
      .execute();
  }

  async updateDuration(code: string, change: { label: string; days: number }): Promise<ReservationDuration> {
    // The same-day option stays same-day: its meaning is the spec's, only its label is the library's.
    const days = code === SAME_DAY_DURATION ? 0 : change.days;
    const row = await this.db
      .updateTable('reservation_durations')
      .set({ label: change.label, days })
      .where('code', '=', code)
      .returning(['code', 'label', 'days'])
      .executeTakeFirst();
    if (!row) throw NOT_FOUND();
    return row;
  }

  /** Visible, published books whose call number starts with the text typed (at most 10). */
  async lookup(callNumber: string): Promise<CallNumberMatch[]> {
    const text = callNumber.trim();
    if (text === '') return [];
    const rows = await this.db
      .selectFrom('books')
      .select(['id', 'call_number', 'title'])
      .where('is_visible', '=', 1)
      .where('audit_status', '=', '2')
      .where(likeText('call_number', text, 'prefix'))
      .orderBy('call_number')
      .limit(10)
      .execute();
    return rows.map((r) => ({ catalogId: r.id, callNumber: r.call_number ?? '', title: r.title }));
  }

  private select() {
    return this.db
      .selectFrom('reservations')
      .innerJoin('users', 'users.id', 'reservations.user_id')
      .leftJoin('reservation_durations', 'reservation_durations.code', 'reservations.duration_code')
      .selectAll('reservations')
      .select((eb) => [
        eb.fn.coalesce('users.real_name', 'users.nick_name', 'users.login_name').as('applicant'),
        'reservation_durations.label as duration_label',
      ]);
  }

  private async find(id: number): Promise<Reservation> {
    const row = await this.select().where('reservations.id', '=', id).executeTakeFirst();
    if (!row) throw NOT_FOUND();
    return toReservation(row);
  }

  async apply(
    userId: number,
    request: { callNumber: string; title: string; applyDays: string; detailReason: string },
  ): Promise<{ reservation: Reservation; message: string }> {
    const duration = await this.db
      .selectFrom('reservation_durations')
      .select(['code', 'days'])
      .where('code', '=', request.applyDays)
      .executeTakeFirst();
    if (!duration) throw badRequest('RESERVATION_DURATION', MSG.reservationUnknownDuration);
    const book = await this.db
      .selectFrom('books')
      .select(['id', 'title', 'call_number'])
      .where('call_number', '=', request.callNumber)
      .where('is_visible', '=', 1)
      .where('audit_status', '=', '2')
      .executeTakeFirst();
    if (!book || book.title !== request.title)
      throw badRequest('RESERVATION_BOOK', MSG.reservationUnknownBook);
    const now = this.clock.now();
    const sameDay = duration.code === SAME_DAY_DURATION;
    // Read before the transaction: on SQLite it holds the only connection.
    const expires = nowIso(endOfLocalDay(now, await this.timeZone(), 0));
    const id = await this.db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto('reservations')
        .values({
          user_id: userId,
          book_id: book.id,
          call_number: request.callNumber,
          title: book.title,
          duration_code: duration.code,
          reason: request.detailReason,
          status: sameDay ? RESERVATION_STATUS.passed : RESERVATION_STATUS.unaudited,
          created_at: nowIso(now),
          updated_at: nowIso(now),
          expires_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (sameDay) {
        await tx.updateTable('reservations').set({ expires_at: expires }).where('id', '=', row.id).execute();
        await tx
          .insertInto('book_privileges')
          .values({
            user_id: userId,
            book_id: book.id,
            starts_at: nowIso(now),
            expires_at: expires,
            created_at: nowIso(now),
            reservation_id: row.id,
          })
          .execute();
      }
      return row.id;
    });
    return {
      reservation: await this.find(id),
      message: sameDay ? MSG.reservationAutoApproved : MSG.reservationSaved,
    };
  }

  async mine(userId: number, pageNum: number): Promise<Paged<Reservation>> {
    return this.page(pageNum, PERSONAL_PAGE_SIZE, { column: 'reservations.user_id', values: [userId] });
  }

  /** The reviewers' queue: by status (default: the undecided), oldest first. */
  async queue(statuses: number[], pageNum: number): Promise<Paged<Reservation>> {
    return this.page(pageNum, PERSONAL_PAGE_SIZE, { column: 'reservations.status', values: statuses }, 'asc');
  }

  private async page(
    pageNum: number,
    size: number,
    where: { column: 'reservations.user_id' | 'reservations.status'; values: number[] },
    order: 'asc' | 'desc' = 'desc',
  ): Promise<Paged<Reservation>> {
    const { n } = await this.db
      .selectFrom('reservations')
      .where(where.column, 'in', where.values)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await this.select()
      .where(where.column, 'in', where.values)
      .orderBy('reservations.id', order)
      .limit(size)
      .offset((pageNum - 1) * size)
      .execute();
    return pagedOf(
      pageNum,
      size,
      n,
      rows.map((r) => toReservation(r as ReservationRow)),
    );
  }

  /** The applicant withdraws an application that is not decided yet (status 0 or 1). */
  async withdraw(userId: number, id: number): Promise<Reservation> {
    const result = await this.db
      .updateTable('reservations')
      .set({ status: RESERVATION_STATUS.withdrawn, updated_at: nowIso(this.clock.now()) })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('status', 'in', [RESERVATION_STATUS.unaudited, RESERVATION_STATUS.reviewing])
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      const own = await this.db
        .selectFrom('reservations')
        .select('id')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!own) throw NOT_FOUND();
      throw conflict('RESERVATION_DECIDED', MSG.reservationNotPending);
    }
    return this.find(id);
  }

  /** A reviewer takes an unaudited application under review (0 → 1); never their own. */
  async take(reviewerId: number, id: number): Promise<Reservation> {
    await this.transition(id, [RESERVATION_STATUS.unaudited], {
      status: RESERVATION_STATUS.reviewing,
      reviewer_id: reviewerId,
    });
    return this.find(id);
  }

  async refuse(reviewerId: number, id: number, reason: string): Promise<Reservation> {
    await this.transition(id, [RESERVATION_STATUS.unaudited, RESERVATION_STATUS.reviewing], {
      status: RESERVATION_STATUS.refused,
      refuse_reason: reason,
      reviewer_id: reviewerId,
    });
    return this.find(id);
  }

  /** Approval (0 or 1 → 2) grants the privilege until the end of the duration's last day; never one's own. */
  async approve(reviewerId: number, id: number): Promise<Reservation> {
    const now = this.clock.now();
    const timeZone = await this.timeZone();
    await this.db.transaction().execute(async (tx) => {
      const row = await tx
        .selectFrom('reservations')
        .leftJoin('reservation_durations', 'reservation_durations.code', 'reservations.duration_code')
        .select(['reservations.user_id', 'reservations.book_id', 'reservation_durations.days'])
        .where('reservations.id', '=', id)
        .executeTakeFirst();
      if (!row) throw NOT_FOUND();
      if (row.user_id === reviewerId) throw SELF_REVIEW();
      const expires = nowIso(endOfLocalDay(now, timeZone, row.days ?? 0));
      const result = await tx
        .updateTable('reservations')
        .set({
          status: RESERVATION_STATUS.passed,
          reviewer_id: reviewerId,
          expires_at: expires,
          updated_at: nowIso(now),
        })
        .where('id', '=', id)
        .where('status', 'in', [RESERVATION_STATUS.unaudited, RESERVATION_STATUS.reviewing])
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0)
        throw conflict('RESERVATION_STATE', MSG.reservationNotReviewable);
      await tx
        .insertInto('book_privileges')
        .values({
          user_id: row.user_id,
          book_id: row.book_id,
          starts_at: nowIso(now),
          expires_at: expires,
          created_at: nowIso(now),
          reservation_id: id,
        })
        .execute();
    });
    return this.find(id);
  }

  private async transition(
    id: number,
    from: number[],
    set: { status: number; reviewer_id: number; refuse_reason?: string },
  ): Promise<void> {
    const result = await this.db
      .updateTable('reservations')
      .set({ ...set, updated_at: nowIso(this.clock.now()) })
      .where('id', '=', id)
      .where('status', 'in', from)
      .where('user_id', '<>', set.reviewer_id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      const exists = await this.db
        .selectFrom('reservations')
        .select(['id', 'user_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!exists) throw NOT_FOUND();
      if (exists.user_id === set.reviewer_id) throw SELF_REVIEW();
      throw conflict('RESERVATION_STATE', MSG.reservationNotReviewable);
    }
  }
}
