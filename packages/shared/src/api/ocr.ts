import { z } from 'zod';
import { MSG } from '../messages.ts';
import { Id } from './common.ts';
import { hasHtmlTag, isSafeText } from '../validation.ts';

/** A box in image pixels, origin at the top left. */
export const OcrPoints = z.object({
  left: z.number(),
  top: z.number(),
  right: z.number(),
  bottom: z.number(),
});
export type OcrPoints = z.infer<typeof OcrPoints>;

/** One recognised character (spec §3 OCR json `words`). */
export const OcrWord = z.object({
  word: z.string(),
  /** `note` marks small double-line notes (雙行小注); main text is `text`. */
  type: z.enum(['text', 'note']),
  /** 0–1; 1 for typeset ground truth. */
  confidence: z.number().min(0).max(1),
  points: OcrPoints,
  /** Character size in image pixels. */
  fontSize: z.number(),
});
export type OcrWord = z.infer<typeof OcrWord>;

/** Far more than a page holds (a folio has tens of columns of tens of characters); bounds a saved body. */
export const OCR_LIMITS = { lines: 2000, wordsPerLine: 2000 } as const;

/** A line of words: for vertical pages one column, words top to bottom. */
export const OcrLine = z.object({ words: z.array(OcrWord) });
export type OcrLine = z.infer<typeof OcrLine>;

/**
 * The stored OCR result of a page image (spec §3): image size and lines grouped by page region,
 * `content` lines in reading order (right column first), `middleSeam` for the centre strip (版心).
 */
export const OcrJson = z.object({
  imginfo: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }),
  ocr_res: z.object({
    header: z.array(OcrLine),
    footer: z.array(OcrLine),
    middleSeam: z.array(OcrLine),
    content: z.array(OcrLine),
    others: z.array(OcrLine),
  }),
});
export type OcrJson = z.infer<typeof OcrJson>;

/** A page's recognised text as the reader asks for it; `ocr` is null when the page has none yet. */
export const PageOcr = z.object({ imageId: z.number().int(), ocr: OcrJson.nullable() });
export type PageOcr = z.infer<typeof PageOcr>;

/**
 * What the OCR engine noticed about its own result (issue 28): a page whose text it may have missed or
 * read out of order, for the proofreader to check first.
 */
export const OCR_WARNING_CODES = ['no-text', 'little-text', 'columns', 'low-confidence'] as const;
export const OcrWarning = z.object({
  code: z.enum(OCR_WARNING_CODES),
  /** The warning in Chinese, as the proofreader reads it. */
  message: z.string(),
});
export type OcrWarning = z.infer<typeof OcrWarning>;

/** A stored OCR result of a page (its version history). */
export const OcrVersion = z.object({
  version: z.number().int(),
  source: z.string().describe('typeset, original, proofread, import:alto, import:hocr, ocr:<engine>'),
  createdBy: z.string().nullable().describe('Login name of whoever saved it; null for the system'),
  createdAt: z.string(),
  characters: z.number().int().describe('Characters of the body text'),
  warnings: z
    .array(OcrWarning)
    .describe('What the OCR engine noticed about a result it made (none for others)'),
});
export type OcrVersion = z.infer<typeof OcrVersion>;

/** Where a page is: its book, volume and place in the volume (the proofreader's heading and way back). */
export const OcrPagePlace = z.object({
  catalogId: z.number().int(),
  title: z.string(),
  fascicleId: z.number().int(),
  volumeName: z.string(),
  pageNumber: z.number().int(),
  pageName: z.string(),
});
export type OcrPagePlace = z.infer<typeof OcrPagePlace>;
export const OcrVersionList = z.object({
  imageId: z.number().int(),
  place: OcrPagePlace,
  versions: z.array(OcrVersion),
});
export type OcrVersionList = z.infer<typeof OcrVersionList>;

/** A page's OCR JSON as a request sends it: the same shape, its arrays bounded (OCR_LIMITS). */
/** A word as a request sends it: shown to every reader, so no markup in it (issue 30 item 8). */
const OcrWordInput = OcrWord.extend({
  word: z
    .string()
    .refine((s) => !hasHtmlTag(s), MSG.noHtml)
    .refine(isSafeText, MSG.textUnsafeChars),
});
const OcrLineInput = z.object({
  words: z.array(OcrWordInput).max(OCR_LIMITS.wordsPerLine, MSG.ocrTooMany),
});
const ocrLinesInput = z.array(OcrLineInput).max(OCR_LIMITS.lines, MSG.ocrTooMany);
export const OcrJsonInput = OcrJson.extend({
  ocr_res: z.object({
    header: ocrLinesInput,
    footer: ocrLinesInput,
    middleSeam: ocrLinesInput,
    content: ocrLinesInput,
    others: ocrLinesInput,
  }),
});

/** Saving a proofread page: the whole corrected OCR JSON. */
export const SaveOcrRequest = z.object({ ocr: OcrJsonInput });
export type SaveOcrRequest = z.infer<typeof SaveOcrRequest>;

export const SavedOcr = z.object({ imageId: z.number().int(), version: z.number().int(), ocr: OcrJson });
export type SavedOcr = z.infer<typeof SavedOcr>;

export const OCR_FORMATS = ['alto', 'hocr', 'txt'] as const;
export type OcrFormatName = (typeof OCR_FORMATS)[number];

