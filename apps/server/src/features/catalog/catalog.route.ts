import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { catalogApi, ErrorBody } from '@guji/shared';
import { routeOf } from '../../http/contract-route.ts';
import { viewerOf } from '../../http/session.ts';
import { isCatalogStaff } from './access.ts';
import type { RouteModule } from '../../http/route-module.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Catalogue: classification tree, hot list, title search, book detail, volumes, directory, reader. */
export const catalogRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const catalog = context.services.catalog;

  r.route({
    ...routeOf(catalogApi.classifications),
    handler: () => catalog.classificationTree(),
  });

  r.route({
    ...routeOf(catalogApi.hot),
    handler: (request) => catalog.hot(request.query.pageNum, request.query.pageSize),
  });

  r.route({
    ...routeOf(catalogApi.search, errors),
    handler: async (request) => {
      const viewer = viewerOf(request);
      const page = await catalog.search(request.query, viewer);
      const { title, classCode, pageNum } = request.query;
      if (pageNum === 1 && (title || classCode))
        await context.services.usage.count('searches', viewer.userId);
      return page;
    },
  });

  r.route({
    ...routeOf(catalogApi.get, errors),
    handler: (request) => catalog.detail(request.params.catalogId, viewerOf(request)),
  });

  r.route({
    ...routeOf(catalogApi.update, errors),
    handler: async (request) => {
      const viewer = viewerOf(request);
      // Staff's class codes must exist; anyone else is refused by the update itself.
      if (isCatalogStaff(viewer.roles)) await context.services.catalogAdmin.checkUpdate(request.body);
      // The update writes its audit record (the changed fields before and after) in its transaction.
      return catalog.update(request.params.catalogId, request.body, viewer);
    },
  });

  r.route({
    ...routeOf(catalogApi.volumes, errors),
    handler: (request) => catalog.volumes(request.params.catalogId, viewerOf(request)),
  });

  r.route({
    ...routeOf(catalogApi.directory, errors),
    handler: (request) => catalog.directory(request.params.fascicleId, viewerOf(request)),
  });

  r.route({
    ...routeOf(catalogApi.pageOcr, errors),
    handler: async (request, reply) => {
      void reply.header('cache-control', 'private, no-cache');
      return catalog.pageOcr(request.params.imageId, viewerOf(request));
    },
  });

  r.route({
    ...routeOf(catalogApi.advancedSearch, errors),
    handler: async (request) => {
      const viewer = viewerOf(request);
      const page = await catalog.advancedSearch(request.body, viewer);
      if (request.body.pageNum === 1) await context.services.usage.count('searches', viewer.userId);
      return page;
    },
  });

  r.route({
    ...routeOf(catalogApi.reader, errors),
    handler: async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const viewer = viewerOf(request);
      const data = await catalog.reader(request.query.catalogId, request.query.fascicleId, viewer);
      await context.services.usage.count('bookOpens', viewer.userId);
      return data;
    },
  });
};
