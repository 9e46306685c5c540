import { z } from 'zod';
import {
  AnnotationPageExport,
  BookComment,
  CallNumberLookupQuery,
  CallNumberMatch,
  CollectionItem,
  CollectState,
  CommentHiddenRequest,
  CommentRequest,
  CreatedReservation,
  DownloadItem,
  DurationParams,
  Footprint,
  FootprintPageRequest,
  MyComment,
  MyNote,
  Note,
  NoteRequest,
  NoteUpdateRequest,
  Privilege,
  RefuseRequest,
  Reservation,
  ReservationDuration,
  ReservationRequest,
  ReviewQueueQuery,
  UpdateDurationRequest,
  WebAnnotationDocument,
} from '../api/personal.ts';
import { IdParams, OkBody, PageNum, paged } from '../api/common.ts';
import { contract } from '../contract.ts';

const tags = ['personal'];
const admin = ['admin'];

/** Collections (收藏): whether a book is collected, collecting, my collection. */
export const collectionsApi = {
  state: contract({
    method: 'GET',
    path: '/api/books/:id/collect',
    summary: 'Whether I collected a book',
    tags,
    params: IdParams,
    response: CollectState,
  }),
  collect: contract({
    method: 'PUT',
    path: '/api/books/:id/collect',
    summary: 'Collect a book (spec saveCollect)',
    tags,
    params: IdParams,
    response: CollectState,
  }),
  uncollect: contract({
    method: 'DELETE',
    path: '/api/books/:id/collect',
    summary: 'Cancel a collection (spec cancelCollect)',
    tags,
    params: IdParams,
    response: CollectState,
  }),
  mine: contract({
    method: 'GET',
    path: '/api/me/collections',
    summary: 'My collections, 10 a page (spec queryCollectByPage)',
    tags,
    query: PageNum,
    response: paged(CollectionItem),
  }),
};

/** Comments on books: the book page’s list, mine, and staff hiding one. */
export const commentsApi = {
  list: contract({
    method: 'GET',
    path: '/api/books/:id/comments',
    summary: "A book's comments, newest first, 10 a page",
    tags,
    params: IdParams,
    query: PageNum,
    response: paged(BookComment),
  }),
  create: contract({
    method: 'POST',
    path: '/api/books/:id/comments',
    summary: 'Comment on a book (plain text, 1–500 characters)',
    tags,
    params: IdParams,
    body: CommentRequest,
    response: OkBody,
  }),
  mine: contract({
    method: 'GET',
    path: '/api/me/comments',
    summary: 'My comments, 10 a page',
    tags,
    query: PageNum,
    response: paged(MyComment),
  }),
  remove: contract({
    method: 'DELETE',
    path: '/api/me/comments/:id',
    summary: 'Delete one of my comments',
    tags,
    params: IdParams,
    response: OkBody,
  }),
  setHidden: contract({
    method: 'PUT',
    path: '/api/admin/comments/:id/hidden',
    summary: 'Hide a comment, or show it again (catalogue staff)',
    tags: admin,
    params: IdParams,
    body: CommentHiddenRequest,
    response: OkBody,
  }),
};

/** Downloads: a page as JPEG with a foot line or as text, a volume as PDF; my downloads. */
export const downloadsApi = {
  pageImage: contract({
    method: 'GET',
    path: '/api/pages/:id/download.jpg',
    summary: 'Download a page as JPEG (recorded; access rule applies)',
    tags,
    params: IdParams,
    response: null,
  }),
  pageText: contract({
    method: 'GET',
    path: '/api/pages/:id/download.txt',
    summary: "Download a page's OCR text (recorded; access rule applies)",
    tags,
    params: IdParams,
    response: null,
  }),
  volumePdf: contract({
    method: 'GET',
    path: '/api/volumes/:id/download.pdf',
    summary: 'Download a whole volume as PDF when the site allows it (recorded)',
    tags,
    params: IdParams,
    response: null,
  }),
  mine: contract({
    method: 'GET',
    path: '/api/me/downloads',
    summary: 'My downloads, 10 a page (spec queryDownloadByPage)',
    tags,
    query: PageNum,
    response: paged(DownloadItem),
  }),
  remove: contract({
    method: 'DELETE',
    path: '/api/me/downloads/:id',
    summary: 'Remove a download from my list',
    tags,
    params: IdParams,
    response: OkBody,
  }),
};

/** Footprints: the books I opened with the last page read. */
export const footprintsApi = {
  report: contract({
    method: 'POST',
    path: '/api/me/footprints',
    summary: 'The reader turned to a page: my footprint in the book keeps it',
    tags,
    body: FootprintPageRequest,
    response: OkBody,
  }),
  mine: contract({
    method: 'GET',
    path: '/api/me/footprints',
    summary: 'My footprints: one row per book, newest first (spec queryBrowseByPage)',
    tags,
    query: PageNum,
    response: paged(Footprint),
  }),
  remove: contract({
    method: 'DELETE',
    path: '/api/me/footprints/:id',
    summary: 'Remove my footprints in one book (id: catalogId)',
    tags,
    params: IdParams,
    response: OkBody,
  }),
  clear: contract({
    method: 'DELETE',
    path: '/api/me/footprints',
    summary: 'Remove all my footprints',
    tags,
    response: OkBody,
  }),
};

