import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { createBook } from '../../../test/catalog-factory.ts';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { endOfLocalDay } from '../../lib/local-day.ts';

/** Outside the reading room (the test config's reading room is loopback). */
const OUTSIDE = '203.0.113.9';

describe.each(DIALECTS)('personal area over HTTP (%s)', (dialect) => {
  let h: HttpHarness;
  let alice: string;
  let bob: string;
  let reviewer: string;
  let open: { bookId: number; pageIds: number[]; volumeIds: number[] };
  let closed: { bookId: number; pageIds: number[]; volumeIds: number[] };

  const as = (cookie: string) => ({
    get: (url: string) => h.request({ method: 'GET', url, cookie, remoteAddress: OUTSIDE }),
    del: (url: string) => h.request({ method: 'DELETE', url, cookie, remoteAddress: OUTSIDE }),
    post: (url: string, body: unknown = {}) =>
      h.request({ method: 'POST', url, body, cookie, remoteAddress: OUTSIDE }),
    put: (url: string, body: unknown = {}) =>
      h.request({ method: 'PUT', url, body, cookie, remoteAddress: OUTSIDE }),
    patch: (url: string, body: unknown) =>
      h.request({ method: 'PATCH', url, body, cookie, remoteAddress: OUTSIDE }),
  });

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    await h.register({ loginName: 'alice', phone: '13400000101' });
    await h.register({ loginName: 'bobby', phone: '13400000102' });
    alice = (await h.login('alice', GOOD_PASSWORD)).cookie;
    bob = (await h.login('bobby', GOOD_PASSWORD)).cookie;
    await h.context.services.auth.upsertAccount({
      loginName: 'checker',
      password: GOOD_PASSWORD,
      roles: ['reader', 'reviewer'],
    });
    reviewer = (await h.login('checker', GOOD_PASSWORD)).cookie;
    open = await createBook(h.context, {
      volumes: [2],
      texts: [['學而時習之', '不亦說乎']],
      callNumber: 'T-001',
    });
    closed = await createBook(h.context, {
      volumes: [2],
      isOpen: false,
      callNumber: 'T-900',
      title: '善本秘笈',
    });
  });
  afterAll(async () => h.close());

  it('collects and uncollects a book, and lists collections 10 a page; nobody sees another’s', async () => {
    const a = as(alice);
    expect((await a.put(`/api/books/${open.bookId}/collect`)).json()).toEqual({ collected: true });
    expect((await a.put(`/api/books/${open.bookId}/collect`)).statusCode).toBe(200); // idempotent
    expect((await a.get(`/api/books/${open.bookId}/collect`)).json()).toEqual({ collected: true });
    expect((await as(bob).get(`/api/books/${open.bookId}/collect`)).json()).toEqual({ collected: false });
    const list = (await a.get('/api/me/collections')).json<{
      total: number;
      pageSize: number;
      records: Array<{ book: { catalogId: number } }>;
    }>();
    expect(list).toMatchObject({ total: 1, pageSize: 10 });
    expect(list.records[0]!.book.catalogId).toBe(open.bookId);
    expect((await as(bob).get('/api/me/collections')).json()).toMatchObject({ total: 0, records: [] });
    // Bob cancelling changes only his own (absent) row.
    await as(bob).del(`/api/books/${open.bookId}/collect`);
    expect((await a.get(`/api/books/${open.bookId}/collect`)).json()).toEqual({ collected: true });
    expect((await a.del(`/api/books/${open.bookId}/collect`)).json()).toEqual({ collected: false });
    expect((await h.request({ method: 'GET', url: '/api/me/collections' })).statusCode).toBe(401);
  });

  it('downloads a page as a stamped JPEG and as text, a volume as PDF, and lists them; access rules apply', async () => {
    const a = as(alice);
    const jpg = await a.get(`/api/pages/${open.pageIds[0]}/download.jpg`);
    expect(jpg.statusCode).toBe(200);
    expect(jpg.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(jpg.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBe(600);
    expect(meta.height).toBeGreaterThan(400); // the footer band
    const txt = await a.get(`/api/pages/${open.pageIds[0]}/download.txt`);
    expect(txt.body).toContain('學而時習之');
    const pdf = await a.get(`/api/volumes/${open.volumeIds[0]}/download.pdf`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect((await PDFDocument.load(pdf.rawPayload)).getPageCount()).toBe(2);

    const list = (await a.get('/api/me/downloads')).json<{
      total: number;
      records: Array<{ id: number; kind: string; url: string }>;
    }>();
    expect(list.total).toBe(3);
    expect(list.records.map((d) => d.kind)).toEqual(['pdf', 'text', 'image']);
    expect(list.records[2]!.url).toBe(`/api/pages/${open.pageIds[0]}/download.jpg`);

    // A restricted book outside the reading room: refused, and nothing recorded.
    const refused = await a.get(`/api/pages/${closed.pageIds[0]}/download.jpg`);
    expect(refused.statusCode).toBe(403);
    expect((await a.get(`/api/volumes/${closed.volumeIds[0]}/download.pdf`)).statusCode).toBe(403);
    expect(
      (await h.request({ method: 'GET', url: `/api/pages/${open.pageIds[0]}/download.jpg` })).statusCode,
    ).toBe(401);
    expect((await a.get('/api/me/downloads')).json<{ total: number }>().total).toBe(3);

    // Bob can neither see nor delete Alice's downloads.
    expect((await as(bob).get('/api/me/downloads')).json<{ total: number }>().total).toBe(0);
    expect((await as(bob).del(`/api/me/downloads/${list.records[0]!.id}`)).statusCode).toBe(404);
    expect((await a.del(`/api/me/downloads/${list.records[0]!.id}`)).statusCode).toBe(200);

    // The site can switch whole-volume PDFs off.
    await h.context.services.settings.update({ downloadVolumePdf: false });
    const off = await a.get(`/api/volumes/${open.volumeIds[0]}/download.pdf`);
    expect(off.statusCode).toBe(403);
    expect(off.json()).toMatchObject({ message: MSG.downloadVolumeOff });
    await h.context.services.settings.update({ downloadVolumePdf: true });
  });

  it('comments: limits and messages, newest first with nickname, delete own only, staff hide', async () => {
    const a = as(alice);
    const url = `/api/books/${open.bookId}/comments`;
    expect((await a.post(url, { text: '   ' })).json()).toMatchObject({ message: MSG.commentEmpty });
    expect((await a.post(url, { text: '好'.repeat(501) })).json()).toMatchObject({
      message: MSG.commentTooLong,
    });
    expect((await a.post(url, { text: '好'.repeat(500) })).statusCode).toBe(200);
    expect((await a.post(url, { text: '<script>alert(1)</script>' })).json()).toMatchObject({
      message: MSG.noHtml,
    });
    expect((await a.post(url, { text: '1 < 2 的版本更早' })).statusCode).toBe(200);
    expect((await as(bob).post(url, { text: '此本字跡清晰' })).statusCode).toBe(200);
    expect((await h.request({ method: 'POST', url, body: { text: '匿名' } })).statusCode).toBe(401);

    const visitorView = (await h.request({ method: 'GET', url })).json<{
      total: number;
      records: Array<{ id: number; text: string; nickName: string; mine: boolean }>;
    }>();
    expect(visitorView.total).toBe(3);
    expect(visitorView.records[0]).toMatchObject({ text: '此本字跡清晰', nickName: 'bobby', mine: false });
    const bobsId = visitorView.records[0]!.id;
    const mine = (await a.get('/api/me/comments')).json<{ total: number; records: Array<{ id: number }> }>();
    expect(mine.total).toBe(2);
    expect((await a.del(`/api/me/comments/${bobsId}`)).statusCode).toBe(404);
    expect((await a.del(`/api/me/comments/${mine.records[0]!.id}`)).statusCode).toBe(200);

    // Hiding needs the catalogue permission; a hidden comment leaves the public list.
    expect((await a.put(`/api/admin/comments/${bobsId}/hidden`, { hidden: true })).statusCode).toBe(403);
    await h.context.services.auth.upsertAccount({
      loginName: 'editor',
      password: GOOD_PASSWORD,
      roles: ['reader', 'catalogAdmin'],
    });
    const editor = (await h.login('editor', GOOD_PASSWORD)).cookie;
    expect((await as(editor).put(`/api/admin/comments/${bobsId}/hidden`, { hidden: true })).statusCode).toBe(
      200,
    );
    expect((await h.request({ method: 'GET', url })).json<{ total: number }>().total).toBe(1);
    expect(
      (await as(bob).get('/api/me/comments')).json<{ records: Array<{ hidden: boolean }> }>().records[0]!
        .hidden,
    ).toBe(true);
  });

  it('notes: private rectangles on a page, edited and deleted by their author only, exported as Web Annotations', async () => {
    const a = as(alice);
    const created = await a.post('/api/notes', {
      imageId: open.pageIds[1],
      x: 10,
      y: 20,
      w: 100,
      h: 50,
      text: '此處異文',
    });
    expect(created.statusCode).toBe(200);
    const note = created.json<{ id: number; x: number; w: number }>();
    // A rectangle past the edge is clipped to the image.
    const clipped = (
      await a.post('/api/notes', { imageId: open.pageIds[1], x: 550, y: 0, w: 500, h: 10, text: '邊' })
    ).json<{ w: number }>();
    expect(clipped.w).toBe(50);
    expect(
      (await a.post('/api/notes', { imageId: open.pageIds[1], x: 0, y: 0, w: 5, h: 5, text: '' })).json(),
    ).toMatchObject({ message: MSG.noteEmpty });
    // No notes on a book one may not read.
    expect(
      (await a.post('/api/notes', { imageId: closed.pageIds[0], x: 0, y: 0, w: 5, h: 5, text: '偷看' }))
        .statusCode,
    ).toBe(403);

    expect((await a.get(`/api/pages/${open.pageIds[1]}/notes`)).json<unknown[]>()).toHaveLength(2);
    expect((await as(bob).get(`/api/pages/${open.pageIds[1]}/notes`)).json<unknown[]>()).toHaveLength(0);
    expect((await as(bob).patch(`/api/notes/${note.id}`, { text: '改' })).statusCode).toBe(404);
    expect((await as(bob).del(`/api/notes/${note.id}`)).statusCode).toBe(404);
    expect((await a.patch(`/api/notes/${note.id}`, { text: '此處異文：一作「悅」' })).json()).toMatchObject({
      text: '此處異文：一作「悅」',
    });

    const list = (await a.get('/api/me/notes')).json<{
      total: number;
      records: Array<{ pageNumber: number; volumeName: string }>;
    }>();
    expect(list.total).toBe(2);
    expect(list.records[0]).toMatchObject({ pageNumber: 2, volumeName: '卷一' });

    const exported = await a.get('/api/me/notes/export');
    expect(exported.headers['content-type']).toContain('application/ld+json');
    const page = exported.json<Record<string, unknown>>();
    expect(validateAnnotationPage(page)).toEqual([]);
    // The schema does catch a broken export.
    expect(validateAnnotationPage({ ...page, items: [{ type: 'Annotation' }] })).not.toEqual([]);
    const items = page.items as Array<{ target: { selector: { value: string }; source: { id: string } } }>;
    expect(items.map((i) => i.target.selector.value)).toContain('xywh=10,20,100,50');
    expect(items[0]!.target.source.id).toMatch(
      new RegExp(`/iiif/presentation/volumes/${open.volumeIds[0]}/canvas/${open.pageIds[1]}$`),
    );
    expect((await as(bob).get('/api/me/notes/export')).json<{ items: unknown[] }>().items).toHaveLength(0);
    expect((await a.del(`/api/notes/${note.id}`)).statusCode).toBe(200);
  });

  it('note ids resolve: GET /api/notes/{id} is the exported annotation, for its author only', async () => {
    const a = as(alice);
    const note = (
      await a.post('/api/notes', { imageId: open.pageIds[0], x: 5, y: 6, w: 70, h: 80, text: '可資參證' })
    ).json<{ id: number }>();
    const exported = (await a.get('/api/me/notes/export')).json<{ items: Array<{ id: string }> }>();
    const item = exported.items.find((i) => i.id.endsWith(`/api/notes/${note.id}`));
    expect(item).toBeDefined();
    // The exported id, dereferenced, gives the same annotation with its JSON-LD context.
    const one = await a.get(new URL(item!.id).pathname);
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-type']).toMatch(
      /^application\/ld\+json; profile="http:\/\/www\.w3\.org\/ns\/anno\.jsonld"(; charset=utf-8)?$/,
    );
    expect(one.headers['cache-control']).toBe('private, no-store');
    expect(one.json()).toEqual({ '@context': 'http://www.w3.org/ns/anno.jsonld', ...item });
    // It meets the Web Annotation MUSTs (checked as the one item of a page).
    const { '@context': context, ...annotation } = one.json<Record<string, unknown>>();
    expect(
      validateAnnotationPage({
        '@context': context,
        id: `${item!.id}/page`,
        type: 'AnnotationPage',
        items: [annotation],
      }),
    ).toEqual([]);
    // Nobody else, signed in or not, learns that it exists.
    const bobs = await as(bob).get(`/api/notes/${note.id}`);
    expect(bobs.statusCode).toBe(404);
    expect(bobs.json()).toEqual((await a.get('/api/notes/999999')).json());
    expect((await h.request({ method: 'GET', url: `/api/notes/${note.id}` })).statusCode).toBe(401);
    expect((await a.get('/api/notes/abc')).statusCode).toBe(400);
    expect((await a.del(`/api/notes/${note.id}`)).statusCode).toBe(200);
    expect((await a.get(`/api/notes/${note.id}`)).statusCode).toBe(404);
  });

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

  it('footprints: one row per book with the last page, removable one by one or all, per user', async () => {
    const a = as(alice);
    expect((await a.get(`/api/reader?catalogId=${open.bookId}`)).statusCode).toBe(200);
    await a.post('/api/me/footprints', { imageId: open.pageIds[1] });
    expect((await a.post('/api/me/footprints', { imageId: closed.pageIds[0] })).statusCode).toBe(403);
    const list = (await a.get('/api/me/footprints')).json<{
      total: number;
      records: Array<{ book: { catalogId: number }; pageNumber: number }>;
    }>();
    expect(list.total).toBe(1);
    expect(list.records[0]).toMatchObject({ book: { catalogId: open.bookId }, pageNumber: 2 });
    expect((await as(bob).get('/api/me/footprints')).json<{ total: number }>().total).toBe(0);
    await as(bob).del(`/api/me/footprints/${open.bookId}`);
    expect((await a.get('/api/me/footprints')).json<{ total: number }>().total).toBe(1);
    await a.del(`/api/me/footprints/${open.bookId}`);
    expect((await a.get('/api/me/footprints')).json<{ total: number }>().total).toBe(0);
  });

  it('reservations: same day approved at once; longer ones reviewed; refusal reason shown; withdraw; privilege ends', async () => {
    // A reader of this test's own: the privileges granted here open the restricted book to them only.
    await h.register({ loginName: 'carol', phone: '13400000103' });
    const a = as((await h.login('carol', GOOD_PASSWORD)).cookie);
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

/**
 * A JSON schema of the MUST properties of the W3C Web Annotation Data Model (§3.1 annotations: @context,
 * id, type, target; §3.2 bodies and targets: an IRI or a resource with an id, TextualBody with a value;
 * §4.2 selectors: a type and a value; §4.3 collections: AnnotationPage with items) for what we export.
 */
const IRI = { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9+.-]*:' };
const ANNOTATION_PAGE_SCHEMA = {
  type: 'object',
  required: ['@context', 'id', 'type', 'items'],
  properties: {
    '@context': {
      anyOf: [
        { const: 'http://www.w3.org/ns/anno.jsonld' },
        { type: 'array', contains: { const: 'http://www.w3.org/ns/anno.jsonld' } },
      ],
    },
    id: IRI,
    type: { const: 'AnnotationPage' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'type', 'target'],
        properties: {
          id: IRI,
          type: { const: 'Annotation' },
          created: { type: 'string', format: 'date-time' },
          modified: { type: 'string', format: 'date-time' },
          body: {
            anyOf: [
              IRI,
              {
                type: 'object',
                required: ['type', 'value'],
                properties: { type: { const: 'TextualBody' }, value: { type: 'string' } },
              },
              { type: 'object', required: ['id'], properties: { id: IRI } },
            ],
          },
          target: {
            anyOf: [
              IRI,
              {
                type: 'object',
                required: ['source'],
                properties: {
                  source: { anyOf: [IRI, { type: 'object', required: ['id'], properties: { id: IRI } }] },
                  selector: {
                    type: 'object',
                    required: ['type', 'value'],
                    properties: {
                      type: { const: 'FragmentSelector' },
                      value: { type: 'string', pattern: '^xywh=(pixel:)?\\d+,\\d+,\\d+,\\d+$' },
                      conformsTo: IRI,
                    },
                  },
                },
              },
            ],
          },
        },
      },
    },
  },
};

/** Problems the schema finds (empty when the document conforms). */
function validateAnnotationPage(doc: unknown): string[] {
  const ajv = new Ajv({ allErrors: true, validateFormats: false });
  const validate = ajv.compile(ANNOTATION_PAGE_SCHEMA);
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}
