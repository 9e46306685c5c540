import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireRole, requireUser } from '../../http/session.ts';
import {
  CallNumberMatch,
  CreatedReservation,
  paged,
  RefuseRequest,
  Reservation,
  ReservationDuration,
  ReservationRequest,
  RESERVATION_STATUS,
  UpdateDurationRequest,
} from '@guji/shared';
import type { RouteModule } from '../../http/route-module.ts';
import { errors, IdParams, PageNum } from './route-helpers.ts';

/** Reservations: applying by call number, withdrawing, the reviewers’ queue and decisions, durations. */
export const reservationRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { reservations } = context.services;

  r.get(
    '/api/reservations/durations',
    {
      schema: {
        tags: ['reservations'],
        summary: 'Reservation durations (spec queryApplyDic)',
        response: { 200: z.array(ReservationDuration) },
      },
    },
    () => reservations.durations(),
  );
  r.get(
    '/api/reservations/lookup',
    {
      schema: {
        tags: ['reservations'],
        summary: 'Books whose call number starts with the text (spec queryCatalogList)',
        querystring: z.object({ callNumber: z.string().max(100).default('') }),
        response: { 200: z.array(CallNumberMatch), ...errors },
      },
    },
    (request) => {
      requireUser(request);
      return reservations.lookup(request.query.callNumber);
    },
  );
  r.post(
    '/api/reservations',
    {
      schema: {
        tags: ['reservations'],
        summary: 'Apply for a reservation (spec saveApply)',
        body: ReservationRequest,
        response: { 200: CreatedReservation, ...errors },
      },
    },
    (request) => reservations.apply(requireUser(request).id, request.body),
  );
  r.get(
    '/api/me/reservations',
    {
      schema: {
        tags: ['reservations'],
        summary: 'My applications, newest first (spec queryApplyList)',
        querystring: PageNum,
        response: { 200: paged(Reservation), ...errors },
      },
    },
    (request) => reservations.mine(requireUser(request).id, request.query.pageNum),
  );
  r.post(
    '/api/me/reservations/:id/withdraw',
    {
      schema: {
        tags: ['reservations'],
        summary: 'Withdraw one of my applications while undecided',
        params: IdParams,
        response: { 200: Reservation, ...errors },
      },
    },
    (request) => reservations.withdraw(requireUser(request).id, request.params.id),
  );

  r.get(
    '/api/admin/reservations',
    {
      schema: {
        tags: ['admin'],
        summary: 'Reservation review queue (reviewers): by status, oldest first',
        querystring: PageNum.extend({
          status: z
            .string()
            .regex(/^\d(,\d)*$/)
            .default(`${RESERVATION_STATUS.unaudited},${RESERVATION_STATUS.reviewing}`),
        }),
        response: { 200: paged(Reservation), ...errors },
      },
    },
    (request) => {
      requireRole(request, 'reviewer');
      return reservations.queue(request.query.status.split(',').map(Number), request.query.pageNum);
    },
  );
  r.post(
    '/api/admin/reservations/:id/take',
    {
      schema: {
        tags: ['admin'],
        summary: 'Take an application under review (0 → 1)',
        params: IdParams,
        response: { 200: Reservation, ...errors },
      },
    },
    (request) => reservations.take(requireRole(request, 'reviewer').id, request.params.id),
  );
  r.post(
    '/api/admin/reservations/:id/approve',
    {
      schema: {
        tags: ['admin'],
        summary: 'Approve (→ 2): grants the privilege until the end of its last day',
        params: IdParams,
        response: { 200: Reservation, ...errors },
      },
    },
    async (request) => {
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
  );
  r.post(
    '/api/admin/reservations/:id/refuse',
    {
      schema: {
        tags: ['admin'],
        summary: 'Refuse with a reason (→ 4)',
        params: IdParams,
        body: RefuseRequest,
        response: { 200: Reservation, ...errors },
      },
    },
    async (request) => {
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
  );
  r.put(
    '/api/admin/reservation-durations/:code',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change a duration’s label and days (administrators; ANB0401 stays same-day)',
        params: z.object({ code: z.string().max(20) }),
        body: UpdateDurationRequest,
        response: { 200: ReservationDuration, ...errors },
      },
    },
    async (request) => {
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
  );
};
