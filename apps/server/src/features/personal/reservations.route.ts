import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireRole, requireUser } from '../../http/session.ts';
import { reservationsApi } from '@guji/shared';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { errors } from './route-helpers.ts';
import { writeLimit } from '../../http/write-limit.ts';

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
    ...routeOf(reservationsApi.apply, errors, writeLimit(context.config.writeRateLimitPerMinute)),
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
    handler: (request) => reservations.approve(requireRole(request, 'reviewer').id, request.params.id),
  });
  r.route({
    ...routeOf(reservationsApi.refuse, errors),
    handler: (request) =>
      reservations.refuse(requireRole(request, 'reviewer').id, request.params.id, request.body.reason),
  });
  r.route({
    ...routeOf(reservationsApi.updateDuration, errors),
    handler: (request) =>
      reservations.updateDuration(requireRole(request, 'admin').id, request.params.code, request.body),
  });
};
