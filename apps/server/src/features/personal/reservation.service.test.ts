import { beforeEach, describe, expect, it } from 'vitest';
import { MSG, RESERVATION_STATUS, SAME_DAY_DURATION } from '@guji/shared';
import type { DbOrTx } from '../../db/database.ts';
import type { Transact } from '../../db/query.ts';
import { FakeClock } from '../../../test/helpers.ts';
import type { Auditor } from '../../audit/auditor.ts';
import type { ReservationRepository, ReservationRow } from './reservation.repository.ts';
import { ReservationService } from './reservation.service.ts';

/**
 * The reservation rules with the repository kept in memory: which applications are approved at once,
 * who may withdraw, take, refuse and approve, how long an approval lets a reader in, and that each
 * decision's audit record is written in its transaction. The database-backed behaviour (both
 * dialects) is in personal's HTTP suites.
 */
interface Privilege {
  userId: number;
  bookId: number;
  reservationId: number;
  startsAt: string;
  expiresAt: string;
}

interface AuditRecord {
  actorId: number | null;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

class InMemoryReservations {
  durationsTable = [
    { code: SAME_DAY_DURATION, label: '当天', days: 0 },
    { code: 'ANB0402', label: '一周', days: 7 },
  ];
  books = [{ id: 11, title: '论语', call_number: 'DEMO-经-004' }];
  users = new Map([
    [1, '读者甲'],
    [2, '审核员乙'],
  ]);
  rows: ReservationRow[] = [];
  privileges: Privilege[] = [];
  /** The audit log, kept with the rest of the store so that a transaction rolls it back too. */
  audits: AuditRecord[] = [];
  /** When set, writing an audit record fails (after the change it records was made). */
  auditFails = false;

  auditor: Auditor = {
    record: (actorId, action, target, before, after) => {
      if (this.auditFails) return Promise.reject(new Error('audit log unavailable'));
      this.audits.push(structuredClone({ actorId, action, target, before, after }));
      return Promise.resolve();
    },
  };

  durations = () => Promise.resolve(this.durationsTable.map((d) => ({ ...d })));
  findDuration = (code: string) => Promise.resolve(this.durationsTable.find((d) => d.code === code));
  updateDuration = (code: string, change: { label: string; days: number }) => {
    const row = this.durationsTable.find((d) => d.code === code);
    if (row) Object.assign(row, change);
    return Promise.resolve(row && { ...row });
  };
  booksByCallNumberPrefix = (text: string, limit: number) =>
    Promise.resolve(this.books.filter((b) => b.call_number.startsWith(text)).slice(0, limit));
  bookByCallNumber = (callNumber: string) =>
    Promise.resolve(this.books.find((b) => b.call_number === callNumber));
  find = (id: number) => Promise.resolve(this.withNames(this.rows.find((r) => r.id === id)));
  applicantOf = (id: number) => Promise.resolve(this.rows.find((r) => r.id === id)?.user_id);
  create = (entry: {
    userId: number;
    bookId: number;
    callNumber: string;
    title: string;
    durationCode: string;
    reason: string;
    status: number;
    now: string;
  }) => {
    const id = this.rows.length + 1;
    this.rows.push({
      id,
      user_id: entry.userId,
      book_id: entry.bookId,
      call_number: entry.callNumber,
      title: entry.title,
      duration_code: entry.durationCode,
      reason: entry.reason,
      status: entry.status,
      refuse_reason: null,
      created_at: entry.now,
      updated_at: entry.now,
      expires_at: null,
      applicant: '',
      duration_label: null,
    });
    return Promise.resolve(id);
  };
  page = (
    where: { column: 'reservations.user_id' | 'reservations.status'; values: number[] },
    order: 'asc' | 'desc',
    offset: number,
    limit: number,
  ) => {
    const key = where.column === 'reservations.user_id' ? 'user_id' : 'status';
    const all = this.rows
      .filter((r) => where.values.includes(r[key]))
      .sort((a, b) => (order === 'asc' ? a.id - b.id : b.id - a.id));
    return Promise.resolve({
      rows: all.slice(offset, offset + limit).map((r) => this.withNames(r)!),
      total: all.length,
    });
  };
  transition = (
    id: number,
    from: number[],
    change: Partial<ReservationRow> & { status: number; updated_at: string },
    only: { userId?: number; notUserId?: number } = {},
  ) => {
    const row = this.rows.find((r) => r.id === id);
    if (!row || !from.includes(row.status)) return Promise.resolve(false);
    if (only.userId !== undefined && row.user_id !== only.userId) return Promise.resolve(false);
    if (only.notUserId !== undefined && row.user_id === only.notUserId) return Promise.resolve(false);
    const { reviewer_id: _reviewer, ...columns } = change as typeof change & { reviewer_id?: number };
    Object.assign(row, columns);
    return Promise.resolve(true);
  };
  setExpiry = (id: number, expiresAt: string) => {
    const row = this.rows.find((r) => r.id === id);
    if (row) row.expires_at = expiresAt;
    return Promise.resolve();
  };
  forApproval = (id: number) => {
    const row = this.rows.find((r) => r.id === id);
    if (!row) return Promise.resolve(undefined);
    const days = this.durationsTable.find((d) => d.code === row.duration_code)?.days ?? null;
    return Promise.resolve({ user_id: row.user_id, book_id: row.book_id, days });
  };
  grantPrivilege = (entry: Privilege) => {
    this.privileges.push({ ...entry });
    return Promise.resolve();
  };

