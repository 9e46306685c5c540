import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { collectionsApi } from '@guji/shared';
import { requireUser } from '../../http/session.ts';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { errors } from './route-helpers.ts';

/** Collections (收藏): whether a book is collected, collecting, my collection. */
export const collectionRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { personal } = context.services;

  r.route({
    ...routeOf(collectionsApi.state, errors),
    handler: async (request) => ({
      collected: await personal.isCollected(requireUser(request).id, request.params.id),
    }),
  });
  r.route({
    ...routeOf(collectionsApi.collect, errors),
    handler: async (request) => {
      await personal.collect(requireUser(request).id, request.params.id);
      return { collected: true };
    },
  });
  r.route({
    ...routeOf(collectionsApi.uncollect, errors),
    handler: async (request) => {
      await personal.uncollect(requireUser(request).id, request.params.id);
      return { collected: false };
    },
  });
  r.route({
    ...routeOf(collectionsApi.mine, errors),
    handler: (request) => personal.collections(requireUser(request).id, request.query.pageNum),
  });
};