/**
 * Largest ALTO / hOCR file accepted for one page, in characters: a dense page of an ancient book
 * (2,000 characters as ALTO with glyph-level detail from another system) stays well under 1 MB.
 */
export const OCR_IMPORT_MAX_CHARS = 2_000_000;

/** Text from another OCR system for a page: ALTO XML or hOCR, as text. */
export const ImportOcrRequest = z.object({
  format: z.enum(['alto', 'hocr']),
  content: z
    .string()
    .min(1, '请选择要导入的文件')
    .max(OCR_IMPORT_MAX_CHARS, '文件过大：一页的 ALTO 或 hOCR 文件不能超过 200 万字符（约 2 MB）'),
});
export type ImportOcrRequest = z.infer<typeof ImportOcrRequest>;

/** A page's `:imageId` and one of its OCR versions' `:version`. */
export const OcrVersionParams = z.object({ imageId: Id, version: z.coerce.number().int().positive() });
export type OcrVersionParams = z.infer<typeof OcrVersionParams>;

/** Queueing OCR for a page, a volume or a book. */
export const RunOcrRequest = z.object({
  scope: z.enum(['page', 'volume', 'book']),
  id: z.number().int().positive(),
});
export type RunOcrRequest = z.infer<typeof RunOcrRequest>;

/** How many OCR jobs were queued (one per page). */
export const OcrQueued = z.object({ queued: z.number().int() });
export type OcrQueued = z.infer<typeof OcrQueued>;

/** The file format of a page's text export. */
export const OcrExportQuery = z.object({ format: z.enum(OCR_FORMATS).default('txt') });
export type OcrExportQuery = z.infer<typeof OcrExportQuery>;

/** Readers mend the text (issue 32 part 5): at most this many proposals per reader per hour; a note's length. */
export const CORRECTION_LIMITS = { perHour: 20, noteMax: 200, charactersMax: 50 } as const;

export const CORRECTION_STATUSES = ['pending', 'accepted', 'refused'] as const;
export type CorrectionStatus = (typeof CORRECTION_STATUSES)[number];

const correctionText = z
  .string()
  .refine((s) => !hasHtmlTag(s), MSG.noHtml)
  .refine(isSafeText, MSG.textUnsafeChars);

/**
 * A reader's correction of a page's text: characters `start`…`start + length` of body column `line`
 * (ocr_res.content) as they read them (`original`), and what they should be (`proposed`, as many
 * characters), or none: the characters are only flagged as wrong, with a note saying why.
 */
export const ProposeCorrectionRequest = z.object({
  line: z.number().int().min(0),
  start: z.number().int().min(0),
  original: correctionText.pipe(
    z
      .string()
      .min(1, MSG.correctionNoSelection)
      .refine((s) => [...s].length <= CORRECTION_LIMITS.charactersMax, MSG.correctionTooLong),
  ),
  proposed: correctionText.pipe(z.string().trim()).default(''),
  note: correctionText
    .pipe(z.string().trim().max(CORRECTION_LIMITS.noteMax, MSG.correctionNoteTooLong))
    .default(''),
});
export type ProposeCorrectionRequest = z.input<typeof ProposeCorrectionRequest>;

/** A correction as its author and the reviewers see it. */
export const TextCorrection = z.object({
  id: z.number().int(),
  imageId: z.number().int(),
  line: z.number().int().describe('Body column (ocr_res.content index), right to left from 0'),
  start: z.number().int().describe('First character in the column, from 0'),
  original: z.string(),
  proposed: z.string().nullable().describe('null: the characters are flagged as wrong, see the note'),
  note: z.string().nullable(),
  status: z.enum(CORRECTION_STATUSES),
  proposer: z.string().describe('Login name of the reader who proposed it'),
  createdAt: z.string(),
  reviewer: z.string().nullable(),
  decidedAt: z.string().nullable(),
  refuseReason: z.string().nullable(),
  version: z.number().int().nullable().describe('The OCR version an accepted correction became'),
  /** The characters' box on the page image (image px), for a crop beside the proposal. */
  box: OcrPoints.nullable(),
});
export type TextCorrection = z.infer<typeof TextCorrection>;

/** A correction in the reviewers' queue, with where its page is. */
export const QueuedCorrection = TextCorrection.extend({ place: OcrPagePlace });
export type QueuedCorrection = z.infer<typeof QueuedCorrection>;

export const CorrectionQueueQuery = z.object({
  status: z.enum(CORRECTION_STATUSES).default('pending'),
  imageId: z.coerce.number().int().positive().optional(),
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(10),
});
export type CorrectionQueueQuery = z.input<typeof CorrectionQueueQuery>;

export const CorrectionIdParams = z.object({ id: Id });

/**
 * What is wrong with a proposal, in the words shown to the reader (the server checks the same): a
 * correction replaces character for character; without a replacement it is a flag.
 */
export function correctionProblem(original: string, proposed: string): string | null {
  const want = [...original].length;
  const text = proposed.trim();
  if (want === 0) return MSG.correctionNoSelection;
  if (text === '') return null;
  if ([...text].length !== want) return MSG.correctionLengthMismatch.replace('{n}', String(want));
  if (text === original) return MSG.correctionUnchanged;
  return null;
}
