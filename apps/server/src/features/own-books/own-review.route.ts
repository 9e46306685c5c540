import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MSG, ownReviewApi } from '@guji/shared';
import { requireRole } from '../../http/session.ts';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { errors } from './own-route-helpers.ts';

/** Publication review of own books (reviewers): the queue, approval, refusal, withdrawal. */
export const ownReviewRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const review = context.services.ownReview;

  r.route({
    ...routeOf(ownReviewApi.queue, errors),
    handler: (request) => {
      requireRole(request, 'reviewer');
      return review.queue(request.query.status);
    },
  });
  r.route({
    ...routeOf(ownReviewApi.approve, errors),
    handler: async (request) => {
      const reviewer = requireRole(request, 'reviewer');
      await context.services.catalogAdmin.checkClassCode(request.body.classCode);
      await review.approve(request.params.id, reviewer.id, request.body);
      return { ok: true as const, message: MSG.ownPublished };
    },
  });
  r.route({
    ...routeOf(ownReviewApi.refuse, errors),
    handler: async (request) => {
      await review.refuse(request.params.id, request.body.reason, requireRole(request, 'reviewer').id);
      return { ok: true as const, message: MSG.reservationRefused };
    },
  });
  r.route({
    ...routeOf(ownReviewApi.withdraw, errors),
    handler: async (request) => {
      await review.withdraw(request.params.id, request.body.reason, requireRole(request, 'reviewer').id);
      return { ok: true as const };
    },
  });
};
