import { z } from 'zod';
import { OkBody, paged } from '../api/common.ts';
import {
  AddPrintItemsRequest,
  AddPrintItemsResult,
  AdminPrintQuery,
  AdminPrintSummary,
  BatchRequest,
  CheckoutRequest,
  DeleteItemsRequest,
  ExpressRequest,
  Notification,
  PaymentNotice,
  PaymentNoticeResult,
  PaymentTradeParams,
  PayStatus,
  PrintedResult,
  PrintItem,
  PrintItemsQuery,
  PrintLogEntry,
  PrintOrder,
  PrintOrderParams,
  PrintPdfParams,
  PrintPrice,
  SandboxConfirmRequest,
  SandboxConfirmResult,
  SandboxPaymentInfo,
  SandboxPaymentQuery,
  ScanPayment,
  UpdatePricesRequest,
} from '../api/print.ts';
import { contract } from '../contract.ts';

/** Print prices: fen per page by paper size. */
export const printPricesApi = {
  list: contract({
    method: 'GET',
    path: '/api/print/prices',
    summary: 'Price configuration (spec getPriceConfig): fen per page by paper size',
    tags: ['print'],
    response: z.array(PrintPrice),
  }),
  update: contract({
    method: 'PUT',
    path: '/api/admin/print/prices',
    summary: 'Set the prices (administrators); items already added keep theirs',
    tags: ['admin'],
    body: UpdatePricesRequest,
    response: z.array(PrintPrice),
  }),
};

/** The reader's print list (issue 6): adding pages, my prints, deleting unpaid ones. */
export const printItemsApi = {
  add: contract({
    method: 'POST',
    path: '/api/print/items',
    summary:
      'Add the current page ({ imageId }) or a page range of a volume ({ fascicleId, from, to }) to my print list',
    tags: ['print'],
    body: AddPrintItemsRequest,
    response: AddPrintItemsResult,
  }),
  list: contract({
    method: 'GET',
    path: '/api/print/items',
    summary:
      "My prints: tab 'all' (6 a page, newest first; spec queryOrderByPage) or 'unpaid' (spec queryNoPayRecord)",
    tags: ['print'],
    query: PrintItemsQuery,
    response: paged(PrintItem),
  }),
  remove: contract({
    method: 'POST',
    path: '/api/print/items/delete',
    summary: 'Delete unpaid items of mine (spec deleteOrder)',
    tags: ['print'],
    body: DeleteItemsRequest,
    response: OkBody,
  }),
};

/** Print orders: checkout, an order, its payment status and scan-to-pay. */
export const printOrdersApi = {
  checkout: contract({
    method: 'POST',
    path: '/api/print/orders',
    summary:
      'Check out selected unpaid items: an order number from the server, pay status 0 (spec getOrderNo + saveOrder + savePay)',
    tags: ['print'],
    body: CheckoutRequest,
    response: PrintOrder,
  }),
  get: contract({
    method: 'GET',
    path: '/api/print/orders/:orderNum',
    summary: 'An order with its items (owner or print desk; spec queryByOrderNum)',
    tags: ['print'],
    params: PrintOrderParams,
    response: PrintOrder,
  }),
  payStatus: contract({
    method: 'GET',
    path: '/api/print/orders/:orderNum/pay-status',
    summary: "Payment status: data is 'paid' when done (polled every 2 s)",
    tags: ['print'],
    params: PrintOrderParams,
    response: PayStatus,
  }),
  startScan: contract({
    method: 'POST',
    path: '/api/print/orders/:orderNum/scan',
    summary: 'Start scan-to-pay: a trade with the provider and the QR code of its payment page',
    tags: ['print'],
    params: PrintOrderParams,
    response: ScanPayment,
  }),
};

/**
 * The sandbox payment provider: its mobile payment page and its notify webhook (served only while it
 * is the live provider, PAYMENT_PROVIDER=sandbox).
 */
