import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../http/session.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { CollectionItem, CollectState, paged } from '@guji/shared';
import { errors, IdParams, PageNum } from './route-helpers.ts';

/** Collections (收藏): whether a book is collected, collecting, my collection. */
export const collectionRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { personal } = context.services;

  r.get(
    '/api/books/:id/collect',
    {
      schema: {
        tags: ['personal'],
        summary: 'Whether I collected a book',
        params: IdParams,
        response: { 200: CollectState, ...errors },
      },
    },
    async (request) => ({
      collected: await personal.isCollected(requireUser(request).id, request.params.id),
    }),
  );
  r.put(
    '/api/books/:id/collect',
    {
      schema: {
        tags: ['personal'],
        summary: 'Collect a book (spec saveCollect)',
        params: IdParams,
        response: { 200: CollectState, ...errors },
      },
    },
    async (request) => {
      await personal.collect(requireUser(request).id, request.params.id);
      return { collected: true };
    },
  );
  r.delete(
    '/api/books/:id/collect',
    {
      schema: {
        tags: ['personal'],
        summary: 'Cancel a collection (spec cancelCollect)',
        params: IdParams,
        response: { 200: CollectState, ...errors },
      },
    },
    async (request) => {
      await personal.uncollect(requireUser(request).id, request.params.id);
      return { collected: false };
    },
  );
  r.get(
    '/api/me/collections',
    {
      schema: {
        tags: ['personal'],
        summary: 'My collections, 10 a page (spec queryCollectByPage)',
        querystring: PageNum,
        response: { 200: paged(CollectionItem), ...errors },
      },
    },
    (request) => personal.collections(requireUser(request).id, request.query.pageNum),
  );
};
