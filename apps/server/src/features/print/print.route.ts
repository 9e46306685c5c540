import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ErrorBody,
  hasRole,
  MSG,
  printDeskApi,
  printItemsApi,
  printOrdersApi,
  printPricesApi,
  sandboxPaymentApi,
  urlOf,
  type PaymentNoticeResult,
} from '@guji/shared';
import { requireRole, requireUser, viewerOf } from '../../http/session.ts';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * Print orders (issue 6): the reader's print list and checkout, scan-to-pay with the sandbox provider and
 * its signed notify webhook, cash at the desk, and the print desk (print administrators).
 */
export const printRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { printCart: cart, checkout, printDesk: desk } = context.services;
  const originOf = (request: FastifyRequest) =>
    context.config.publicOrigin?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;
  const who = (request: FastifyRequest) => {
    const user = requireUser(request);
    return { userId: user.id, printAdmin: hasRole(user.roles, 'printAdmin') };
  };

  r.route({
    ...routeOf(printPricesApi.list),
    handler: () => cart.prices(),
  });
  r.route({
    ...routeOf(printPricesApi.update, errors),
    handler: (request) => cart.setPrices(request.body.prices, requireRole(request, 'admin').id),
  });

  r.route({
    ...routeOf(printItemsApi.add, errors),
    handler: async (request) => {
      const user = requireUser(request);
      const result = await cart.addItems({ ...viewerOf(request), userId: user.id }, request.body);
      return { ...result, message: MSG.printAdded };
    },
  });
  r.route({
    ...routeOf(printItemsApi.list, errors),
    handler: (request) => cart.myItems(requireUser(request).id, request.query.tab, request.query.pageNum),
  });
  r.route({
    ...routeOf(printItemsApi.remove, errors),
    handler: async (request) => {
      await cart.deleteItems(requireUser(request).id, request.body.ids);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  });

  r.route({
    ...routeOf(printOrdersApi.checkout, errors),
    handler: (request) =>
      checkout.checkout({ ...viewerOf(request), userId: requireUser(request).id }, request.body),
  });
  r.route({
    ...routeOf(printOrdersApi.get, errors),
    handler: (request) => checkout.order(request.params.orderNum, who(request)),
  });
  r.route({
    ...routeOf(printOrdersApi.payStatus, errors),
    handler: async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return { data: await checkout.payStatus(request.params.orderNum, who(request)) };
    },
  });
  r.route({
    ...routeOf(printOrdersApi.startScan, errors),
    handler: (request) =>
      checkout.startScan(
        { ...viewerOf(request), userId: requireUser(request).id },
        request.params.orderNum,
        originOf(request),
      ),
  });

  // The sandbox provider's mobile payment page and its notify webhook: registered only while it is the
  // live provider (PAYMENT_PROVIDER=sandbox), otherwise they answer 404 like any unknown address.
  if (checkout.sandbox) {
    r.route({
      ...routeOf(sandboxPaymentApi.info, errors),
      handler: (request) => checkout.sandboxInfo(request.params.tradeNo, request.query.sig),
    });
    r.route({
      ...routeOf(sandboxPaymentApi.confirm, errors),
      handler: async (request) => {
        const notice = await checkout.sandboxNotice(
          request.params.tradeNo,
          request.body.sig,
          request.body.pay,
        );
        const answer = await app.inject({
          method: sandboxPaymentApi.notify.method,
          url: sandboxPaymentApi.notify.path,
          payload: notice,
        });
        const paid = answer.statusCode === 200 && answer.json<PaymentNoticeResult>().paid;
        return { payResult: paid ? (1 as const) : (0 as const) };
      },
    });
    r.route({
      ...routeOf(sandboxPaymentApi.notify, errors),
      handler: (request) => checkout.handleNotice(request.body),
    });
  }

  // The print desk

  r.route({
    ...routeOf(printDeskApi.orders, errors),
    handler: (request) => {
      requireRole(request, 'printAdmin');
      return desk.summary(request.query);
    },
  });
  r.route({
    ...routeOf(printDeskApi.items, errors),
    handler: (request) => {
      requireRole(request, 'printAdmin');
      return desk.deskOrderItems(request.params.orderNum);
    },
  });
  r.route({
    ...routeOf(printDeskApi.log, errors),
    handler: (request) => {
      requireRole(request, 'printAdmin');
      return desk.orderLog(request.params.orderNum);
    },
  });
  r.route({
    ...routeOf(printDeskApi.confirmPayment, errors),
    handler: async (request) => {
      await desk.confirmPayment(requireRole(request, 'printAdmin').id, request.body.ids);
      return { ok: true as const, message: MSG.paymentConfirmed };
    },
  });
  r.route({
    ...routeOf(printDeskApi.printed, errors),
    handler: async (request) => {
      const result = await desk.markPrinted(requireRole(request, 'printAdmin').id, request.body.ids);
      return {
        message: MSG.printedDone,
        pdfUrl: urlOf(printDeskApi.pdf, { name: result.file }),
        pages: result.pages,
      };
    },
  });
  r.route({
    ...routeOf(printDeskApi.pdf),
    handler: async (request, reply) => {
      requireRole(request, 'printAdmin');
      const data = await desk.pdfFile(request.params.name);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${request.params.name}"`)
        .header('cache-control', 'private, no-store')
        .send(data);
    },
  });
  r.route({
    ...routeOf(printDeskApi.express, errors),
    handler: async (request) => {
      await desk.saveExpress(
        requireRole(request, 'printAdmin').id,
        request.body.ids,
        request.body.expressNumber,
      );
      return { ok: true as const, message: MSG.expressSaved };
    },
  });
  r.route({
    ...routeOf(printDeskApi.notifications, errors),
    handler: (request) => {
      requireRole(request, 'printAdmin');
      return desk.notifications();
    },
  });
};
