import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddPrintItemsRequest,
  AdminPrintQuery,
  AdminPrintSummary,
  BatchRequest,
  CheckoutRequest,
  DeleteItemsRequest,
  ErrorBody,
  ExpressRequest,
  hasRole,
  MSG,
  Notification,
  OkBody,
  paged,
  PayStatus,
  PrintedResult,
  PrintItem,
  PrintOrder,
  PrintPrice,
  SandboxPaymentInfo,
  ScanPayment,
  UpdatePricesRequest,
} from '@guji/shared';
import { requireRole, requireUser, viewerOf } from '../../http/session.ts';
import type { RouteModule } from '../../http/route-module.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const OrderParams = z.object({ orderNum: z.string().regex(/^P\d{20}$/) });
const TradeParams = z.object({ tradeNo: z.string().regex(/^[0-9a-f]{24}$/) });

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

  r.get(
    '/api/print/prices',
    {
      schema: {
        tags: ['print'],
        summary: 'Price configuration (spec getPriceConfig): fen per page by paper size',
        response: { 200: z.array(PrintPrice) },
      },
    },
    () => cart.prices(),
  );
  r.put(
    '/api/admin/print/prices',
    {
      schema: {
        tags: ['admin'],
        summary: 'Set the prices (administrators); items already added keep theirs',
        body: UpdatePricesRequest,
        response: { 200: z.array(PrintPrice), ...errors },
      },
    },
    async (request) => {
      const user = requireRole(request, 'admin');
      const before = await cart.prices();
      const after = await cart.setPrices(request.body.prices, user.id);
      await context.services.admin.record(user.id, 'cart.prices', 'print-prices', before, after);
      return after;
    },
  );

  r.post(
    '/api/print/items',
    {
      schema: {
        tags: ['print'],
        summary:
          'Add the current page ({ imageId }) or a page range of a volume ({ fascicleId, from, to }) to my print list',
        body: AddPrintItemsRequest,
        response: { 200: z.object({ added: z.number().int(), message: z.string() }), ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const result = await cart.addItems({ ...viewerOf(request), userId: user.id }, request.body);
      return { ...result, message: MSG.printAdded };
    },
  );
  r.get(
    '/api/print/items',
    {
      schema: {
        tags: ['print'],
        summary:
          "My prints: tab 'all' (6 a page, newest first; spec queryOrderByPage) or 'unpaid' (spec queryNoPayRecord)",
        querystring: z.object({
          tab: z.enum(['all', 'unpaid']).default('all'),
          pageNum: z.coerce.number().int().min(1).default(1),
        }),
        response: { 200: paged(PrintItem), ...errors },
      },
    },
    (request) => cart.myItems(requireUser(request).id, request.query.tab, request.query.pageNum),
  );
  r.post(
    '/api/print/items/delete',
    {
      schema: {
        tags: ['print'],
        summary: 'Delete unpaid items of mine (spec deleteOrder)',
        body: DeleteItemsRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await cart.deleteItems(requireUser(request).id, request.body.ids);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  );

  r.post(
    '/api/print/orders',
    {
      schema: {
        tags: ['print'],
        summary:
          'Check out selected unpaid items: an order number from the server, pay status 0 (spec getOrderNo + saveOrder + savePay)',
        body: CheckoutRequest,
        response: { 200: PrintOrder, ...errors },
      },
    },
    (request) => checkout.checkout({ ...viewerOf(request), userId: requireUser(request).id }, request.body),
  );
  r.get(
    '/api/print/orders/:orderNum',
    {
      schema: {
        tags: ['print'],
        summary: 'An order with its items (owner or print desk; spec queryByOrderNum)',
        params: OrderParams,
        response: { 200: PrintOrder, ...errors },
      },
    },
    (request) => checkout.order(request.params.orderNum, who(request)),
  );
  r.get(
    '/api/print/orders/:orderNum/pay-status',
    {
      schema: {
        tags: ['print'],
        summary: "Payment status: data is 'paid' when done (polled every 2 s)",
        params: OrderParams,
        response: { 200: PayStatus, ...errors },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return { data: await checkout.payStatus(request.params.orderNum, who(request)) };
    },
  );
  r.post(
    '/api/print/orders/:orderNum/scan',
    {
      schema: {
        tags: ['print'],
        summary: 'Start scan-to-pay: a trade with the provider and the QR code of its payment page',
        params: OrderParams,
        response: { 200: ScanPayment, ...errors },
      },
    },
    (request) =>
      checkout.startScan(
        { ...viewerOf(request), userId: requireUser(request).id },
        request.params.orderNum,
        originOf(request),
      ),
  );

  // The sandbox provider's mobile payment page and its notify webhook: registered only while it is the
  // live provider (PAYMENT_PROVIDER=sandbox), otherwise they answer 404 like any unknown address.
  if (checkout.sandbox) {
    const Sig = z.object({ sig: z.string().max(64) });
    r.get(
      '/api/payments/sandbox/:tradeNo',
      {
        schema: {
          tags: ['payments'],
          summary: 'Sandbox payment page data (the link carries its signature)',
          params: TradeParams,
          querystring: Sig,
          response: { 200: SandboxPaymentInfo, ...errors },
        },
      },
      (request) => checkout.sandboxInfo(request.params.tradeNo, request.query.sig),
    );
    r.post(
      '/api/payments/sandbox/:tradeNo/confirm',
      {
        schema: {
          tags: ['payments'],
          summary:
            'The payer confirms (or cancels) on the sandbox page: the sandbox posts its signed notice to the notify webhook',
          params: TradeParams,
          body: Sig.extend({ pay: z.boolean() }),
          response: { 200: z.object({ payResult: z.union([z.literal(0), z.literal(1)]) }), ...errors },
        },
      },
      async (request) => {
        const notice = await checkout.sandboxNotice(
          request.params.tradeNo,
          request.body.sig,
          request.body.pay,
        );
        const answer = await app.inject({
          method: 'POST',
          url: '/api/payments/notify/sandbox',
          payload: notice,
        });
        const paid = answer.statusCode === 200 && answer.json<{ paid: boolean }>().paid;
        return { payResult: paid ? (1 as const) : (0 as const) };
      },
    );
    r.post(
      '/api/payments/notify/sandbox',
      {
        schema: {
          tags: ['payments'],
          summary:
            "The sandbox provider's notify webhook: signed; amount and trade checked; idempotent; replays and forgeries refused",
          body: z.record(z.string(), z.unknown()),
          response: { 200: z.object({ paid: z.boolean() }), ...errors },
        },
      },
      (request) => checkout.handleNotice(request.body),
    );
  }

  // The print desk

  r.get(
    '/api/admin/print/orders',
    {
      schema: {
        tags: ['admin'],
        summary: 'Print desk summary, 8 a page, filters by name, phone, email, pickup (spec andminPrintData)',
        querystring: AdminPrintQuery,
        response: { 200: paged(AdminPrintSummary), ...errors },
      },
    },
    (request) => {
      requireRole(request, 'printAdmin');
      return desk.summary(request.query);
    },
  );
  r.get(
    '/api/admin/print/orders/:orderNum/items',
    {
      schema: {
        tags: ['admin'],
        summary: "An order's items for the desk (spec queryOrderList)",
        params: OrderParams,
        response: { 200: z.array(PrintItem), ...errors },
      },
    },
    (request) => {
      requireRole(request, 'printAdmin');
      return desk.deskOrderItems(request.params.orderNum);
    },
  );
  r.get(
    '/api/admin/print/orders/:orderNum/log',
    {
      schema: {
        tags: ['admin'],
        summary: "The desk's log of an order: who did what, when",
        params: OrderParams,
        response: {
          200: z.array(
            z.object({
              action: z.string(),
              item_ids: z.string(),
              detail: z.string().nullable(),
              created_at: z.string(),
              actor: z.string().nullable(),
            }),
          ),
          ...errors,
        },
      },
    },
    (request) => {
      requireRole(request, 'printAdmin');
      return desk.orderLog(request.params.orderNum);
    },
  );
  r.post(
    '/api/admin/print/items/confirm-payment',
    {
      schema: {
        tags: ['admin'],
        summary: 'Confirm cash payment (refused for paid items; spec updatePayStateBatch)',
        body: BatchRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await desk.confirmPayment(requireRole(request, 'printAdmin').id, request.body.ids);
      return { ok: true as const, message: MSG.paymentConfirmed };
    },
  );
  r.post(
    '/api/admin/print/items/printed',
    {
      schema: {
        tags: ['admin'],
        summary: 'Mark printed (refused for unpaid items; spec updatePrintStatusBatch): a print-ready PDF',
        body: BatchRequest,
        response: { 200: PrintedResult, ...errors },
      },
    },
    async (request) => {
      const result = await desk.markPrinted(requireRole(request, 'printAdmin').id, request.body.ids);
      return { message: MSG.printedDone, pdfUrl: `/api/admin/print/pdf/${result.file}`, pages: result.pages };
    },
  );
  r.get(
    '/api/admin/print/pdf/:name',
    {
      schema: {
        tags: ['admin'],
        summary: 'A print-ready PDF made by “mark printed”',
        params: z.object({ name: z.string().max(40) }),
      },
    },
    async (request, reply) => {
      requireRole(request, 'printAdmin');
      const file = await desk.pdfPath(request.params.name);
      const { createReadStream } = await import('node:fs');
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${request.params.name}"`)
        .header('cache-control', 'private, no-store')
        .send(createReadStream(file));
    },
  );
  r.post(
    '/api/admin/print/items/express',
    {
      schema: {
        tags: ['admin'],
        summary: 'Save a courier number (post, printed, none yet; spec updateExpressNumberBatch)',
        body: ExpressRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await desk.saveExpress(
        requireRole(request, 'printAdmin').id,
        request.body.ids,
        request.body.expressNumber,
      );
      return { ok: true as const, message: MSG.expressSaved };
    },
  );
  r.get(
    '/api/admin/notifications',
    {
      schema: {
        tags: ['admin'],
        summary: 'In-app notices for print administrators (paid orders; spec sendWeiMsgAfterPay)',
        response: { 200: z.array(Notification), ...errors },
      },
    },
    (request) => {
      requireRole(request, 'printAdmin');
      return desk.notifications();
    },
  );
};
