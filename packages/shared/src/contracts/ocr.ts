import { ImageIdParams } from '../api/catalog.ts';
import { paged } from '../api/common.ts';
import { RefuseRequest } from '../api/personal.ts';
import {
  CorrectionIdParams,
  CorrectionQueueQuery,
  ProposeCorrectionRequest,
  QueuedCorrection,
  TextCorrection,
  ImportOcrRequest,
  OcrExportQuery,
  OcrQueued,
  OcrVersionList,
  OcrVersionParams,
  RunOcrRequest,
  SavedOcr,
  SaveOcrRequest,
} from '../api/ocr.ts';
import { z } from 'zod';
import { contract } from '../contract.ts';

const tags = ['ocr'];

/** Proofreading a page's OCR text, its versions, and ALTO / hOCR / text export and import. */
export const ocrApi = {
  versions: contract({
    method: 'GET',
    path: '/api/pages/:imageId/ocr/versions',
    summary: 'Version history of a page’s OCR text (catalogue staff or the book’s owner)',
    tags,
    params: ImageIdParams,
    response: OcrVersionList,
  }),
  save: contract({
    method: 'PUT',
    path: '/api/pages/:imageId/ocr',
    summary: 'Save a proofread page as its newest OCR version; the full-text index follows',
    tags,
    params: ImageIdParams,
    body: SaveOcrRequest,
    response: SavedOcr,
  }),
  restore: contract({
    method: 'POST',
    path: '/api/pages/:imageId/ocr/versions/:version/restore',
    summary: 'Make an earlier version the page’s text again (saved as a new version)',
    tags,
    params: OcrVersionParams,
    response: SavedOcr,
  }),
  import: contract({
    method: 'POST',
    path: '/api/pages/:imageId/ocr/import',
    summary: 'Bring a page’s text from another OCR system (ALTO XML or hOCR) as a new version',
    tags,
    params: ImageIdParams,
    body: ImportOcrRequest,
    response: SavedOcr,
  }),
  run: contract({
    method: 'POST',
    path: '/api/ocr/run',
    summary: 'Queue OCR for a page, a volume or a book (one job per page; catalogue staff or the owner)',
    tags,
    body: RunOcrRequest,
    response: OcrQueued,
  }),
  export: contract({
    method: 'GET',
    path: '/api/pages/:imageId/ocr/export',
    summary: 'A page’s text as ALTO XML, hOCR or plain text (for whoever may read the page)',
    tags,
    params: ImageIdParams,
    query: OcrExportQuery,
    response: null,
  }),
};

const correctionTags = ['corrections'];

/** Readers propose corrections of a page's text; catalogue staff accept or refuse them (issue 32). */
export const correctionsApi = {
  propose: contract({
    method: 'POST',
    path: '/api/pages/:imageId/corrections',
    summary: 'Propose a correction of characters of a page’s text, or flag them as wrong (signed-in readers)',
    tags: correctionTags,
    params: ImageIdParams,
    body: ProposeCorrectionRequest,
    response: TextCorrection,
  }),
  mine: contract({
    method: 'GET',
    path: '/api/pages/:imageId/corrections',
    summary: 'The signed-in reader’s own corrections of a page, newest first (nobody else’s)',
    tags: correctionTags,
    params: ImageIdParams,
    response: z.object({ records: z.array(TextCorrection) }),
  }),
  queue: contract({
    method: 'GET',
    path: '/api/admin/corrections',
    summary:
      'The reviewers’ queue of corrections, by status (default: pending, oldest first; catalogue staff)',
    tags: correctionTags,
    query: CorrectionQueueQuery,
    response: paged(QueuedCorrection),
  }),
  accept: contract({
    method: 'POST',
    path: '/api/admin/corrections/:id/accept',
    summary: 'Accept a correction: the page’s text becomes a new OCR version credited to its author',
    tags: correctionTags,
    params: CorrectionIdParams,
    response: TextCorrection,
  }),
  refuse: contract({
    method: 'POST',
    path: '/api/admin/corrections/:id/refuse',
    summary: 'Refuse a correction with a reason (shown to its author only)',
    tags: correctionTags,
    params: CorrectionIdParams,
    body: RefuseRequest,
    response: TextCorrection,
  }),
};
