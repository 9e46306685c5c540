import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, FullTextQuery, PageMatches, PageMatchQuery, TextHitPage } from '@guji/shared';
import { viewerOf } from '../../http/session.ts';
import type { RouteModule } from '../../http/route-module.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const Id = z.coerce.number().int().positive();

/**
 * Full-text search, in-book search and the boxes of a match on a page (DESIGN.md §6). All three exist
 * only in the reading room (elsewhere 403 READING_ROOM_ONLY) and only for signed-in users (401
 * LOGIN_REQUIRED), and answer only from books the user may read (FullTextService).
 */
export const searchRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { fullText, catalog } = context.services;

  r.get(
    '/api/search/full-text',
    {
      schema: {
        tags: ['search'],
        summary:
          'Full-text search over the recognised text of every searchable book (signed in, reading room only)',
        querystring: FullTextQuery,
        response: { 200: TextHitPage, ...errors },
      },
    },
    async (request) => {
      const { text, pageNum, pageSize } = request.query;
      const viewer = viewerOf(request);
      const hits = await fullText.search(viewer, text, pageNum, pageSize);
      if (pageNum === 1) await context.services.usage.count('searches', viewer.userId);
      return hits;
    },
  );

  r.get(
    '/api/books/:catalogId/text-search',
    {
      schema: {
        tags: ['search'],
        summary: 'Search the text of one book (signed in, reading room only)',
        params: z.object({ catalogId: Id }),
        querystring: FullTextQuery,
        response: { 200: TextHitPage, ...errors },
      },
    },
    async (request) => {
      const { text, pageNum, pageSize } = request.query;
      return fullText.searchInBook(
        viewerOf(request),
        request.params.catalogId,
        text,
        pageNum,
        pageSize,
        catalog,
      );
    },
  );

  r.get(
    '/api/pages/:imageId/matches',
    {
      schema: {
        tags: ['search'],
        summary:
          'Boxes of every occurrence of a text on a page (reading room only; the page must be readable)',
        params: z.object({ imageId: Id }),
        querystring: PageMatchQuery,
        response: { 200: PageMatches, ...errors },
      },
    },
    async (request) =>
      fullText.pageMatches(viewerOf(request), request.params.imageId, request.query.text, catalog),
  );
};
