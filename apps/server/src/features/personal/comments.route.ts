import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireRole, requireUser, viewerOf } from '../../http/session.ts';
import { commentsApi, MSG } from '@guji/shared';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { errors } from './route-helpers.ts';
import { writeLimit } from '../../http/write-limit.ts';

/** Comments on books: the book page’s list, mine, and staff hiding one. */
export const commentRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { personal } = context.services;

  r.route({
    ...routeOf(commentsApi.list, errors),
    handler: (request) => personal.bookComments(request.params.id, viewerOf(request), request.query.pageNum),
  });
  r.route({
    ...routeOf(commentsApi.create, errors, writeLimit(context.config.writeRateLimitPerMinute)),
    handler: async (request) => {
      await personal.addComment(requireUser(request).id, request.params.id, request.body.text);
      return { ok: true as const, message: MSG.commentPosted };
    },
  });
  r.route({
    ...routeOf(commentsApi.mine, errors),
    handler: (request) => personal.myComments(requireUser(request).id, request.query.pageNum),
  });
  r.route({
    ...routeOf(commentsApi.remove, errors),
    handler: async (request) => {
      await personal.deleteComment(requireUser(request).id, request.params.id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  });
  r.route({
    ...routeOf(commentsApi.setHidden, errors),
    handler: async (request) => {
      const user = requireRole(request, 'catalogAdmin');
      await personal.setCommentHidden(user.id, user.roles, request.params.id, request.body.hidden);
      return { ok: true as const };
    },
  });
};
