import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, OCR_IMPORT_MAX_CHARS, ocrApi } from '@guji/shared';
import { routeOf } from '../../http/contract-route.ts';
import { viewerOf } from '../../http/session.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { writeLimit } from '../../http/write-limit.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** Proofreading a page's OCR text, its versions, and ALTO / hOCR / text export and import. */
export const ocrRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ocr = context.services.ocr;

  r.route({
    ...routeOf(ocrApi.versions, errors),
    handler: async (request) => ocr.versions(request.params.imageId, viewerOf(request)),
  });

  r.route({
    ...routeOf(ocrApi.save, errors, writeLimit(context.config.writeRateLimitPerMinute)),
    bodyLimit: 10 * 1024 * 1024,
    handler: async (request) => ocr.save(request.params.imageId, request.body.ocr, viewerOf(request)),
  });

  r.route({
    ...routeOf(ocrApi.restore, errors),
    handler: async (request) =>
      ocr.restore(request.params.imageId, request.params.version, viewerOf(request)),
  });

  r.route({
    ...routeOf(ocrApi.import, errors),
    // The file's cap (OCR_IMPORT_MAX_CHARS) and room for its JSON escapes; larger bodies are not read.
    bodyLimit: 2 * OCR_IMPORT_MAX_CHARS + 64 * 1024,
    handler: async (request) =>
      ocr.importText(request.params.imageId, request.body.format, request.body.content, viewerOf(request)),
  });

  r.route({
    ...routeOf(ocrApi.run, errors),
    handler: async (request) =>
      ocr.run(request.body.scope, request.body.id, viewerOf(request), context.queue),
  });

  r.route({
    ...routeOf(ocrApi.export),
    handler: async (request, reply) => {
      const file = await ocr.exportText(request.params.imageId, request.query.format, viewerOf(request));
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'private, no-cache')
        .send(file.body);
    },
  });
};
