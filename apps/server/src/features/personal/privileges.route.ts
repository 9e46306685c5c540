import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../http/session.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { paged, Privilege } from '@guji/shared';
import { errors, PageNum } from './route-helpers.ts';

/** Privileges: the books approved reservations let me read, until when. */
export const privilegeRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { personal } = context.services;

  r.get(
    '/api/me/privileges',
    {
      schema: {
        tags: ['personal'],
        summary: 'My approved, unexpired privileges (Vip channel)',
        querystring: PageNum,
        response: { 200: paged(Privilege), ...errors },
      },
    },
    (request) => personal.privileges(requireUser(request).id, request.query.pageNum),
  );
};
