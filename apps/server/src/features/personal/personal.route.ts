import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AnnotationPageExport,
  BookComment,
  CallNumberMatch,
  CollectionItem,
  CollectState,
  CommentRequest,
  CreatedReservation,
  DownloadItem,
  ErrorBody,
  Footprint,
  FootprintPageRequest,
  MSG,
  MyComment,
  MyNote,
  Note,
  NoteRequest,
  NoteUpdateRequest,
  OkBody,
  paged,
  Privilege,
  RefuseRequest,
  Reservation,
  ReservationDuration,
  ReservationRequest,
  RESERVATION_STATUS,
  UpdateDurationRequest,
  WebAnnotationDocument,
  type WebAnnotation,
} from '@guji/shared';
import { requireRole, requireUser, viewerOf } from '../../http/session.ts';
import { canvasUrl } from '../iiif/presentation.ts';
import { manifestUrl } from '../catalog/catalog.service.ts';
import type { DownloadFile } from './download.service.ts';
import type { RouteModule } from '../../http/route-module.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const Id = z.coerce.number().int().positive();
const IdParams = z.object({ id: Id });
const PageNum = z.object({ pageNum: z.coerce.number().int().min(1).default(1) });

/**
 * The personal area (issue 5): collections, downloads, comments, notes, footprints, privileges and
 * reservations with their review. Every `/api/me/…` call and every change is the signed-in user's own.
 */
