import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { personalClient, personalData, type TestBook } from './personal-test-kit.ts';

/**
 * Reviewers' and staff's decisions in the personal area (approving or refusing a reservation, a
 * duration's change, hiding a comment) are each one transaction with their audit record: when the
 * record cannot be written, the decision is not made either.
 */
describe.each(DIALECTS)('personal-area decisions and their audit records (%s)', (dialect) => {
  let h: HttpHarness;
  let alice: string;
  let reviewer: string;
  let staff: string;
  let open: TestBook;
  const as = (cookie: string) => personalClient(h, cookie);
  /** The audit log's targets of one action. */
  const audited = async (action: string) =>
    (await h.context.repos.audit.page({ action, offset: 0, limit: 50 })).rows.map((r) => r.target);
  const breakAuditLog = () =>
    vi.spyOn(h.context.services.admin, 'record').mockRejectedValue(new Error('audit log unavailable'));

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    ({ alice, reviewer, open } = await personalData(h));
    await h.context.services.auth.upsertAccount({
      loginName: 'auditstaff',
      password: GOOD_PASSWORD,
      roles: ['reader', 'admin', 'catalogAdmin'],
    });
    staff = (await h.login('auditstaff', GOOD_PASSWORD)).cookie;
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => h.close());

  it('makes no decision whose audit record fails, and one record for each decision made', async () => {
    const a = as(alice);
    const id = (
      await a.post('/api/reservations', {
        callNumber: 'T-900',
        title: '善本秘笈',
        applyDays: 'ANB0402',
        detailReason: '校勘',
      })
    ).json<{ reservation: { id: number } }>().reservation.id;
    const comments = `/api/books/${open.bookId}/comments`;
    expect((await a.post(comments, { text: '此本可讀' })).statusCode).toBe(200);
    const [comment] = (await h.request({ method: 'GET', url: comments })).json<{
      records: Array<{ id: number }>;
    }>().records;
    const durations = (await a.get('/api/reservations/durations')).json<unknown>();

    breakAuditLog();
    const decisions = [
      () => as(reviewer).post(`/api/admin/reservations/${id}/approve`),
      () => as(reviewer).post(`/api/admin/reservations/${id}/refuse`, { reason: '暂不开放' }),
      () => as(staff).put('/api/admin/reservation-durations/ANB0402', { label: '十日', days: 10 }),
      () => as(staff).put(`/api/admin/comments/${comment!.id}/hidden`, { hidden: true }),
    ];
    for (const decide of decisions) expect((await decide()).statusCode).toBe(500);
    vi.restoreAllMocks();

    // Nothing changed: still undecided, no privilege, the same durations, the comment still shown.
    const mine = (await a.get('/api/me/reservations')).json<{
      records: Array<{ id: number; auditStatus: number; expiresAt: string | null }>;
    }>();
    expect(mine.records.find((r) => r.id === id)).toMatchObject({ auditStatus: 0, expiresAt: null });
    expect((await a.get('/api/me/privileges')).json<{ total: number }>().total).toBe(0);
    expect((await a.get('/api/reservations/durations')).json()).toEqual(durations);
    expect((await h.request({ method: 'GET', url: comments })).json<{ total: number }>().total).toBe(1);
    for (const action of ['reservation.approve', 'reservation.refuse', 'duration.update', 'comment.hide'])
      expect(await audited(action), action).toEqual([]);

    // With the audit log back, each decision is made with exactly one record.
    expect((await as(reviewer).post(`/api/admin/reservations/${id}/approve`)).json()).toMatchObject({
      auditStatus: 2,
    });
    expect(
      (await as(staff).put(`/api/admin/comments/${comment!.id}/hidden`, { hidden: true })).statusCode,
    ).toBe(200);
    expect(await audited('reservation.approve')).toEqual([`reservation:${id}`]);
    expect(await audited('comment.hide')).toEqual([`comment:${comment!.id}`]);
  });
});
