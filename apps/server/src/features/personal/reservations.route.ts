import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireRole, requireUser } from '../../http/session.ts';
import { reservationsApi } from '@guji/shared';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { errors } from './route-helpers.ts';

/** Reservations: applying by call number, withdrawing, the reviewers’ queue and decisions, durations. */
export const reservationRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { reservations } = context.services;

  r.route({
    ...routeOf(reservationsApi.durations),
    handler: () => reservations.durations(),
  });
  r.route({
    ...routeOf(reservationsApi.lookup, errors),
    handler: (request) => {
      requireUser(request);
      return reservations.lookup(request.query.callNumber);
    },
  });
  r.route({
    ...routeOf(reservationsApi.apply, errors),
    handler: (request) => reservations.apply(requireUser(request).id, request.body),
  });
  r.route({
    ...routeOf(reservationsApi.mine, errors),
    handler: (request) => reservations.mine(requireUser(request).id, request.query.pageNum),
  });
  r.route({
    ...routeOf(reservationsApi.withdraw, errors),
    handler: (request) => reservations.withdraw(requireUser(request).id, request.params.id),
  });

  r.route({
    ...routeOf(reservationsApi.queue, errors),
    handler: (request) => {
      requireRole(request, 'reviewer');
      return reservations.queue(request.query.status.split(',').map(Number), request.query.pageNum);
    },
  });
  r.route({
    ...routeOf(reservationsApi.take, errors),
    handler: (request) => reservations.take(requireRole(request, 'reviewer').id, request.params.id),
  });
  r.route({
    ...routeOf(reservationsApi.approve, errors),
    handler: async (request) => {
      const user = requireRole(request, 'reviewer');
      const after = await reservations.approve(user.id, request.params.id);
      await context.services.admin.record(
        user.id,
        'reservation.approve',
        `reservation:${request.params.id}`,
        null,
        {
          auditStatus: after.auditStatus,
          expiresAt: after.expiresAt,
        },
      );
      return after;
    },
  });
  r.route({
    ...routeOf(reservationsApi.refuse, errors),
    handler: async (request) => {
      const user = requireRole(request, 'reviewer');
      const after = await reservations.refuse(user.id, request.params.id, request.body.reason);
      await context.services.admin.record(
        user.id,
        'reservation.refuse',
        `reservation:${request.params.id}`,
        null,
        {
          auditStatus: after.auditStatus,
          refuseReason: after.refuseReason,
        },
      );
      return after;
    },
  });
  r.route({
    ...routeOf(reservationsApi.updateDuration, errors),
    handler: async (request) => {
      const user = requireRole(request, 'admin');
      const before = (await reservations.durations()).find((d) => d.code === request.params.code);
      const after = await reservations.updateDuration(request.params.code, request.body);
      await context.services.admin.record(
        user.id,
        'duration.update',
        `duration:${request.params.code}`,
        before,
        after,
      );
      return after;
    },
  });
};
