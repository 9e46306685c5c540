import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../http/session.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { Footprint, FootprintPageRequest, MSG, OkBody, paged } from '@guji/shared';
import { errors, IdParams, PageNum, me } from './route-helpers.ts';

/** Footprints: the books I opened with the last page read. */
export const footprintRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { personal } = context.services;

  r.post(
    '/api/me/footprints',
    {
      schema: {
        tags: ['personal'],
        summary: 'The reader turned to a page: my footprint in the book keeps it',
        body: FootprintPageRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const viewer = me(request);
      await personal.footprintPage(viewer, request.body.imageId);
      await context.services.usage.count('pageViews', viewer.userId);
      return { ok: true as const };
    },
  );
  r.get(
    '/api/me/footprints',
    {
      schema: {
        tags: ['personal'],
        summary: 'My footprints: one row per book, newest first (spec queryBrowseByPage)',
        querystring: PageNum,
        response: { 200: paged(Footprint), ...errors },
      },
    },
    (request) => personal.footprints(requireUser(request).id, request.query.pageNum),
  );
  r.delete(
    '/api/me/footprints/:id',
    {
      schema: {
        tags: ['personal'],
        summary: 'Remove my footprints in one book (id: catalogId)',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await personal.deleteFootprints(requireUser(request).id, request.params.id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  );
  r.delete(
    '/api/me/footprints',
    {
      schema: {
        tags: ['personal'],
        summary: 'Remove all my footprints',
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await personal.deleteFootprints(requireUser(request).id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  );
};
