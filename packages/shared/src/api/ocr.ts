import { z } from 'zod';

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

/** A stored OCR result of a page (its version history). */
export const OcrVersion = z.object({
  version: z.number().int(),
  source: z.string().describe('typeset, original, proofread, import:alto, import:hocr, ocr:<engine>'),
  createdBy: z.string().nullable().describe('Login name of whoever saved it; null for the system'),
  createdAt: z.string(),
  characters: z.number().int().describe('Characters of the body text'),
});
export type OcrVersion = z.infer<typeof OcrVersion>;

export const OcrVersionList = z.object({ imageId: z.number().int(), versions: z.array(OcrVersion) });
export type OcrVersionList = z.infer<typeof OcrVersionList>;

/** Saving a proofread page: the whole corrected OCR JSON. */
export const SaveOcrRequest = z.object({ ocr: OcrJson });
export type SaveOcrRequest = z.infer<typeof SaveOcrRequest>;

export const SavedOcr = z.object({ imageId: z.number().int(), version: z.number().int(), ocr: OcrJson });
export type SavedOcr = z.infer<typeof SavedOcr>;

export const OCR_FORMATS = ['alto', 'hocr', 'txt'] as const;
export type OcrFormatName = (typeof OCR_FORMATS)[number];

/** Text from another OCR system for a page: ALTO XML or hOCR, as text. */
export const ImportOcrRequest = z.object({
  format: z.enum(['alto', 'hocr']),
  content: z.string().min(1, '请选择要导入的文件').max(5_000_000, '文件不能超过 5 MB'),
});
export type ImportOcrRequest = z.infer<typeof ImportOcrRequest>;
