import { documentOrigin } from '../../http/document-origin.ts';
import { Readable } from 'node:stream';
import type { FastifyError, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, MARC_MAX_FILE_BYTES, marcApi } from '@guji/shared';
import { AppError, badRequest } from '../../errors.ts';
import { requireRole, viewerOf } from '../../http/session.ts';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';

/** The uploaded MARC file, read into memory up to the limit (permission is checked before). */
async function marcUpload(request: FastifyRequest): Promise<{ data: Buffer; fileName: string }> {
  const file = await request.file({ limits: { fileSize: MARC_MAX_FILE_BYTES, files: 1 } });
  if (!file) throw badRequest('MARC_FILE', '请上传 MARC 文件（.mrc、.iso 或 .xml）');
  const data = await file.toBuffer().catch((error: FastifyError) => {
    if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw error;
  });
  if (file.file.truncated) throw tooLarge();
  return { data, fileName: file.filename };
}
const tooLarge = () => new AppError(413, 'MARC_FILE_TOO_LARGE', '文件过大：MARC 文件最大 20 MB');

/**
 * MARC in and out (issue 18): catalogue staff preview and import MARC21 and CNMARC files; anyone
 * exports the books they may see as MARCXML.
 */
export const marcRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { marc } = context.services;
  const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody };

  r.route({
    ...routeOf(marcApi.preview, errors),
    handler: async (request) => {
      requireRole(request, 'catalogAdmin');
      const { data } = await marcUpload(request);
      return marc.preview(data, request.query.format);
    },
  });
  r.route({
    ...routeOf(marcApi.import, errors),
    handler: async (request) => {
      const user = requireRole(request, 'catalogAdmin');
      const { data, fileName } = await marcUpload(request);
      return marc.import(user.id, data, request.query.format, fileName);
    },
  });
  r.route({
    ...routeOf(marcApi.book),
    handler: async (request, reply) => {
      const base = documentOrigin(context.config, request, reply);
      const file = await marc.exportBook(
        request.params.catalogId,
        viewerOf(request),
        request.query.format,
        base,
      );
      return reply
        .type(typeOf(request.query.format))
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'private, no-cache')
        .send(file.body);
    },
  });
  r.route({
    ...routeOf(marcApi.catalogue),
    handler: async (request, reply) => {
      const format = request.query.format;
      return reply
        .type(typeOf(format))
        .header('content-disposition', `attachment; filename="catalogue-${format}.xml"`)
        .header('cache-control', 'private, no-cache')
        .send(
          Readable.from(
            marc.exportCatalogue(viewerOf(request), format, documentOrigin(context.config, request, reply)),
          ),
        );
    },
  });
};

/** MARCXML's media type (RFC 6207) for MARC21; MarcXchange (CNMARC) is plain XML. */
const typeOf = (format: string) =>
  format === 'cnmarc' ? 'application/xml; charset=utf-8' : 'application/marcxml+xml; charset=utf-8';
