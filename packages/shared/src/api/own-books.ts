import { z } from 'zod';
import { MSG } from '../messages.ts';
import { hasHtmlTag, isSafeName, isSafeText } from '../validation.ts';

/** Own books page 5 on the first page, then 6 (spec §9). */
export const OWN_FIRST_PAGE_SIZE = 5;
export const OWN_PAGE_SIZE = 6;

/**
 * A book's auditStatus (spec §3, §4): an own book is a draft, under review, published or refused; the
 * library's own books are always published.
 */
export const OWN_STATUS = {
  draft: '0',
  reviewing: '1',
  published: '2',
  refused: '3',
} as const;
export type OwnStatus = (typeof OWN_STATUS)[keyof typeof OWN_STATUS];

export const OWN_STATUS_LABELS: Record<string, string> = {
  [OWN_STATUS.draft]: '未提交',
  [OWN_STATUS.reviewing]: '审核中',
  [OWN_STATUS.published]: '已公开',
  [OWN_STATUS.refused]: '未通过',
};

/** A required name or title: no control, bidi-override or invisible characters, no `<` `>` (issue 13). */
const required = (message: string, max: number) =>
  z.string().trim().min(1, message).max(max).refine(isSafeName, MSG.nameUnsafeChars);

export const OwnBookRequest = z.object({
  title: required(MSG.ownTitleRequired, 200),
  actualVolume: z
    .number({ message: MSG.ownVolumeCountRequired })
    .int()
    .min(1, MSG.ownVolumeCountRequired)
    .max(9999),
  author: required(MSG.ownAuthorRequired, 200),
  publishDynasty: required(MSG.ownDynastyRequired, 100),
  editionType: required(MSG.ownEditionTypeRequired, 100),
});
export type OwnBookRequest = z.input<typeof OwnBookRequest>;

export const OwnBook = z.object({
  catalogId: z.number().int(),
  title: z.string(),
  actualVolume: z.number().int().nullable(),
  author: z.string().nullable(),
  publishDynasty: z.string().nullable(),
  editionType: z.string().nullable(),
  /** The library's call number and classification, given when a reviewer publishes the book. */
  callNumber: z.string().nullable(),
  classCode: z.string().nullable(),
  auditStatus: z.string(),
  refuseReason: z.string().nullable(),
  volumeCount: z.number().int(),
  pageCount: z.number().int(),
  coverUrl: z.string().nullable(),
  owner: z.string().optional(),
  /** A book of the library's own (no owner), which catalogue staff manage with these screens. */
  isLibrary: z.boolean(),
  updatedAt: z.string(),
});
export type OwnBook = z.infer<typeof OwnBook>;

/**
 * Publishing a reader's book: the reviewer gives it the library's call number and classification (both
 * may be cleared with null); a field left out, or a request without a body, keeps what the book has.
 */
export const ApproveOwnBookRequest = z
  .object({
    callNumber: z
      .string()
      .trim()
      .max(100, '索书号不能超过 100 个字')
      .refine(isSafeName, MSG.nameUnsafeChars)
      .nullable()
      .optional()
      .transform((v) => (v === undefined ? undefined : v || null)),
    classCode: z
      .string()
      .trim()
      .max(60)
      .nullable()
      .optional()
      .transform((v) => (v === undefined ? undefined : v || null)),
  })
  .default({ callNumber: undefined, classCode: undefined });
export type ApproveOwnBookRequest = z.input<typeof ApproveOwnBookRequest>;

export const OwnVolumeRequest = z.object({
  name: required(MSG.ownVolumeNameRequired, 100),
  introduction: z
    .string()
    .trim()
    .max(1000)
    .refine((s) => !hasHtmlTag(s), MSG.noHtml)
    .refine(isSafeText, MSG.textUnsafeChars)
    .optional(),
});
export type OwnVolumeRequest = z.input<typeof OwnVolumeRequest>;

