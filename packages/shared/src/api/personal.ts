import { z } from 'zod';
import { MSG } from '../messages.ts';
import { PageNum } from './common.ts';
import { hasHtmlTag, isSafeName, isSafeText } from '../validation.ts';

/** Personal lists page 10 at a time (spec §9). */
export const PERSONAL_PAGE_SIZE = 10;

export const PERSONAL_LIMITS = {
  commentMax: 500,
  noteMax: 1000,
  reservationReasonMax: 500,
} as const;

/** A book as the personal lists show it. */
export const PersonalBook = z.object({
  catalogId: z.number().int(),
  title: z.string(),
  author: z.string().nullable(),
  callNumber: z.string().nullable(),
  /** Cover thumbnail (first page, public for visible books), or null. */
  coverUrl: z.string().nullable(),
});
export type PersonalBook = z.infer<typeof PersonalBook>;

export const CollectionItem = z.object({
  book: PersonalBook,
  createdAt: z.string(),
});
export type CollectionItem = z.infer<typeof CollectionItem>;

export const CollectState = z.object({ collected: z.boolean() });
export type CollectState = z.infer<typeof CollectState>;

export const DOWNLOAD_KINDS = ['image', 'text', 'pdf'] as const;
export type DownloadKind = (typeof DOWNLOAD_KINDS)[number];
export const DOWNLOAD_KIND_LABELS: Record<DownloadKind, string> = {
  image: '页面图像（JPEG）',
  text: '页面文字（TXT）',
  pdf: '整册（PDF）',
};

export const DownloadItem = z.object({
  id: z.number().int(),
  kind: z.enum(DOWNLOAD_KINDS),
  book: PersonalBook,
  volumeId: z.number().int(),
  volumeName: z.string(),
  imageId: z.number().int().nullable(),
  /** 1-based page number in the volume, for page downloads. */
  pageNumber: z.number().int().nullable(),
  /** Where the file is downloaded again (access is checked again). */
  url: z.string(),
  createdAt: z.string(),
});
export type DownloadItem = z.infer<typeof DownloadItem>;

const plainText = (max: number, empty: string, tooLong: string) =>
  z
    .string()
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, empty)
        .max(max, tooLong)
        // Any tag start, closed or not (`<b`, `<script` without `>`); text is shown as text anyway.
        .refine((s) => !hasHtmlTag(s), MSG.noHtml)
        .refine(isSafeText, MSG.textUnsafeChars),
    );

export const CommentRequest = z.object({
  text: plainText(PERSONAL_LIMITS.commentMax, MSG.commentEmpty, MSG.commentTooLong),
});
export type CommentRequest = z.input<typeof CommentRequest>;

export const BookComment = z.object({
  id: z.number().int(),
  nickName: z.string(),
  text: z.string(),
  createdAt: z.string(),
  /** Whether the signed-in user wrote it (may delete it). */
  mine: z.boolean(),
  /** Shown to staff only: hidden comments stay listed for them. */
  hidden: z.boolean(),
});
export type BookComment = z.infer<typeof BookComment>;

export const MyComment = z.object({
  id: z.number().int(),
  book: PersonalBook,
  text: z.string(),
  hidden: z.boolean(),
  createdAt: z.string(),
});
export type MyComment = z.infer<typeof MyComment>;

/** Hides a comment, or shows it again (catalogue staff). */
export const CommentHiddenRequest = z.object({ hidden: z.boolean() });
export type CommentHiddenRequest = z.infer<typeof CommentHiddenRequest>;

export const NoteRect = z.object({
  x: z.number().int().min(0),
  y: z.number().int().min(0),
  w: z.number().int().min(1),
  h: z.number().int().min(1),
});
export type NoteRect = z.infer<typeof NoteRect>;

export const NoteRequest = NoteRect.extend({
  imageId: z.number().int(),
  text: plainText(PERSONAL_LIMITS.noteMax, MSG.noteEmpty, MSG.noteTooLong),
});
export type NoteRequest = z.input<typeof NoteRequest>;

export const NoteUpdateRequest = z.object({
  text: plainText(PERSONAL_LIMITS.noteMax, MSG.noteEmpty, MSG.noteTooLong),
});
export type NoteUpdateRequest = z.input<typeof NoteUpdateRequest>;

