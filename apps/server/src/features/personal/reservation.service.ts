import {
  MSG,
  PERSONAL_PAGE_SIZE,
  RESERVATION_STATUS,
  SAME_DAY_DURATION,
  type CallNumberMatch,
  type Reservation,
  type ReservationDuration,
} from '@guji/shared';
import type { Transact } from '../../db/query.ts';
import { titleSearchKey } from '../../search/fold.ts';
import { nowIso, type DbOrTx } from '../../db/database.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { pagedOf, type Paged } from '../../lib/paged.ts';
import { endOfLocalDay } from '../../lib/local-day.ts';
import type { Auditor } from '../../audit/auditor.ts';
import type { ReservationRepository, ReservationRow } from './reservation.repository.ts';

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
 * library's time zone. Every decision and duration change is one transaction with its audit record.
 */
export class ReservationService {
  constructor(
    private readonly reservations: ReservationRepository,
    private readonly auditor: Auditor,
    private readonly transact: Transact,
    private readonly clock: Clock,
    private readonly timeZone: () => Promise<string>,
  ) {}

  async durations(): Promise<ReservationDuration[]> {
    return this.reservations.durations();
  }

  async updateDuration(
    actorId: number,
    code: string,
    change: { label: string; days: number },
  ): Promise<ReservationDuration> {
    // The same-day option stays same-day: its meaning is the spec's, only its label is the library's.
    const days = code === SAME_DAY_DURATION ? 0 : change.days;
    return this.transact(async (tx) => {
      const before = (await this.reservations.durations(tx)).find((d) => d.code === code);
      const row = await this.reservations.updateDuration(code, { label: change.label, days }, tx);
      if (!row) throw NOT_FOUND();
      await this.auditor.record(actorId, 'duration.update', `duration:${code}`, before, row, tx);
      return row;
    });
  }

  /** Visible, published books whose call number starts with the text typed (at most 10). */
  async lookup(callNumber: string): Promise<CallNumberMatch[]> {
    const text = callNumber.trim();
    if (text === '') return [];
    const rows = await this.reservations.booksByCallNumberPrefix(text, 10);
    return rows.map((r) => ({ catalogId: r.id, callNumber: r.call_number ?? '', title: r.title }));
  }

  private async find(id: number, tx?: DbOrTx): Promise<Reservation> {
    const row = await this.reservations.find(id, tx);
    if (!row) throw NOT_FOUND();
    return toReservation(row);
  }

