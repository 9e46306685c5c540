import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../http/session.ts';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { footprintsApi, MSG } from '@guji/shared';
import { errors, me } from './route-helpers.ts';

/** Footprints: the books I opened with the last page read. */
export const footprintRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { personal } = context.services;

  r.route({
    ...routeOf(footprintsApi.report, errors),
    handler: async (request) => {
      const viewer = me(request);
      await personal.footprintPage(viewer, request.body.imageId);
      await context.services.usage.count('pageViews', viewer.userId);
      return { ok: true as const };
    },
  });
  r.route({
    ...routeOf(footprintsApi.mine, errors),
    handler: (request) => personal.footprints(requireUser(request).id, request.query.pageNum),
  });
  r.route({
    ...routeOf(footprintsApi.remove, errors),
    handler: async (request) => {
      await personal.deleteFootprints(requireUser(request).id, request.params.id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  });
  r.route({
    ...routeOf(footprintsApi.clear, errors),
    handler: async (request) => {
      await personal.deleteFootprints(requireUser(request).id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  });
};
