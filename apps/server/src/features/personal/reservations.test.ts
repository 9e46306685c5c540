import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { endOfLocalDay } from '../../lib/local-day.ts';
import { personalClient, personalData, type TestBook } from './personal-test-kit.ts';
import { makeReader } from '../../../test/factories.ts';

describe.each(DIALECTS)('reservations over HTTP (%s)', (dialect) => {
  let h: HttpHarness;
  let alice: string;
  let bob: string;
  let reviewer: string;
  let closed: TestBook;
  const as = (cookie: string) => personalClient(h, cookie);

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    ({ alice, bob, reviewer, closed } = await personalData(h));
  });
  afterAll(async () => h.close());

  it('refuses a reviewer every review step on their own application; another reviewer decides it', async () => {
    await h.context.services.auth.upsertAccount({
      loginName: 'selfcheck',
      password: GOOD_PASSWORD,
      roles: ['reader', 'reviewer'],
    });
    const self = as((await h.login('selfcheck', GOOD_PASSWORD)).cookie);
    const id = (
      await self.post('/api/reservations', {
        callNumber: 'T-900',
        title: '善本秘笈',
        applyDays: 'ANB0402',
        detailReason: '自審試驗',
      })
    ).json<{ reservation: { id: number } }>().reservation.id;
    for (const [step, body] of [
      ['approve', {}],
      ['take', {}],
      ['refuse', { reason: '不予批准' }],
    ] as const) {
      const response = await self.post(`/api/admin/reservations/${id}/${step}`, body);
      expect(response.statusCode, step).toBe(403);
      expect(response.json(), step).toMatchObject({
        code: 'RESERVATION_SELF_REVIEW',
        message: MSG.reservationSelfReview,
      });
    }
    // Nothing changed: still undecided, and no privilege.
    const mine = (await self.get('/api/me/reservations')).json<{
      records: Array<{ id: number; auditStatus: number }>;
    }>();
    expect(mine.records.find((r) => r.id === id)).toMatchObject({ auditStatus: 0 });
    expect((await self.get('/api/me/privileges')).json<{ total: number }>().total).toBe(0);
    expect((await as(reviewer).post(`/api/admin/reservations/${id}/approve`)).json()).toMatchObject({
      auditStatus: 2,
    });
  });

  it('reservations: same day approved at once; longer ones reviewed; refusal reason shown; withdraw; privilege ends', async () => {
    // A reader of this test's own: the privileges granted here open the restricted book to them only.
    const a = as((await makeReader(h, 'carol')).cookie);
    const durations = (await a.get('/api/reservations/durations')).json<Array<{ code: string }>>();
    expect(durations.map((d) => d.code)).toEqual(['ANB0401', 'ANB0402']);
    expect((await a.get('/api/reservations/lookup?callNumber=T-9')).json()).toEqual([
      { catalogId: closed.bookId, callNumber: 'T-900', title: '善本秘笈' },
    ]);

    // Validation texts of spec §5.
    expect(
      (await a.post('/api/reservations', { callNumber: '', title: '善本秘笈', applyDays: 'ANB0401' })).json(),
    ).toMatchObject({ message: MSG.reservationCallNumberRequired });
    expect(
      (await a.post('/api/reservations', { callNumber: 'T-900', title: '', applyDays: 'ANB0401' })).json(),
    ).toMatchObject({ message: MSG.reservationTitleRequired });
    expect(
      (await a.post('/api/reservations', { callNumber: 'T-900', title: '善本秘笈', applyDays: '' })).json(),
    ).toMatchObject({ message: MSG.reservationDurationRequired });
    expect(
      (
        await a.post('/api/reservations', { callNumber: 'T-900', title: '善本秘笈', applyDays: 'ANB0402' })
      ).json(),
    ).toMatchObject({ message: MSG.reservationReasonRequired });
    expect(
      (
        await a.post('/api/reservations', { callNumber: 'T-900', title: '別的書', applyDays: 'ANB0401' })
      ).json(),
    ).toMatchObject({ message: MSG.reservationUnknownBook });

    // Not readable outside the reading room until a privilege is granted.
    expect((await a.get(`/api/reader?catalogId=${closed.bookId}`)).statusCode).toBe(403);
    // (Page 1 at ≤ 300 px is the public cover; any other image is protected.)
    const tile = `/iiif/3/${closed.pageIds[1]}/0,0,512,400/max/0/default.jpg`;
    expect((await a.get(tile)).statusCode).toBe(403);

    const sameDay = await a.post('/api/reservations', {
      callNumber: 'T-900',
      title: '善本秘笈',
      applyDays: 'ANB0401',
    });
    expect(sameDay.json()).toMatchObject({
      message: MSG.reservationAutoApproved,
      reservation: { auditStatus: 2 },
    });
    // 2026-06-01T08:00Z is 16:00 in Shanghai: the privilege ends at midnight there, 16:00Z.
    expect(sameDay.json<{ reservation: { expiresAt: string } }>().reservation.expiresAt).toBe(
      '2026-06-01T16:00:00.000Z',
    );
    expect((await a.get(`/api/reader?catalogId=${closed.bookId}`)).statusCode).toBe(200);
    expect((await a.get(tile)).statusCode).toBe(200);
    expect((await as(bob).get(`/api/reader?catalogId=${closed.bookId}`)).statusCode).toBe(403);
    const vip = (await a.get('/api/me/privileges')).json<{
      total: number;
      records: Array<{ book: { catalogId: number } }>;
    }>();
    expect(vip.total).toBe(1);
    expect(vip.records[0]!.book.catalogId).toBe(closed.bookId);

    // After midnight in the library's time zone the privilege is gone, tiles included.
    h.clock.advance(8 * 3600 + 1);
    expect((await a.get(`/api/reader?catalogId=${closed.bookId}`)).statusCode).toBe(403);
    expect((await a.get(tile)).statusCode).toBe(403);
    expect((await a.get('/api/me/privileges')).json<{ total: number }>().total).toBe(0);

    // A longer one waits; the reviewer refuses it with a reason the applicant sees.
    const long = await a.post('/api/reservations', {
      callNumber: 'T-900',
      title: '善本秘笈',
      applyDays: 'ANB0402',
      detailReason: '校勘論文需要',
    });
    expect(long.json()).toMatchObject({ message: MSG.reservationSaved, reservation: { auditStatus: 0 } });
    const longId = long.json<{ reservation: { id: number } }>().reservation.id;
    expect((await a.get(`/api/reader?catalogId=${closed.bookId}`)).statusCode).toBe(403);
    expect((await a.get('/api/admin/reservations')).statusCode).toBe(403);
    const queue = (await as(reviewer).get('/api/admin/reservations')).json<{
      records: Array<{ id: number; applicant: string }>;
    }>();
    expect(queue.records.map((r) => r.id)).toContain(longId);
    expect((await as(reviewer).post(`/api/admin/reservations/${longId}/take`)).json()).toMatchObject({
      auditStatus: 1,
    });
    expect(
      (await as(reviewer).post(`/api/admin/reservations/${longId}/refuse`, { reason: ' ' })).json(),
    ).toMatchObject({ message: MSG.refuseReasonRequired });
    expect(
      (await as(reviewer).post(`/api/admin/reservations/${longId}/refuse`, { reason: '请到馆阅览' })).json(),
    ).toMatchObject({ auditStatus: 4, refuseReason: '请到馆阅览' });
    const mine = (await a.get('/api/me/reservations')).json<{
      records: Array<{ id: number; auditStatus: number; refuseReason: string | null }>;
    }>();
    expect(mine.records.find((r) => r.id === longId)).toMatchObject({
      auditStatus: 4,
      refuseReason: '请到馆阅览',
    });
    // A decided application can be neither withdrawn nor approved.
    expect((await a.post(`/api/me/reservations/${longId}/withdraw`)).json()).toMatchObject({
      message: MSG.reservationNotPending,
    });
    expect((await as(reviewer).post(`/api/admin/reservations/${longId}/approve`)).statusCode).toBe(409);

    // Another is approved: readable for seven days to the end of the seventh day.
    const second = (
      await a.post('/api/reservations', {
        callNumber: 'T-900',
        title: '善本秘笈',
        applyDays: 'ANB0402',
        detailReason: '撰寫提要',
      })
    ).json<{ reservation: { id: number } }>().reservation.id;
    expect((await as(bob).post(`/api/me/reservations/${second}/withdraw`)).statusCode).toBe(404);
    const approved = (await as(reviewer).post(`/api/admin/reservations/${second}/approve`)).json<{
      auditStatus: number;
      expiresAt: string;
    }>();
    expect(approved.auditStatus).toBe(2);
    expect(approved.expiresAt).toBe(endOfLocalDay(h.clock.now(), 'Asia/Shanghai', 7).toISOString());
    expect((await a.get(`/api/reader?catalogId=${closed.bookId}`)).statusCode).toBe(200);
    // Two reviewers approving at once grant it once.
    const third = (
      await a.post('/api/reservations', {
        callNumber: 'T-900',
        title: '善本秘笈',
        applyDays: 'ANB0402',
        detailReason: '再閱',
      })
    ).json<{ reservation: { id: number } }>().reservation.id;
    const results = await Promise.all([
      as(reviewer).post(`/api/admin/reservations/${third}/approve`),
      as(reviewer).post(`/api/admin/reservations/${third}/approve`),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);

    // One is withdrawn while undecided.
    const fourth = (
      await a.post('/api/reservations', {
        callNumber: 'T-900',
        title: '善本秘笈',
        applyDays: 'ANB0402',
        detailReason: '比對',
      })
    ).json<{ reservation: { id: number } }>().reservation.id;
    expect((await a.post(`/api/me/reservations/${fourth}/withdraw`)).json()).toMatchObject({
      auditStatus: 5,
    });
    expect((await as(bob).get('/api/me/reservations')).json<{ total: number }>().total).toBe(0);
  });

  it('durations are the administrators’ to relabel; the same-day one stays same-day', async () => {
    expect(
      (await as(alice).put('/api/admin/reservation-durations/ANB0402', { label: '十日', days: 10 }))
        .statusCode,
    ).toBe(403);
    await h.context.services.auth.upsertAccount({
      loginName: 'boss',
      password: GOOD_PASSWORD,
      roles: ['admin'],
    });
    const admin = as((await h.login('boss', GOOD_PASSWORD)).cookie);
    const original = (await admin.get('/api/reservations/durations')).json<
      Array<{ code: string; label: string; days: number }>
    >();
    expect(
      (await admin.put('/api/admin/reservation-durations/ANB0402', { label: '十日', days: 10 })).json(),
    ).toEqual({ code: 'ANB0402', label: '十日', days: 10 });
    expect(
      (await admin.put('/api/admin/reservation-durations/ANB0401', { label: '當天', days: 3 })).json(),
    ).toEqual({ code: 'ANB0401', label: '當天', days: 0 });
    // The library's durations as they were, for the other tests.
    for (const { code, label, days } of original)
      await admin.put(`/api/admin/reservation-durations/${code}`, { label, days });
  });
});

describe('endOfLocalDay', () => {
  it('ends at the next local midnight, across a daylight-saving change', () => {
    expect(endOfLocalDay(new Date('2026-06-01T15:59:00Z'), 'Asia/Shanghai').toISOString()).toBe(
      '2026-06-01T16:00:00.000Z',
    );
    expect(endOfLocalDay(new Date('2026-06-01T16:00:00Z'), 'Asia/Shanghai').toISOString()).toBe(
      '2026-06-02T16:00:00.000Z',
    );
    expect(endOfLocalDay(new Date('2026-06-01T12:00:00Z'), 'UTC', 2).toISOString()).toBe(
      '2026-06-04T00:00:00.000Z',
    );
    // Berlin leaves summer time on 25 October 2026: that day has 25 hours.
    expect(endOfLocalDay(new Date('2026-10-24T12:00:00Z'), 'Europe/Berlin', 1).toISOString()).toBe(
      '2026-10-25T23:00:00.000Z',
    );
  });
});