  async apply(
    userId: number,
    request: { callNumber: string; title: string; applyDays: string; detailReason: string },
  ): Promise<{ reservation: Reservation; message: string }> {
    const duration = await this.reservations.findDuration(request.applyDays);
    if (!duration) throw badRequest('RESERVATION_DURATION', MSG.reservationUnknownDuration);
    const book = await this.reservations.bookByCallNumber(request.callNumber);
    // The title as chosen from the lookup, in either script (the interface may show it converted).
    if (!book || titleSearchKey(book.title) !== titleSearchKey(request.title))
      throw badRequest('RESERVATION_BOOK', MSG.reservationUnknownBook);
    const now = this.clock.now();
    const sameDay = duration.code === SAME_DAY_DURATION;
    // Read before the transaction: on SQLite it holds the only connection.
    const expires = nowIso(endOfLocalDay(now, await this.timeZone(), 0));
    const id = await this.transact(async (tx) => {
      const created = await this.reservations.create(
        {
          userId,
          bookId: book.id,
          callNumber: request.callNumber,
          title: book.title,
          durationCode: duration.code,
          reason: request.detailReason,
          status: sameDay ? RESERVATION_STATUS.passed : RESERVATION_STATUS.unaudited,
          now: nowIso(now),
        },
        tx,
      );
      if (sameDay) {
        await this.reservations.setExpiry(created, expires, tx);
        await this.reservations.grantPrivilege(
          { userId, bookId: book.id, reservationId: created, startsAt: nowIso(now), expiresAt: expires },
          tx,
        );
      }
      return created;
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
    const { rows, total } = await this.reservations.page(where, order, (pageNum - 1) * size, size);
    return pagedOf(pageNum, size, total, rows.map(toReservation));
  }

  /** The applicant withdraws an application that is not decided yet (status 0 or 1). */
  async withdraw(userId: number, id: number): Promise<Reservation> {
    const withdrawn = await this.transact((tx) =>
      this.reservations.transition(
        id,
        [RESERVATION_STATUS.unaudited, RESERVATION_STATUS.reviewing],
        { status: RESERVATION_STATUS.withdrawn, updated_at: nowIso(this.clock.now()) },
        { userId },
        tx,
      ),
    );
    if (!withdrawn) {
      if ((await this.reservations.applicantOf(id)) !== userId) throw NOT_FOUND();
      throw conflict('RESERVATION_DECIDED', MSG.reservationNotPending);
    }
    return this.find(id);
  }

  /** A reviewer takes an unaudited application under review (0 → 1); never their own. */
  async take(reviewerId: number, id: number): Promise<Reservation> {
    await this.transact((tx) =>
      this.transition(
        id,
        [RESERVATION_STATUS.unaudited],
        { status: RESERVATION_STATUS.reviewing, reviewer_id: reviewerId },
        tx,
      ),
    );
    return this.find(id);
  }

  async refuse(reviewerId: number, id: number, reason: string): Promise<Reservation> {
    return this.transact(async (tx) => {
      await this.transition(
        id,
        [RESERVATION_STATUS.unaudited, RESERVATION_STATUS.reviewing],
        { status: RESERVATION_STATUS.refused, refuse_reason: reason, reviewer_id: reviewerId },
        tx,
      );
      const after = await this.find(id, tx);
      await this.auditor.record(
        reviewerId,
        'reservation.refuse',
        `reservation:${id}`,
        null,
        { auditStatus: after.auditStatus, refuseReason: after.refuseReason },
        tx,
      );
      return after;
    });
  }

  /** Approval (0 or 1 → 2) grants the privilege until the end of the duration's last day; never one's own. */
  async approve(reviewerId: number, id: number): Promise<Reservation> {
    const now = this.clock.now();
    const timeZone = await this.timeZone();
    return this.transact(async (tx) => {
      const row = await this.reservations.forApproval(id, tx);
      if (!row) throw NOT_FOUND();
      if (row.user_id === reviewerId) throw SELF_REVIEW();
      const expires = nowIso(endOfLocalDay(now, timeZone, row.days ?? 0));
      const approved = await this.reservations.transition(
        id,
        [RESERVATION_STATUS.unaudited, RESERVATION_STATUS.reviewing],
        {
          status: RESERVATION_STATUS.passed,
          reviewer_id: reviewerId,
          expires_at: expires,
          updated_at: nowIso(now),
        },
        {},
        tx,
      );
      if (!approved) throw conflict('RESERVATION_STATE', MSG.reservationNotReviewable);
      await this.reservations.grantPrivilege(
        {
          userId: row.user_id,
          bookId: row.book_id,
          reservationId: id,
          startsAt: nowIso(now),
          expiresAt: expires,
        },
        tx,
      );
      const after = await this.find(id, tx);
      await this.auditor.record(
        reviewerId,
        'reservation.approve',
        `reservation:${id}`,
        null,
        { auditStatus: after.auditStatus, expiresAt: after.expiresAt },
        tx,
      );
      return after;
    });
  }

  private async transition(
    id: number,
    from: number[],
    set: { status: number; reviewer_id: number; refuse_reason?: string },
    tx: DbOrTx,
  ): Promise<void> {
    const moved = await this.reservations.transition(
      id,
      from,
      { ...set, updated_at: nowIso(this.clock.now()) },
      { notUserId: set.reviewer_id },
      tx,
    );
    if (!moved) {
      const applicant = await this.reservations.applicantOf(id, tx);
      if (applicant === undefined) throw NOT_FOUND();
      if (applicant === set.reviewer_id) throw SELF_REVIEW();
      throw conflict('RESERVATION_STATE', MSG.reservationNotReviewable);
    }
  }
}