/** Notes drawn on pages (private to their author), exported as W3C Web Annotations. */
export const notesApi = {
  onPage: contract({
    method: 'GET',
    path: '/api/pages/:id/notes',
    summary: 'My notes on a page',
    tags,
    params: IdParams,
    response: z.array(Note),
  }),
  create: contract({
    method: 'POST',
    path: '/api/notes',
    summary: 'Write a note on a rectangle of a page (image pixels)',
    tags,
    body: NoteRequest,
    response: Note,
  }),
  update: contract({
    method: 'PATCH',
    path: '/api/notes/:id',
    summary: 'Edit one of my notes',
    tags,
    params: IdParams,
    body: NoteUpdateRequest,
    response: Note,
  }),
  remove: contract({
    method: 'DELETE',
    path: '/api/notes/:id',
    summary: 'Delete one of my notes',
    tags,
    params: IdParams,
    response: OkBody,
  }),
  mine: contract({
    method: 'GET',
    path: '/api/me/notes',
    summary: 'My notes, 10 a page (Notation channel)',
    tags,
    query: PageNum,
    response: paged(MyNote),
  }),
  get: contract({
    method: 'GET',
    path: '/api/notes/:id',
    summary:
      'One of my notes as a W3C Web Annotation (the id the export gives it; another user’s note is 404)',
    tags,
    params: IdParams,
    response: WebAnnotationDocument,
  }),
  export: contract({
    method: 'GET',
    path: '/api/me/notes/export',
    summary:
      'All my notes as a W3C Web Annotation AnnotationPage (JSON-LD; targets: IIIF canvases with xywh)',
    tags,
    response: AnnotationPageExport,
  }),
};

/** Privileges: the books approved reservations let me read, until when. */
export const privilegesApi = {
  mine: contract({
    method: 'GET',
    path: '/api/me/privileges',
    summary: 'My approved, unexpired privileges (Vip channel)',
    tags,
    query: PageNum,
    response: paged(Privilege),
  }),
};

const reservationTags = ['reservations'];

/** Reservations: applying by call number, withdrawing, the reviewers’ queue and decisions, durations. */
export const reservationsApi = {
  durations: contract({
    method: 'GET',
    path: '/api/reservations/durations',
    summary: 'Reservation durations (spec queryApplyDic)',
    tags: reservationTags,
    response: z.array(ReservationDuration),
  }),
  lookup: contract({
    method: 'GET',
    path: '/api/reservations/lookup',
    summary: 'Books whose call number starts with the text (spec queryCatalogList)',
    tags: reservationTags,
    query: CallNumberLookupQuery,
    response: z.array(CallNumberMatch),
  }),
  apply: contract({
    method: 'POST',
    path: '/api/reservations',
    summary: 'Apply for a reservation (spec saveApply)',
    tags: reservationTags,
    body: ReservationRequest,
    response: CreatedReservation,
  }),
  mine: contract({
    method: 'GET',
    path: '/api/me/reservations',
    summary: 'My applications, newest first (spec queryApplyList)',
    tags: reservationTags,
    query: PageNum,
    response: paged(Reservation),
  }),
  withdraw: contract({
    method: 'POST',
    path: '/api/me/reservations/:id/withdraw',
    summary: 'Withdraw one of my applications while undecided',
    tags: reservationTags,
    params: IdParams,
    response: Reservation,
  }),
  queue: contract({
    method: 'GET',
    path: '/api/admin/reservations',
    summary: 'Reservation review queue (reviewers): by status, oldest first',
    tags: admin,
    query: ReviewQueueQuery,
    response: paged(Reservation),
  }),
  take: contract({
    method: 'POST',
    path: '/api/admin/reservations/:id/take',
    summary: 'Take an application under review (0 → 1)',
    tags: admin,
    params: IdParams,
    response: Reservation,
  }),
  approve: contract({
    method: 'POST',
    path: '/api/admin/reservations/:id/approve',
    summary: 'Approve (→ 2): grants the privilege until the end of its last day',
    tags: admin,
    params: IdParams,
    response: Reservation,
  }),
  refuse: contract({
    method: 'POST',
    path: '/api/admin/reservations/:id/refuse',
    summary: 'Refuse with a reason (→ 4)',
    tags: admin,
    params: IdParams,
    body: RefuseRequest,
    response: Reservation,
  }),
  updateDuration: contract({
    method: 'PUT',
    path: '/api/admin/reservation-durations/:code',
    summary: 'Change a duration’s label and days (administrators; ANB0401 stays same-day)',
    tags: admin,
    params: DurationParams,
    body: UpdateDurationRequest,
    response: ReservationDuration,
  }),
};