  private withNames(row: ReservationRow | undefined): ReservationRow | undefined {
    if (!row) return undefined;
    const label = this.durationsTable.find((d) => d.code === row.duration_code)?.label ?? null;
    return { ...row, applicant: this.users.get(row.user_id) ?? '', duration_label: label };
  }

  /** A transaction: every change of `work` or none of them. */
  transact: Transact = async (work) => {
    const saved = {
      rows: structuredClone(this.rows),
      privileges: structuredClone(this.privileges),
      durationsTable: structuredClone(this.durationsTable),
      audits: structuredClone(this.audits),
    };
    try {
      return await work({} as DbOrTx);
    } catch (error) {
      Object.assign(this, saved);
      throw error;
    }
  };
}

const READER = 1;
const REVIEWER = 2;
const ADMIN = 3;
const WEEK = 'ANB0402';
const application = (applyDays: string) => ({
  callNumber: 'DEMO-经-004',
  title: '论语',
  applyDays,
  detailReason: '校勘',
});

describe('ReservationService rules', () => {
  let store: InMemoryReservations;
  let clock: FakeClock;
  let service: ReservationService;

  beforeEach(() => {
    store = new InMemoryReservations();
    // 16:00 on 1 June in Shanghai.
    clock = new FakeClock(new Date('2026-06-01T08:00:00.000Z'));
    service = new ReservationService(
      store as unknown as ReservationRepository,
      store.auditor,
      store.transact,
      clock,
      () => Promise.resolve('Asia/Shanghai'),
    );
  });

  it('approves a same-day application at once, until the end of the library’s day', async () => {
    const { reservation, message } = await service.apply(READER, application(SAME_DAY_DURATION));
    expect(message).toBe(MSG.reservationAutoApproved);
    expect(reservation.auditStatus).toBe(RESERVATION_STATUS.passed);
    // Midnight in Shanghai, not in UTC.
    expect(reservation.expiresAt).toBe('2026-06-01T16:00:00.000Z');
    expect(store.privileges).toEqual([
      expect.objectContaining({ userId: READER, bookId: 11, expiresAt: '2026-06-01T16:00:00.000Z' }),
    ]);
  });

  it('keeps any other duration waiting for a reviewer, with no privilege yet', async () => {
    const { reservation, message } = await service.apply(READER, application(WEEK));
    expect(message).toBe(MSG.reservationSaved);
    expect(reservation.auditStatus).toBe(RESERVATION_STATUS.unaudited);
    expect(reservation.durationLabel).toBe('一周');
    expect(store.privileges).toEqual([]);
  });

  it('refuses an unknown duration, or a call number that does not match the title', async () => {
    await expect(service.apply(READER, application('NOPE'))).rejects.toMatchObject({
      status: 400,
      message: MSG.reservationUnknownDuration,
    });
    await expect(service.apply(READER, { ...application(WEEK), title: '孟子' })).rejects.toMatchObject({
      status: 400,
      message: MSG.reservationUnknownBook,
    });
    expect(store.rows).toEqual([]);
  });

  it('lets an approval in until the end of the last day of the duration, in the library’s zone', async () => {
    const { reservation } = await service.apply(READER, application(WEEK));
    clock.advance(3600);
    const approved = await service.approve(REVIEWER, reservation.id);
    expect(approved.auditStatus).toBe(RESERVATION_STATUS.passed);
    expect(approved.expiresAt).toBe('2026-06-08T16:00:00.000Z');
    expect(store.privileges).toEqual([
      expect.objectContaining({
        userId: READER,
        reservationId: reservation.id,
        startsAt: '2026-06-01T09:00:00.000Z',
      }),
    ]);
  });

  it('never lets a reviewer decide their own application', async () => {
    const { reservation } = await service.apply(REVIEWER, application(WEEK));
    for (const decide of [
      () => service.take(REVIEWER, reservation.id),
      () => service.refuse(REVIEWER, reservation.id, '不合适'),
      () => service.approve(REVIEWER, reservation.id),
    ]) {
      await expect(decide()).rejects.toMatchObject({ status: 403, message: MSG.reservationSelfReview });
    }
    expect(store.rows[0]?.status).toBe(RESERVATION_STATUS.unaudited);
    expect(store.privileges).toEqual([]);
  });

  it('moves through the review states only forwards', async () => {
    const { reservation } = await service.apply(READER, application(WEEK));
    expect((await service.take(REVIEWER, reservation.id)).auditStatus).toBe(RESERVATION_STATUS.reviewing);
    const refused = await service.refuse(REVIEWER, reservation.id, '暂不开放');
    expect(refused).toMatchObject({ auditStatus: RESERVATION_STATUS.refused, refuseReason: '暂不开放' });
    await expect(service.approve(REVIEWER, reservation.id)).rejects.toMatchObject({
      status: 409,
      message: MSG.reservationNotReviewable,
    });
    await expect(service.withdraw(READER, reservation.id)).rejects.toMatchObject({
      status: 409,
      message: MSG.reservationNotPending,
    });
    expect(store.privileges).toEqual([]);
  });

  it('lets only the applicant withdraw, and only while undecided', async () => {
    const { reservation } = await service.apply(READER, application(WEEK));
    await expect(service.withdraw(REVIEWER, reservation.id)).rejects.toMatchObject({ status: 404 });
    const withdrawn = await service.withdraw(READER, reservation.id);
    expect(withdrawn.auditStatus).toBe(RESERVATION_STATUS.withdrawn);
    await expect(service.take(REVIEWER, reservation.id)).rejects.toMatchObject({ status: 409 });
  });

  it('keeps the same-day option same-day when a librarian edits its days', async () => {
    const edited = await service.updateDuration(ADMIN, SAME_DAY_DURATION, { label: '当日阅览', days: 3 });
    expect(edited).toEqual({ code: SAME_DAY_DURATION, label: '当日阅览', days: 0 });
    expect(await service.updateDuration(ADMIN, WEEK, { label: '两周', days: 14 })).toMatchObject({
      days: 14,
    });
    expect(store.audits.at(-1)).toEqual({
      actorId: ADMIN,
      action: 'duration.update',
      target: `duration:${WEEK}`,
      before: { code: WEEK, label: '一周', days: 7 },
      after: { code: WEEK, label: '两周', days: 14 },
    });
  });

  it('writes exactly one audit record for an approval, none for a failed one', async () => {
    const { reservation } = await service.apply(READER, application(WEEK));
    const own = (await service.apply(REVIEWER, application(WEEK))).reservation;
    await expect(service.approve(REVIEWER, own.id)).rejects.toMatchObject({ status: 403 });
    await expect(service.approve(REVIEWER, 99)).rejects.toMatchObject({ status: 404 });
    expect(store.audits).toEqual([]);

    await service.approve(REVIEWER, reservation.id);
    expect(store.audits).toEqual([
      {
        actorId: REVIEWER,
        action: 'reservation.approve',
        target: `reservation:${reservation.id}`,
        before: null,
        after: { auditStatus: RESERVATION_STATUS.passed, expiresAt: '2026-06-08T16:00:00.000Z' },
      },
    ]);
    await expect(service.approve(REVIEWER, reservation.id)).rejects.toMatchObject({ status: 409 });
    expect(store.audits).toHaveLength(1);
  });

  it('rolls a decision back with its audit record: no record, no change', async () => {
    const { reservation } = await service.apply(READER, application(WEEK));
    store.auditFails = true;
    await expect(service.approve(REVIEWER, reservation.id)).rejects.toThrow('audit log unavailable');
    await expect(service.refuse(REVIEWER, reservation.id, '暂不开放')).rejects.toThrow(
      'audit log unavailable',
    );
    await expect(service.updateDuration(ADMIN, WEEK, { label: '两周', days: 14 })).rejects.toThrow(
      'audit log unavailable',
    );
    expect(store.rows[0]).toMatchObject({ status: RESERVATION_STATUS.unaudited, expires_at: null });
    expect(store.privileges).toEqual([]);
    expect(store.durationsTable.find((d) => d.code === WEEK)).toMatchObject({ label: '一周', days: 7 });
    expect(store.audits).toEqual([]);

    store.auditFails = false;
    const refused = await service.refuse(REVIEWER, reservation.id, '暂不开放');
    expect(refused.auditStatus).toBe(RESERVATION_STATUS.refused);
    expect(store.audits).toEqual([
      expect.objectContaining({
        action: 'reservation.refuse',
        after: { auditStatus: RESERVATION_STATUS.refused, refuseReason: '暂不开放' },
      }),
    ]);
  });

  it('pages the reviewers’ queue oldest first and a reader’s own list newest first', async () => {
    for (let i = 0; i < 12; i++) await service.apply(READER, application(WEEK));
    const queue = await service.queue([RESERVATION_STATUS.unaudited], 1);
    expect(queue).toMatchObject({ total: 12, pages: 2, pageSize: 10 });
    expect(queue.records[0]?.id).toBe(1);
    const mine = await service.mine(READER, 2);
    expect(mine.records.map((r) => r.id)).toEqual([2, 1]);
  });
});
