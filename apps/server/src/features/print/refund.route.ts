import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, refundApi } from '@guji/shared';
import { requireRole } from '../../http/session.ts';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * Refunds and reconciliation at the print desk (issue 18 part 5; docs/payments.md): cancel a paid,
 * unprinted order and refund it, see and retry an order's refunds, and check a day's trades against
 * the provider. Print administrators only.
 */
export const refundRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { refunds } = context.services;

  r.route({
    ...routeOf(refundApi.cancel, errors),
    handler: (request) =>
      refunds.cancelOrder(
        requireRole(request, 'printAdmin').id,
        request.params.orderNum,
        request.body.reason,
      ),
  });
  r.route({
    ...routeOf(refundApi.ofOrder, errors),
    handler: (request) => {
      requireRole(request, 'printAdmin');
      return refunds.ofOrder(request.params.orderNum);
    },
  });
  r.route({
    ...routeOf(refundApi.retry, errors),
    handler: (request) => {
      requireRole(request, 'printAdmin');
      return refunds.retry(request.params.refundId);
    },
  });
  r.route({
    ...routeOf(refundApi.reconciliation, errors),
    handler: (request) => {
      requireRole(request, 'printAdmin');
      return refunds.reconcile(request.query.date);
    },
  });
};