export const Note = NoteRect.extend({
  id: z.number().int(),
  imageId: z.number().int(),
  text: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Note = z.infer<typeof Note>;

export const MyNote = Note.extend({
  book: PersonalBook,
  volumeId: z.number().int(),
  volumeName: z.string(),
  pageNumber: z.number().int(),
});
export type MyNote = z.infer<typeof MyNote>;

export const Footprint = z.object({
  book: PersonalBook,
  volumeId: z.number().int().nullable(),
  volumeName: z.string().nullable(),
  imageId: z.number().int().nullable(),
  pageNumber: z.number().int().nullable(),
  viewedAt: z.string(),
});
export type Footprint = z.infer<typeof Footprint>;

export const FootprintPageRequest = z.object({ imageId: z.number().int() });
export type FootprintPageRequest = z.infer<typeof FootprintPageRequest>;

/** Reservation durations (spec §3 applyDays): the dictionary administrators maintain. */
export const SAME_DAY_DURATION = 'ANB0401';
export const LONG_DURATION = 'ANB0402';

export const ReservationDuration = z.object({
  code: z.string(),
  label: z.string(),
  /** 0: until the end of the day of approval; n: to the end of the n-th day after approval. */
  days: z.number().int().min(0).max(365),
});
export type ReservationDuration = z.infer<typeof ReservationDuration>;

export const UpdateDurationRequest = z.object({
  label: z.string().trim().min(1).max(20).refine(isSafeName, MSG.nameUnsafeChars),
  days: z.number().int().min(0).max(365),
});
export type UpdateDurationRequest = z.input<typeof UpdateDurationRequest>;

/** A duration's `:code` (e.g. ANB0402). */
export const DurationParams = z.object({ code: z.string().max(20) });
export type DurationParams = z.infer<typeof DurationParams>;

/** Reservation auditStatus (spec §4). */
export const RESERVATION_STATUS = {
  unaudited: 0,
  reviewing: 1,
  passed: 2,
  refused: 4,
  withdrawn: 5,
} as const;
export const RESERVATION_STATUS_LABELS: Record<number, string> = {
  0: '未审核',
  1: '审核中',
  2: '审核通过',
  4: '审核未通过',
  5: '已撤回',
};

/** The reviewers' queue: the statuses shown (comma separated; undecided by default) and a page. */
export const ReviewQueueQuery = PageNum.extend({
  status: z
    .string()
    .regex(/^\d(,\d)*$/)
    .default(`${RESERVATION_STATUS.unaudited},${RESERVATION_STATUS.reviewing}`),
});
export type ReviewQueueQuery = z.input<typeof ReviewQueueQuery>;

export const ReservationRequest = z
  .object({
    callNumber: z.string().trim().min(1, MSG.reservationCallNumberRequired).max(100),
    title: z
      .string()
      .trim()
      .min(1, MSG.reservationTitleRequired)
      .max(200)
      .refine(isSafeName, MSG.nameUnsafeChars),
    applyDays: z.string().trim().min(1, MSG.reservationDurationRequired),
    detailReason: z
      .string()
      .trim()
      .max(PERSONAL_LIMITS.reservationReasonMax, MSG.reservationReasonTooLong)
      .refine((s) => !hasHtmlTag(s), MSG.noHtml)
      .refine(isSafeText, MSG.textUnsafeChars)
      .default(''),
  })
  .superRefine((value, ctx) => {
    if (value.applyDays === LONG_DURATION && value.detailReason === '') {
      ctx.addIssue({ code: 'custom', path: ['detailReason'], message: MSG.reservationReasonRequired });
    }
  });
export type ReservationRequest = z.input<typeof ReservationRequest>;

export const Reservation = z.object({
  id: z.number().int(),
  catalogId: z.number().int(),
  callNumber: z.string(),
  title: z.string(),
  applyDays: z.string(),
  durationLabel: z.string(),
  detailReason: z.string(),
  auditStatus: z.number().int(),
  refuseReason: z.string().nullable(),
  applicant: z.string(),
  applyTime: z.string(),
  updatedAt: z.string(),
  expiresAt: z.string().nullable(),
});
export type Reservation = z.infer<typeof Reservation>;

export const CreatedReservation = z.object({ reservation: Reservation, message: z.string() });
export type CreatedReservation = z.infer<typeof CreatedReservation>;

export const CallNumberMatch = z.object({
  catalogId: z.number().int(),
  callNumber: z.string(),
  title: z.string(),
});
export type CallNumberMatch = z.infer<typeof CallNumberMatch>;

/** The call-number lookup: books whose call number starts with this text. */
export const CallNumberLookupQuery = z.object({ callNumber: z.string().max(100).default('') });
export type CallNumberLookupQuery = z.input<typeof CallNumberLookupQuery>;

/** The reviewer's reason, shown to the applicant or owner: free text, no tags or invisible characters. */
export const RefuseRequest = z.object({
  reason: z
    .string()
    .trim()
    .min(1, MSG.refuseReasonRequired)
    .max(200)
    .refine((s) => !hasHtmlTag(s), MSG.noHtml)
    .refine(isSafeText, MSG.textUnsafeChars),
});
export type RefuseRequest = z.input<typeof RefuseRequest>;

export const Privilege = z.object({
  book: PersonalBook,
  expiresAt: z.string(),
  reservationId: z.number().int().nullable(),
});
export type Privilege = z.infer<typeof Privilege>;

/** One note as a W3C Web Annotation: a comment on an xywh rectangle of a IIIF canvas. */
export const WebAnnotation = z.object({
  id: z.string(),
  type: z.literal('Annotation'),
  motivation: z.literal('commenting'),
  created: z.string(),
  modified: z.string(),
  body: z.object({
    type: z.literal('TextualBody'),
    value: z.string(),
    format: z.literal('text/plain'),
    language: z.string(),
  }),
  target: z.object({
    type: z.literal('SpecificResource'),
    source: z.object({ id: z.string(), type: z.literal('Canvas'), partOf: z.string() }),
    selector: z.object({
      type: z.literal('FragmentSelector'),
      conformsTo: z.literal('http://www.w3.org/TR/media-frags/'),
      value: z.string(),
    }),
  }),
});
export type WebAnnotation = z.infer<typeof WebAnnotation>;

/** One note on its own (GET /api/notes/{id}, the id the export gives it): JSON-LD with its context. */
export const WebAnnotationDocument = WebAnnotation.extend({
  '@context': z.literal('http://www.w3.org/ns/anno.jsonld'),
});
export type WebAnnotationDocument = z.infer<typeof WebAnnotationDocument>;

/** W3C Web Annotation (JSON-LD) export of one's notes. */
export const AnnotationPageExport = z.object({
  '@context': z.literal('http://www.w3.org/ns/anno.jsonld'),
  id: z.string(),
  type: z.literal('AnnotationPage'),
  items: z.array(WebAnnotation),
});
export type AnnotationPageExport = z.infer<typeof AnnotationPageExport>;