export const personalRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { personal, reservations, downloads } = context.services;

  /** The signed-in user as a viewer of books (access rule), with a name for download footers. */
  const downloader = (request: FastifyRequest) => {
    const user = requireUser(request);
    return { ...viewerOf(request), userId: user.id, name: user.nick_name || user.login_name };
  };
  const me = (request: FastifyRequest) => ({ ...viewerOf(request), userId: requireUser(request).id });
  const baseOf = (request: FastifyRequest) =>
    context.config.publicOrigin?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;

  // Collections

  r.get(
    '/api/books/:id/collect',
    {
      schema: {
        tags: ['personal'],
        summary: 'Whether I collected a book',
        params: IdParams,
        response: { 200: CollectState, ...errors },
      },
    },
    async (request) => ({
      collected: await personal.isCollected(requireUser(request).id, request.params.id),
    }),
  );
  r.put(
    '/api/books/:id/collect',
    {
      schema: {
        tags: ['personal'],
        summary: 'Collect a book (spec saveCollect)',
        params: IdParams,
        response: { 200: CollectState, ...errors },
      },
    },
    async (request) => {
      await personal.collect(requireUser(request).id, request.params.id);
      return { collected: true };
    },
  );
  r.delete(
    '/api/books/:id/collect',
    {
      schema: {
        tags: ['personal'],
        summary: 'Cancel a collection (spec cancelCollect)',
        params: IdParams,
        response: { 200: CollectState, ...errors },
      },
    },
    async (request) => {
      await personal.uncollect(requireUser(request).id, request.params.id);
      return { collected: false };
    },
  );
  r.get(
    '/api/me/collections',
    {
      schema: {
        tags: ['personal'],
        summary: 'My collections, 10 a page (spec queryCollectByPage)',
        querystring: PageNum,
        response: { 200: paged(CollectionItem), ...errors },
      },
    },
    (request) => personal.collections(requireUser(request).id, request.query.pageNum),
  );

  // Downloads

  const send = (reply: FastifyReply, file: DownloadFile) =>
    reply
      .header('content-type', file.contentType)
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
      .send(file.data);

  r.get(
    '/api/pages/:id/download.jpg',
    {
      schema: {
        tags: ['personal'],
        summary: 'Download a page as JPEG (recorded; access rule applies)',
        params: IdParams,
      },
    },
    async (request, reply) => send(reply, await downloads.pageImage(downloader(request), request.params.id)),
  );
  r.get(
    '/api/pages/:id/download.txt',
    {
      schema: {
        tags: ['personal'],
        summary: "Download a page's OCR text (recorded; access rule applies)",
        params: IdParams,
      },
    },
    async (request, reply) => send(reply, await downloads.pageText(downloader(request), request.params.id)),
  );
  r.get(
    '/api/volumes/:id/download.pdf',
    {
      schema: {
        tags: ['personal'],
        summary: 'Download a whole volume as PDF when the site allows it (recorded)',
        params: IdParams,
      },
    },
    async (request, reply) => send(reply, await downloads.volumePdf(downloader(request), request.params.id)),
  );
  r.get(
    '/api/me/downloads',
    {
      schema: {
        tags: ['personal'],
        summary: 'My downloads, 10 a page (spec queryDownloadByPage)',
        querystring: PageNum,
        response: { 200: paged(DownloadItem), ...errors },
      },
    },
    (request) => personal.downloads(requireUser(request).id, request.query.pageNum),
  );
  r.delete(
    '/api/me/downloads/:id',
    {
      schema: {
        tags: ['personal'],
        summary: 'Remove a download from my list',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await personal.deleteDownload(requireUser(request).id, request.params.id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  );

  // Comments

  r.get(
    '/api/books/:id/comments',
    {
      schema: {
        tags: ['personal'],
        summary: "A book's comments, newest first, 10 a page",
        params: IdParams,
        querystring: PageNum,
        response: { 200: paged(BookComment), ...errors },
      },
    },
    (request) => personal.bookComments(request.params.id, viewerOf(request), request.query.pageNum),
  );
  r.post(
    '/api/books/:id/comments',
    {
      schema: {
        tags: ['personal'],
        summary: 'Comment on a book (plain text, 1–500 characters)',
        params: IdParams,
        body: CommentRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await personal.addComment(requireUser(request).id, request.params.id, request.body.text);
      return { ok: true as const, message: MSG.commentPosted };
    },
  );
  r.get(
    '/api/me/comments',
    {
      schema: {
        tags: ['personal'],
        summary: 'My comments, 10 a page',
        querystring: PageNum,
        response: { 200: paged(MyComment), ...errors },
      },
    },
    (request) => personal.myComments(requireUser(request).id, request.query.pageNum),
  );
  r.delete(
    '/api/me/comments/:id',
    {
      schema: {
        tags: ['personal'],
        summary: 'Delete one of my comments',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await personal.deleteComment(requireUser(request).id, request.params.id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  );
  r.put(
    '/api/admin/comments/:id/hidden',
    {
      schema: {
        tags: ['admin'],
        summary: 'Hide a comment, or show it again (catalogue staff)',
        params: IdParams,
        body: z.object({ hidden: z.boolean() }),
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const user = requireRole(request, 'catalogAdmin');
      await personal.setCommentHidden(user.id, user.roles, request.params.id, request.body.hidden);
      await context.services.admin.record(
        user.id,
        request.body.hidden ? 'comment.hide' : 'comment.show',
        `comment:${request.params.id}`,
        { hidden: !request.body.hidden },
        { hidden: request.body.hidden },
      );
      return { ok: true as const };
    },
  );

  // Notes

  r.get(
    '/api/pages/:id/notes',
    {
      schema: {
        tags: ['personal'],
        summary: 'My notes on a page',
        params: IdParams,
        response: { 200: z.array(Note), ...errors },
      },
    },
    (request) => personal.pageNotes(me(request), request.params.id),
  );
  r.post(
    '/api/notes',
    {
      schema: {
        tags: ['personal'],
        summary: 'Write a note on a rectangle of a page (image pixels)',
        body: NoteRequest,
        response: { 200: Note, ...errors },
      },
    },
    (request) => {
      const { imageId, text, ...rect } = request.body;
      return personal.addNote(me(request), imageId, rect, text);
    },
  );
  r.patch(
    '/api/notes/:id',
    {
      schema: {
        tags: ['personal'],
        summary: 'Edit one of my notes',
        params: IdParams,
        body: NoteUpdateRequest,
        response: { 200: Note, ...errors },
      },
    },
    (request) => personal.updateNote(requireUser(request).id, request.params.id, request.body.text),
  );
  r.delete(
    '/api/notes/:id',
    {
      schema: {
        tags: ['personal'],
        summary: 'Delete one of my notes',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await personal.deleteNote(requireUser(request).id, request.params.id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  );
  r.get(
    '/api/me/notes',
    {
      schema: {
        tags: ['personal'],
        summary: 'My notes, 10 a page (Notation channel)',
        querystring: PageNum,
        response: { 200: paged(MyNote), ...errors },
      },
    },
    (request) => personal.myNotes(requireUser(request).id, request.query.pageNum),
  );
  r.get(
    '/api/notes/:id',
    {
      schema: {
        tags: ['personal'],
        summary:
          'One of my notes as a W3C Web Annotation (the id the export gives it; another user’s note is 404)',
        params: IdParams,
        response: { 200: WebAnnotationDocument, ...errors },
      },
    },
    async (request, reply) => {
      const note = await personal.myNote(requireUser(request).id, request.params.id);
      void reply
        .header('content-type', ANNOTATION_TYPE)
        .header('cache-control', 'private, no-store')
        .header('vary', 'cookie');
      return { '@context': ANNO_CONTEXT, ...toWebAnnotation(baseOf(request), note) };
    },
  );
  r.get(
    '/api/me/notes/export',
    {
      schema: {
        tags: ['personal'],
        summary:
          'All my notes as a W3C Web Annotation AnnotationPage (JSON-LD; targets: IIIF canvases with xywh)',
        response: { 200: AnnotationPageExport, ...errors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const base = baseOf(request);
      const notes = await personal.myNotes(user.id, 1, 100_000);
      void reply
        .header('content-type', ANNOTATION_TYPE)
        .header('content-disposition', "attachment; filename*=UTF-8''notes.jsonld");
      return {
        '@context': ANNO_CONTEXT,
        id: `${base}/api/me/notes/export`,
        type: 'AnnotationPage' as const,
        items: notes.records.map((note) => toWebAnnotation(base, note)),
      };
    },
  );

  // Footprints

  r.post(
    '/api/me/footprints',
    {
      schema: {
        tags: ['personal'],
        summary: 'The reader turned to a page: my footprint in the book keeps it',
        body: FootprintPageRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const viewer = me(request);
      await personal.footprintPage(viewer, request.body.imageId);
      await context.services.usage.count('pageViews', viewer.userId);
      return { ok: true as const };
    },
  );
  r.get(
    '/api/me/footprints',
    {
      schema: {
        tags: ['personal'],
        summary: 'My footprints: one row per book, newest first (spec queryBrowseByPage)',
        querystring: PageNum,
        response: { 200: paged(Footprint), ...errors },
      },
    },
    (request) => personal.footprints(requireUser(request).id, request.query.pageNum),
  );
  r.delete(
    '/api/me/footprints/:id',
    {
      schema: {
        tags: ['personal'],
        summary: 'Remove my footprints in one book (id: catalogId)',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await personal.deleteFootprints(requireUser(request).id, request.params.id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  );
  r.delete(
    '/api/me/footprints',
    {
      schema: {
        tags: ['personal'],
        summary: 'Remove all my footprints',
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await personal.deleteFootprints(requireUser(request).id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  );

  // Privileges

  r.get(
    '/api/me/privileges',
    {
      schema: {
        tags: ['personal'],
        summary: 'My approved, unexpired privileges (Vip channel)',
        querystring: PageNum,
        response: { 200: paged(Privilege), ...errors },
      },
    },
    (request) => personal.privileges(requireUser(request).id, request.query.pageNum),
  );

  // Reservations

  r.get(
    '/api/reservations/durations',
    {
      schema: {
        tags: ['reservations'],
        summary: 'Reservation durations (spec queryApplyDic)',
        response: { 200: z.array(ReservationDuration) },
      },
    },
    () => reservations.durations(),
  );
  r.get(
    '/api/reservations/lookup',
    {
      schema: {
        tags: ['reservations'],
        summary: 'Books whose call number starts with the text (spec queryCatalogList)',
        querystring: z.object({ callNumber: z.string().max(100).default('') }),
        response: { 200: z.array(CallNumberMatch), ...errors },
      },
    },
    (request) => {
      requireUser(request);
      return reservations.lookup(request.query.callNumber);
    },
  );
  r.post(
    '/api/reservations',
    {
      schema: {
        tags: ['reservations'],
        summary: 'Apply for a reservation (spec saveApply)',
        body: ReservationRequest,
        response: { 200: CreatedReservation, ...errors },
      },
    },
    (request) => reservations.apply(requireUser(request).id, request.body),
  );
  r.get(
    '/api/me/reservations',
    {
      schema: {
        tags: ['reservations'],
        summary: 'My applications, newest first (spec queryApplyList)',
        querystring: PageNum,
        response: { 200: paged(Reservation), ...errors },
      },
    },
    (request) => reservations.mine(requireUser(request).id, request.query.pageNum),
  );
  r.post(
    '/api/me/reservations/:id/withdraw',
    {
      schema: {
        tags: ['reservations'],
        summary: 'Withdraw one of my applications while undecided',
        params: IdParams,
        response: { 200: Reservation, ...errors },
      },
    },
    (request) => reservations.withdraw(requireUser(request).id, request.params.id),
  );

  r.get(
    '/api/admin/reservations',
    {
      schema: {
        tags: ['admin'],
        summary: 'Reservation review queue (reviewers): by status, oldest first',
        querystring: PageNum.extend({
          status: z
            .string()
            .regex(/^\d(,\d)*$/)
            .default(`${RESERVATION_STATUS.unaudited},${RESERVATION_STATUS.reviewing}`),
        }),
        response: { 200: paged(Reservation), ...errors },
      },
    },
    (request) => {
      requireRole(request, 'reviewer');
      return reservations.queue(request.query.status.split(',').map(Number), request.query.pageNum);
    },
  );
  r.post(
    '/api/admin/reservations/:id/take',
    {
      schema: {
        tags: ['admin'],
        summary: 'Take an application under review (0 → 1)',
        params: IdParams,
        response: { 200: Reservation, ...errors },
      },
    },
    (request) => reservations.take(requireRole(request, 'reviewer').id, request.params.id),
  );
  r.post(
    '/api/admin/reservations/:id/approve',
    {
      schema: {
        tags: ['admin'],
        summary: 'Approve (→ 2): grants the privilege until the end of its last day',
        params: IdParams,
        response: { 200: Reservation, ...errors },
      },
    },
    async (request) => {
      const user = requireRole(request, 'reviewer');
      const after = await reservations.approve(user.id, request.params.id);
      await context.services.admin.record(
        user.id,
        'reservation.approve',
        `reservation:${request.params.id}`,
        null,
        {
          auditStatus: after.auditStatus,
          expiresAt: after.expiresAt,
        },
      );
      return after;
    },
  );
  r.post(
    '/api/admin/reservations/:id/refuse',
    {
      schema: {
        tags: ['admin'],
        summary: 'Refuse with a reason (→ 4)',
        params: IdParams,
        body: RefuseRequest,
        response: { 200: Reservation, ...errors },
      },
    },
    async (request) => {
      const user = requireRole(request, 'reviewer');
      const after = await reservations.refuse(user.id, request.params.id, request.body.reason);
      await context.services.admin.record(
        user.id,
        'reservation.refuse',
        `reservation:${request.params.id}`,
        null,
        {
          auditStatus: after.auditStatus,
          refuseReason: after.refuseReason,
        },
      );
      return after;
    },
  );
  r.put(
    '/api/admin/reservation-durations/:code',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change a duration’s label and days (administrators; ANB0401 stays same-day)',
        params: z.object({ code: z.string().max(20) }),
        body: UpdateDurationRequest,
        response: { 200: ReservationDuration, ...errors },
      },
    },
    async (request) => {
      const user = requireRole(request, 'admin');
      const before = (await reservations.durations()).find((d) => d.code === request.params.code);
      const after = await reservations.updateDuration(request.params.code, request.body);
      await context.services.admin.record(
        user.id,
        'duration.update',
        `duration:${request.params.code}`,
        before,
        after,
      );
      return after;
    },
  );
};

const ANNO_CONTEXT = 'http://www.w3.org/ns/anno.jsonld' as const;
/** The media type of the Web Annotation Protocol (W3C): JSON-LD with the annotation profile. */
const ANNOTATION_TYPE = 'application/ld+json; profile="http://www.w3.org/ns/anno.jsonld"';

/** A note as a W3C Web Annotation; its id (`/api/notes/{id}`) answers with this same annotation. */
function toWebAnnotation(base: string, note: MyNote): WebAnnotation {
  return {
    id: `${base}/api/notes/${note.id}`,
    type: 'Annotation',
    motivation: 'commenting',
    created: note.createdAt,
    modified: note.updatedAt,
    body: { type: 'TextualBody', value: note.text, format: 'text/plain', language: 'zh' },
    target: {
      type: 'SpecificResource',
      source: {
        id: base + canvasUrl(note.volumeId, note.imageId),
        type: 'Canvas',
        partOf: base + manifestUrl(note.volumeId),
      },
      selector: {
        type: 'FragmentSelector',
        conformsTo: 'http://www.w3.org/TR/media-frags/',
        value: `xywh=${note.x},${note.y},${note.w},${note.h}`,
      },
    },
  };
}
