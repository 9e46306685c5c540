import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../http/session.ts';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { privilegesApi } from '@guji/shared';
import { errors } from './route-helpers.ts';

/** Privileges: the books approved reservations let me read, until when. */
export const privilegeRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { personal } = context.services;

  r.route({
    ...routeOf(privilegesApi.mine, errors),
    handler: (request) => personal.privileges(requireUser(request).id, request.query.pageNum),
  });
};
