import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { catalogApi, ErrorBody, type CitationQuery } from '@guji/shared';
import { routeOf } from '../../http/contract-route.ts';
import { documentOrigin } from '../../http/document-origin.ts';
import { viewerOf } from '../../http/session.ts';
import type { RouteModule } from '../../http/route-module.ts';
import {
  attachmentOf,
  CITATION_FORMATS,
  toBibtex,
  toCsl,
  toRis,
  type CitationFormat,
} from './citation-formats.ts';
import type { CitedWork } from './citation.service.ts';

const errors = { 400: ErrorBody, 404: ErrorBody };

/**
 * Citation exports of a book, a volume or a page (issue 18): RIS, BibTeX and CSL-JSON downloads in
 * UTF-8, by the catalogue's visibility rule (a visible book's metadata is public).
 */
export const citationRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { citations } = context.services;

  /** The cited work, with the download's headers set. */
  const cite = async (
    request: FastifyRequest<{ Params: { catalogId: number }; Querystring: CitationQuery }>,
    reply: FastifyReply,
    format: CitationFormat,
  ): Promise<CitedWork> => {
    // The answer depends on the session (hidden books for staff) and holds the day it was made.
    void reply.header('cache-control', 'private, no-cache');
    const origin = documentOrigin(context.config, request, reply);
    const work = await citations.cite(request.params.catalogId, request.query, viewerOf(request), origin);
    void reply.type(CITATION_FORMATS[format].type).header('content-disposition', attachmentOf(work, format));
    return work;
  };

  r.route({
    ...routeOf(catalogApi.citationRis),
    handler: async (request, reply) => reply.send(toRis(await cite(request, reply, 'ris'))),
  });

  r.route({
    ...routeOf(catalogApi.citationBibtex),
    handler: async (request, reply) => reply.send(toBibtex(await cite(request, reply, 'bibtex'))),
  });

  r.route({
    ...routeOf(catalogApi.citationCsl, errors),
    handler: async (request, reply) => toCsl(await cite(request, reply, 'csl')),
  });
};
