import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorBody,
  ImportOcrRequest,
  OCR_FORMATS,
  OCR_IMPORT_MAX_CHARS,
  OcrVersionList,
  SavedOcr,
  SaveOcrRequest,
} from '@guji/shared';
import { viewerOf } from '../../http/session.ts';
import type { RouteModule } from '../../http/route-module.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const ImageId = z.object({ imageId: z.coerce.number().int().positive() });

/** Proofreading a page's OCR text, its versions, and ALTO / hOCR / text export and import. */
export const ocrRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ocr = context.services.ocr;

  r.get(
    '/api/pages/:imageId/ocr/versions',
    {
      schema: {
        tags: ['ocr'],
        summary: 'Version history of a page’s OCR text (catalogue staff or the book’s owner)',
        params: ImageId,
        response: { 200: OcrVersionList, ...errors },
      },
    },
    async (request) => ocr.versions(request.params.imageId, viewerOf(request)),
  );

  r.put(
    '/api/pages/:imageId/ocr',
    {
      schema: {
        tags: ['ocr'],
        summary: 'Save a proofread page as its newest OCR version; the full-text index follows',
        params: ImageId,
        body: SaveOcrRequest,
        response: { 200: SavedOcr, ...errors },
      },
      bodyLimit: 10 * 1024 * 1024,
    },
    async (request) => ocr.save(request.params.imageId, request.body.ocr, viewerOf(request)),
  );

  r.post(
    '/api/pages/:imageId/ocr/versions/:version/restore',
    {
      schema: {
        tags: ['ocr'],
        summary: 'Make an earlier version the page’s text again (saved as a new version)',
        params: ImageId.extend({ version: z.coerce.number().int().positive() }),
        response: { 200: SavedOcr, ...errors },
      },
    },
    async (request) => ocr.restore(request.params.imageId, request.params.version, viewerOf(request)),
  );

  r.post(
    '/api/pages/:imageId/ocr/import',
    {
      schema: {
        tags: ['ocr'],
        summary: 'Bring a page’s text from another OCR system (ALTO XML or hOCR) as a new version',
        params: ImageId,
        body: ImportOcrRequest,
        response: { 200: SavedOcr, ...errors },
      },
      // The file's cap (OCR_IMPORT_MAX_CHARS) and room for its JSON escapes; larger bodies are not read.
      bodyLimit: 2 * OCR_IMPORT_MAX_CHARS + 64 * 1024,
    },
    async (request) =>
      ocr.importText(request.params.imageId, request.body.format, request.body.content, viewerOf(request)),
  );

  r.post(
    '/api/ocr/run',
    {
      schema: {
        tags: ['ocr'],
        summary: 'Queue OCR for a page, a volume or a book (one job per page; catalogue staff or the owner)',
        body: z.object({ scope: z.enum(['page', 'volume', 'book']), id: z.number().int().positive() }),
        response: { 200: z.object({ queued: z.number().int() }), ...errors },
      },
    },
    async (request) => ocr.run(request.body.scope, request.body.id, viewerOf(request), context.queue),
  );

  r.get(
    '/api/pages/:imageId/ocr/export',
    {
      schema: {
        tags: ['ocr'],
        summary: 'A page’s text as ALTO XML, hOCR or plain text (for whoever may read the page)',
        params: ImageId,
        querystring: z.object({ format: z.enum(OCR_FORMATS).default('txt') }),
      },
    },
    async (request, reply) => {
      const file = await ocr.exportText(request.params.imageId, request.query.format, viewerOf(request));
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'private, no-cache')
        .send(file.body);
    },
  );
};
