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
  paymentNotifyApi,
  sandboxPaymentApi,
  urlOf,
  type PaymentNoticeResult,
} from '@guji/shared';
import { AppError } from '../../errors.ts';
import { requireRole, requireUser, viewerOf } from '../../http/session.ts';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';
import type { AppContext } from '../../context.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** The public origin of this request, for the payment page's address. */
const originOf = (context: AppContext, request: FastifyRequest) =>
  context.config.publicOrigin?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;

/** Who asks about an order: the reader, and whether they are a print administrator. */
const who = (request: FastifyRequest) => {
  const user = requireUser(request);
  return { userId: user.id, printAdmin: hasRole(user.roles, 'printAdmin') };
};

/**
 * Print orders (issue 6): the reader's print list and checkout, scan-to-pay with the sandbox provider and
 * its signed notify webhook (or the live provider's), cash at the desk, and the print desk (print
 * administrators).
 */
export const printRoutes: RouteModule = (app, deps) => {
  listRoutes(app, deps);
  orderRoutes(app, deps);
  sandboxRoutes(app, deps);
  alipayNotifyRoute(app, deps);
  wechatNotifyRoute(app, deps);
  deskRoutes(app, deps);
};

/** The prices, and the reader's print list. */
const listRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { printCart: cart } = context.services;
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
};

/** Checkout and the order's payment state. */
const orderRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { checkout } = context.services;
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
        originOf(context, request),
      ),
  });
};

/**
 * The sandbox provider's mobile payment page and its notify webhook: registered only while it is the
 * live provider (PAYMENT_PROVIDER=sandbox), otherwise they answer 404 like any unknown address.
 */
const sandboxRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { checkout } = context.services;
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
};

/** Alipay's notify webhook (form fields): registered only while Alipay is the live provider. */
const alipayNotifyRoute: RouteModule = (app, { context }) => {
  const { checkout } = context.services;
  if (checkout.provider?.name === 'alipay') {
    void app.register((scope, _options, done) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 64 * 1024 },
        (_request, body, parsed) => parsed(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      scope.withTypeProvider<ZodTypeProvider>().route({
        ...routeOf(paymentNotifyApi.alipay),
        handler: async (request, reply) => {
          void reply.header('content-type', 'text/plain; charset=utf-8');
          try {
            await checkout.handleNotice(request.body);
            return await reply.send('success');
          } catch (error) {
            // A notice handled before (Alipay sends it again until it reads success) changes nothing.
            if (error instanceof AppError && error.code === 'PAYMENT_REPLAY') return reply.send('success');
            if (!(error instanceof AppError)) throw error;
            return reply.code(error.status).send('fail');
          }
        },
      });
      done();
    });
  }
};

/**
 * WeChat Pay's notify webhook (JSON signed over its raw text): registered only while WeChat Pay is live.
 * It reads 200/204 with no body as handled; anything else, with {code: FAIL, message}, makes it retry.
 */
const wechatNotifyRoute: RouteModule = (app, { context }) => {
  const { checkout } = context.services;
  if (checkout.provider?.name === 'wechat') {
    const raws = new WeakMap<FastifyRequest, string>();
    void app.register((scope, _options, done) => {
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser(
        'application/json',
        { parseAs: 'string', bodyLimit: 64 * 1024 },
        (request, body, parsed) => {
          const text = String(body);
          raws.set(request, text);
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch {
            value = undefined;
          }
          // Not an object: an empty one, which the signature check then refuses.
          parsed(null, value && typeof value === 'object' && !Array.isArray(value) ? value : {});
        },
      );
      scope.withTypeProvider<ZodTypeProvider>().route({
        ...routeOf(paymentNotifyApi.wechat),
        handler: async (request, reply) => {
          try {
            await checkout.handleNotice(request.body, raws.get(request), request.headers);
            return await reply.code(204).send();
          } catch (error) {
            // A notice handled before (WeChat sends it again until it reads success) changes nothing.
            if (error instanceof AppError && error.code === 'PAYMENT_REPLAY') return reply.code(204).send();
            if (error instanceof AppError)
              return reply.code(error.status).send({ code: 'FAIL', message: error.message });
            request.log.error({ err: error }, 'WeChat Pay notice failed');
            return reply.code(500).send({ code: 'FAIL', message: '系统错误，请稍后重试' });
          }
        },
      });
      done();
    });
  }
};

/** The print desk (print administrators): orders, payment at the desk, printing, posting. */
const deskRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { printDesk: desk } = context.services;
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
      const { data, downloadName } = await desk.pdfFile(request.params.name);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${downloadName}"`)
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
