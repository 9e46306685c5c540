import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, searchApi } from '@guji/shared';
import { routeOf } from '../../http/contract-route.ts';
import { viewerOf } from '../../http/session.ts';
import type { RouteModule } from '../../http/route-module.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/**
 * Full-text search, in-book search and the boxes of a match on a page (DESIGN.md §6). All three exist
 * only in the reading room (elsewhere 403 READING_ROOM_ONLY) and only for signed-in users (401
 * LOGIN_REQUIRED), and answer only from books the user may read (FullTextService).
 */
export const searchRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { fullText, catalog } = context.services;

  r.route({
    ...routeOf(searchApi.fullText, errors),
    handler: async (request) => {
      const viewer = viewerOf(request);
      const hits = await fullText.search(viewer, request.query);
      // A book's pages opened from the grouped list are not a new search.
      if (request.query.pageNum === 1 && request.query.catalogId === undefined)
        await context.services.usage.count('searches', viewer.userId);
      return hits;
    },
  });

  r.route({
    ...routeOf(searchApi.fullTextBooks, errors),
    handler: async (request) => {
      const viewer = viewerOf(request);
      const books = await fullText.searchBooks(viewer, request.query);
      if (request.query.pageNum === 1) await context.services.usage.count('searches', viewer.userId);
      return books;
    },
  });

  r.route({
    ...routeOf(searchApi.inBook, errors),
    handler: async (request) => {
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
  });

  r.route({
    ...routeOf(searchApi.pageMatches, errors),
    handler: async (request) =>
      fullText.pageMatches(viewerOf(request), request.params.imageId, request.query.text, catalog),
  });
};