export const sandboxPaymentApi = {
  info: contract({
    method: 'GET',
    path: '/api/payments/sandbox/:tradeNo',
    summary: 'Sandbox payment page data (the link carries its signature)',
    tags: ['payments'],
    params: PaymentTradeParams,
    query: SandboxPaymentQuery,
    response: SandboxPaymentInfo,
  }),
  confirm: contract({
    method: 'POST',
    path: '/api/payments/sandbox/:tradeNo/confirm',
    summary:
      'The payer confirms (or cancels) on the sandbox page: the sandbox posts its signed notice to the notify webhook',
    tags: ['payments'],
    params: PaymentTradeParams,
    body: SandboxConfirmRequest,
    response: SandboxConfirmResult,
  }),
  notify: contract({
    method: 'POST',
    path: '/api/payments/notify/sandbox',
    summary:
      "The sandbox provider's notify webhook: signed; amount and trade checked; idempotent; replays and forgeries refused",
    tags: ['payments'],
    body: PaymentNotice,
    response: PaymentNoticeResult,
  }),
};

/**
 * The real providers' notify webhooks (docs/payments.md), each served only while its provider is live.
 * Alipay posts form fields and reads the text `success`; anything else makes it send the notice again.
 * WeChat Pay posts JSON signed in its headers over the raw text and reads 200/204 as handled.
 */
export const paymentNotifyApi = {
  alipay: contract({
    method: 'POST',
    path: '/api/payments/notify/alipay',
    summary:
      "Alipay's asynchronous notice (form fields, RSA2-signed): app, seller, trade and amount checked; answers the text success once handled (a replay too), fail when refused",
    tags: ['payments'],
    body: PaymentNotice,
    response: null,
  }),
  wechat: contract({
    method: 'POST',
    path: '/api/payments/notify/wechat',
    summary:
      "WeChat Pay's notice (JSON, API v3: signed in the Wechatpay-* headers over the raw body, resource AES-256-GCM encrypted): app, merchant, trade and amount checked; answers 204 once handled (a replay too), 4xx/5xx with {code: FAIL, message} when refused",
    tags: ['payments'],
    body: PaymentNotice,
    response: null,
  }),
};

/** The print desk (print administrators): orders, their items and log, the batch actions, notices. */
export const printDeskApi = {
  orders: contract({
    method: 'GET',
    path: '/api/admin/print/orders',
    summary: 'Print desk summary, 8 a page, filters by name, phone, email, pickup (spec andminPrintData)',
    tags: ['admin'],
    query: AdminPrintQuery,
    response: paged(AdminPrintSummary),
  }),
  items: contract({
    method: 'GET',
    path: '/api/admin/print/orders/:orderNum/items',
    summary: "An order's items for the desk (spec queryOrderList)",
    tags: ['admin'],
    params: PrintOrderParams,
    response: z.array(PrintItem),
  }),
  log: contract({
    method: 'GET',
    path: '/api/admin/print/orders/:orderNum/log',
    summary: "The desk's log of an order: who did what, when",
    tags: ['admin'],
    params: PrintOrderParams,
    response: z.array(PrintLogEntry),
  }),
  confirmPayment: contract({
    method: 'POST',
    path: '/api/admin/print/items/confirm-payment',
    summary: 'Confirm cash payment (refused for paid items; spec updatePayStateBatch)',
    tags: ['admin'],
    body: BatchRequest,
    response: OkBody,
  }),
  printed: contract({
    method: 'POST',
    path: '/api/admin/print/items/printed',
    summary: 'Mark printed (refused for unpaid items; spec updatePrintStatusBatch): a print-ready PDF',
    tags: ['admin'],
    body: BatchRequest,
    response: PrintedResult,
  }),
  pdf: contract({
    method: 'GET',
    path: '/api/admin/print/pdf/:name',
    summary: 'A print-ready PDF made by “mark printed”',
    tags: ['admin'],
    params: PrintPdfParams,
    response: null,
  }),
  express: contract({
    method: 'POST',
    path: '/api/admin/print/items/express',
    summary: 'Save a courier number (post, printed, none yet; spec updateExpressNumberBatch)',
    tags: ['admin'],
    body: ExpressRequest,
    response: OkBody,
  }),
  notifications: contract({
    method: 'GET',
    path: '/api/admin/notifications',
    summary: 'In-app notices for print administrators (paid orders; spec sendWeiMsgAfterPay)',
    tags: ['admin'],
    response: z.array(Notification),
  }),
};