export const SubmitBooksRequest = z.object({
  ids: z.array(z.number().int()).min(1, MSG.selectAtLeastOne).max(100, MSG.ownSubmitTooMany),
});
export type SubmitBooksRequest = z.input<typeof SubmitBooksRequest>;

export const ZipUploadResult = z.object({
  added: z.number().int(),
  names: z.array(z.string()),
  message: z.string(),
});
export type ZipUploadResult = z.infer<typeof ZipUploadResult>;

/** The answer to page images or single images added (one or more files). */
export const ImagesUploadResult = z.object({ added: z.number().int(), message: z.string() });
export type ImagesUploadResult = z.infer<typeof ImagesUploadResult>;

/** A page of an own volume, with where its text stands. */
export const OwnPage = z.object({
  imageId: z.number().int(),
  name: z.string(),
  pageNumber: z.number().int(),
  thumbnailUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** none: not recognised; queued or running: an OCR job waits or works; done: text stored; failed. */
  ocrStatus: z.enum(['none', 'queued', 'running', 'done', 'failed']),
});
export type OwnPage = z.infer<typeof OwnPage>;

export const OCR_STATUS_LABELS: Record<OwnPage['ocrStatus'], string> = {
  none: '未识别',
  queued: '等待识别',
  running: '识别中',
  done: '已识别',
  failed: '识别失败',
};

export const RenamePageRequest = z.object({
  imageName: z
    .string()
    .trim()
    .min(1, MSG.ownImageNameRequired)
    .max(100)
    .refine(isSafeName, MSG.nameUnsafeChars),
});
export type RenamePageRequest = z.input<typeof RenamePageRequest>;
export const ReorderRequest = z.object({
  imageIds: z.array(z.number().int()).min(1).max(10_000, MSG.ownOrderTooMany),
});
export type ReorderRequest = z.input<typeof ReorderRequest>;

/** Limits of a volume's directory (table of contents) as edited. */
export const DIRECTORY_LIMITS = { maxDepth: 4, maxEntries: 2000, nameMax: 100 } as const;

/** A directory entry as saved: its name, the page it opens (or none) and its sub-entries. */
export interface DirectoryInput {
  name: string;
  imageId: number | null;
  children: DirectoryInput[];
}
/**
 * An entry at a depth (1 = top). Built level by level rather than recursively, so a hostile body of
 * thousands of nested levels is refused at the depth limit instead of recursing the validator that deep.
 */
const directoryLevel = (depth: number): z.ZodType<DirectoryInput> =>
  z.object({
    name: z
      .string()
      .trim()
      .min(1, MSG.directoryNameRequired)
      .max(DIRECTORY_LIMITS.nameMax, MSG.directoryNameTooLong)
      .refine(isSafeName, MSG.nameUnsafeChars),
    imageId: z.number().int().nullable(),
    children:
      depth < DIRECTORY_LIMITS.maxDepth
        ? z.array(directoryLevel(depth + 1)).max(DIRECTORY_LIMITS.maxEntries, MSG.directoryTooMany)
        : z.array(z.never()).max(0, MSG.directoryTooDeep),
  });
export const DirectoryInput: z.ZodType<DirectoryInput> = directoryLevel(1);

/** The whole directory of a volume, replacing the one it had. */
export const SaveDirectoryRequest = z.object({
  entries: z.array(DirectoryInput).max(DIRECTORY_LIMITS.maxEntries, MSG.directoryTooMany),
});
export type SaveDirectoryRequest = z.infer<typeof SaveDirectoryRequest>;

/** The reviewers' list of own books in one review state (default: submitted). */
export const OwnReviewQuery = z.object({
  status: z
    .enum([OWN_STATUS.draft, OWN_STATUS.reviewing, OWN_STATUS.published, OWN_STATUS.refused])
    .default(OWN_STATUS.reviewing),
});
export type OwnReviewQuery = z.input<typeof OwnReviewQuery>;
