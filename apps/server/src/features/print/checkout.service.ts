import { randomBytes, randomInt } from 'node:crypto';
import QRCode from 'qrcode';
import {
  MSG,
  PAYMENT_LABELS,
  yuan,
  type PrintOrder,
  type SandboxPaymentInfo,
  type ScanPayment,
  PAY_STATUS,
} from '@guji/shared';
import { nowIso } from '../../db/database.ts';
import type { Transact } from '../../db/query.ts';
import { badRequest, conflict, unavailable } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RefundService } from './refund.service.ts';
import type { Viewer } from '../../lib/viewer.ts';
import type { SettingsService } from '../site/settings.service.ts';
import type { PrintNotifier } from './notifier.ts';
import {
  SandboxPaymentProvider,
  TRADE_LIFETIME_MS,
  type PaymentNotice,
  type PaymentProvider,
} from './payment.ts';
import type { PaymentRepository } from './payment.repository.ts';
import type { PrintRepositories } from './print.repository.ts';
import { NOT_FOUND, orderIdsOf, toItem, TRADE_CLOSED, type PrintRules } from './print-rules.ts';

/** Who asks for an order: its reader, or the print desk (any order). */
type Asker = { userId: number; printAdmin: boolean };

/** What CheckoutService is built from (wiring/). */
export interface CheckoutDeps {
  print: PrintRepositories;
  payments: PaymentRepository;
  rules: PrintRules;
  settings: SettingsService;
  /** The live scan-to-pay provider; undefined when none is (PAYMENT_PROVIDER=none: cash only). */
  provider: PaymentProvider | undefined;
  refunds: RefundService;
  notifiers: PrintNotifier[];
  transact: Transact;
  clock: Clock;
}

/**
 * Checkout and payment (spec §2 Print, §5 checkout rules; DESIGN.md §9): unpaid items become an order,
 * paid by scanning through the payment provider or in cash at the desk. Every state change is a
 * conditional update under the order's row lock, so two hands cannot pay twice, and only an order's
 * live trade pays it.
 */
export class CheckoutService {
  private readonly print: PrintRepositories;
  private readonly payments: PaymentRepository;
  private readonly rules: PrintRules;
  private readonly settings: SettingsService;
  /** The live scan-to-pay provider; undefined when none is (PAYMENT_PROVIDER=none: cash only). */
  readonly provider: PaymentProvider | undefined;
  private readonly refunds: RefundService;
  private readonly notifiers: PrintNotifier[];
  private readonly transact: Transact;
  private readonly clock: Clock;

  constructor(deps: CheckoutDeps) {
    this.print = deps.print;
    this.payments = deps.payments;
    this.rules = deps.rules;
    this.settings = deps.settings;
    this.provider = deps.provider;
    this.refunds = deps.refunds;
    this.notifiers = deps.notifiers;
    this.transact = deps.transact;
    this.clock = deps.clock;
  }

  /** The sandbox provider when it is the live one (its payment page and confirm endpoint exist only then). */
  get sandbox(): SandboxPaymentProvider | undefined {
    return this.provider instanceof SandboxPaymentProvider ? this.provider : undefined;
  }

  private newOrderNum(): string {
    const now = this.clock.now();
    const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
    return `P${stamp}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
  }

  async checkout(
    viewer: Viewer & { userId: number },
    request: {
      itemIds: number[];
      extract: 0 | 1;
      payment?: 0 | 1 | undefined;
      isInvoice: 0 | 1;
      invoiceTitle?: string | undefined;
      consignee?: string | undefined;
      consigneePhonenum?: string | undefined;
      deliveryAddress?: string | undefined;
    },
  ): Promise<PrintOrder> {
    const userId = viewer.userId;
    const site = await this.settings.get();
    if (request.extract === 1 && !site.printPostEnabled) throw badRequest('POST_OFF', MSG.checkoutPostOff);
    const ids = [...new Set(request.itemIds)];
    // Post is paid by scanning: cash is paid at the desk, which a posted order never passes.
    const payment = request.extract === 1 ? 1 : request.payment!;
    if (payment === 1 && !this.provider) throw badRequest('PAYMENT_UNAVAILABLE', MSG.scanPayUnavailable);
    await this.rules.assertReadable(viewer, await this.print.items.itemBookIds(userId, ids));
    const now = nowIso(this.clock.now());
    const orderNum = this.newOrderNum();
    await this.transact(async (tx) => {
      const items = (await this.print.items.userItems(userId, ids, tx)).filter(
        (item) => item.pay_status === PAY_STATUS.unpaid,
      );
      if (items.length !== ids.length) throw badRequest('ITEMS_UNAVAILABLE', MSG.checkoutItemsUnavailable);
      // Items taken from an unpaid order leave it: its total is summed again and its trade closed.
      const previous = orderIdsOf(items);
      await this.print.orders.lockOrders(previous, now, tx);
      const total = items.reduce((sum, item) => sum + item.amount_fen, 0);
      const orderId = await this.print.orders.createOrder(
        {
          order_num: orderNum,
          user_id: userId,
          extract: request.extract,
          payment,
          is_invoice: request.isInvoice,
          invoice_title: request.isInvoice ? (request.invoiceTitle ?? null) : null,
          consignee: request.extract === 1 ? (request.consignee ?? null) : null,
          consignee_phone: request.extract === 1 ? (request.consigneePhonenum ?? null) : null,
          delivery_address: request.extract === 1 ? (request.deliveryAddress ?? null) : null,
          total_fen: total,
          pay_status: PAY_STATUS.unpaid,
          paid_at: null,
          created_at: now,
          updated_at: now,
        },
        tx,
      );
      // Paid by a notice meanwhile: nothing of this checkout is applied.
      if ((await this.print.items.assignItems(ids, orderId, tx)) !== ids.length)
        throw badRequest('ITEMS_UNAVAILABLE', MSG.checkoutItemsUnavailable);
      await this.print.orders.dropEmptyOrders(userId, tx);
      await this.rules.settleOrders(tx, previous, now);
    });
    return this.order(orderNum, { userId, printAdmin: false });
  }

  /** An order with its items: its owner's, or any for the print desk. */
  async order(orderNum: string, who: Asker): Promise<PrintOrder> {
    const order = await this.print.orders.orderByNum(orderNum);
    if (!order || (order.user_id !== who.userId && !who.printAdmin)) throw NOT_FOUND();
    const items = await this.print.items.list({ orderId: order.id }, 'byPage');
    return {
      orderNum: order.order_num,
      extract: order.extract,
      payment: order.payment,
      isInvoice: order.is_invoice,
      invoiceTitle: order.invoice_title,
      consignee: order.consignee,
      consigneePhonenum: order.consignee_phone,
      deliveryAddress: order.delivery_address,
      totalFen: order.total_fen,
      totalPage: items.length,
      payStatus: order.pay_status,
      paidAt: order.paid_at,
      createTime: order.created_at,
      creator: order.creator,
      items: items.map(toItem),
    };
  }

  async payStatus(orderNum: string, who: Asker): Promise<'paid' | 'unpaid'> {
    const order = await this.print.orders.orderByNum(orderNum);
    if (!order || (order.user_id !== who.userId && !who.printAdmin)) throw NOT_FOUND();
    return order.pay_status === PAY_STATUS.paid ? 'paid' : 'unpaid';
  }

  /**
   * A trade with the provider for an unpaid scan order, and the QR code of its payment page. The reader
   * must still be allowed to read every page of the order (checked again here, where money is asked
   * for), and the order's earlier trade is closed: one live trade per order.
   */
  async startScan(
    viewer: Viewer & { userId: number },
    orderNum: string,
    origin: string,
  ): Promise<ScanPayment> {
    const order = await this.print.orders.orderByNum(orderNum);
    if (!order || order.user_id !== viewer.userId) throw NOT_FOUND();
    if (order.pay_status === PAY_STATUS.paid) throw conflict('ORDER_PAID', '订单已支付');
    if (order.payment !== 1) throw badRequest('ORDER_CASH', '现金订单请到阅览室付款');
    const provider = this.provider;
    if (!provider) throw badRequest('PAYMENT_UNAVAILABLE', MSG.scanPayUnavailable);
    await this.rules.assertReadable(viewer, await this.print.items.orderBookIds(order.id));
    const tradeNo = randomBytes(12).toString('hex');
    const now = nowIso(this.clock.now());
    const amountFen = await this.transact(async (tx) => {
      const locked = await this.print.orders.lockUnpaidOrder(order.id, now, tx);
      // Paid, or emptied by another checkout, meanwhile.
      if (!locked) throw conflict('ORDER_CHANGED', MSG.paymentTradeClosed);
      await this.payments.closeTrades(order.id, tx);
      await this.payments.createTrade(
        { orderId: order.id, provider: provider.name, tradeNo, amountFen: locked.total_fen, now },
        tx,
      );
      return locked.total_fen;
    });
    // The provider opens the trade (Alipay: precreate); its QR content is what the code shows. Refused
    // or unreachable: the trade is closed again and the reader may try later or pay in cash.
    const subject = `${(await this.settings.get()).siteName} 打印订单 ${order.order_num}`;
    let payUrl: string;
    try {
      ({ payUrl } = await provider.createTrade({ tradeNo, amountFen, subject, origin }));
    } catch (cause) {
      await this.payments.closeTrade(tradeNo);
      throw unavailable('PAYMENT_PROVIDER', MSG.paymentProviderDown, cause);
    }
    const svg = await QRCode.toString(payUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    return {
      tradeNo,
      amountFen,
      payUrl,
      qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    };
  }

  /**
   * What the sandbox's mobile page shows (its link carries the page signature). A closed trade, or one
   * older than its lifetime, cannot be paid there any more.
   */
  async sandboxInfo(tradeNo: string, signature: string): Promise<SandboxPaymentInfo> {
    if (!this.sandbox?.checkPageSignature(tradeNo, signature)) throw NOT_FOUND();
    const row = await this.payments.trade(tradeNo);
    if (!row) throw NOT_FOUND();
    const expired = this.clock.now().getTime() - Date.parse(row.created_at) > TRADE_LIFETIME_MS;
    if (row.status === 'closed' || (row.status === 'pending' && expired)) throw TRADE_CLOSED();
    return {
      tradeNo: row.trade_no,
      orderNum: row.order_num,
      amountFen: row.amount_fen,
      status: row.status === 'paid' ? 'paid' : 'pending',
      siteName: (await this.settings.get()).siteName,
    };
  }

  /** The signed notice the sandbox sends when the payer confirms or cancels on the mobile page. */
  async sandboxNotice(
    tradeNo: string,
    signature: string,
    pay: boolean,
  ): Promise<Record<string, string | number>> {
    const info = await this.sandboxInfo(tradeNo, signature);
    return this.sandbox!.makeNotice(tradeNo, info.amountFen, pay);
  }

  /**
   * A notice at the provider's webhook: forged, replayed, unknown or wrong-amount notices are refused
   * and change nothing, and so are notices for a closed trade (superseded by a newer one, or its order
   * changed or was paid at the desk): only an order's live trade pays it, so one trade per order is
   * ever recorded paid. A good one pays the order once (a second good notice for a paid trade changes
   * nothing either). Print administrators are told of each newly paid order.
   */
  async handleNotice(
    body: unknown,
    raw?: string,
    headers?: Record<string, unknown>,
  ): Promise<{ paid: boolean }> {
    const notice: PaymentNotice | undefined = this.provider?.verifyNotice(body, raw, headers);
    if (!notice) throw badRequest('PAYMENT_INVALID', MSG.paymentInvalid);
    const now = nowIso(this.clock.now());
    const outcome = await this.transact(async (tx) => {
      const payment = await this.payments.trade(notice.tradeNo, tx);
      if (!payment) throw badRequest('PAYMENT_INVALID', MSG.paymentInvalid);
      if (payment.status === 'closed') {
        // Money for a trade already closed: the notice is recorded once and the money goes back.
        if (!notice.paid || notice.amountFen !== payment.amount_fen) throw TRADE_CLOSED();
        const late = await this.payments.recordNotice(
          { noticeId: notice.noticeId, tradeNo: notice.tradeNo, body: JSON.stringify(body), receivedAt: now },
          tx,
        );
        if (!late) throw conflict('PAYMENT_REPLAY', MSG.paymentInvalid);
        const refundId = await this.refunds.recordLatePayment(tx, payment, this.provider!.name, now);
        return { paid: false, newlyPaid: false, orderId: payment.order_id, refundId };
      }
      if (notice.amountFen !== payment.amount_fen || notice.amountFen !== payment.total_fen)
        throw badRequest('PAYMENT_AMOUNT', MSG.paymentAmountMismatch);
      // Each notice id once: a concurrent duplicate waits on the key and inserts nothing.
      const recorded = await this.payments.recordNotice(
        { noticeId: notice.noticeId, tradeNo: notice.tradeNo, body: JSON.stringify(body), receivedAt: now },
        tx,
      );
      if (!recorded) throw conflict('PAYMENT_REPLAY', MSG.paymentInvalid);
      const unchanged = { paid: notice.paid, newlyPaid: false, orderId: payment.order_id };
      if (!notice.paid || payment.status === 'paid') return unchanged;
      // The order's row first (the lock every change of an order takes), then its trade.
      const orderPaid = await this.print.orders.markOrderPaid(payment.order_id, now, tx);
      if (!(await this.payments.markTradePaid(payment.id, now, tx))) {
        // Another notice of this trade paid it meanwhile (nothing to do), or it was closed (refused).
        if ((await this.payments.tradeStatus(payment.id, tx)) === 'paid') return unchanged;
        throw TRADE_CLOSED();
      }
      // The order was paid another way (cash at the desk) while this trade was still open.
      if (!orderPaid) throw TRADE_CLOSED();
      await this.print.items.markOrderItemsPaid(payment.order_id, tx);
      await this.rules.log(tx, payment.order_id, 'paid-scan', [], `trade ${notice.tradeNo}`, null);
      return { paid: true, newlyPaid: true, orderId: payment.order_id };
    });
    if (outcome.newlyPaid) await this.announcePaid(outcome.orderId);
    if ('refundId' in outcome) await this.refunds.settle(outcome.refundId);
    return { paid: outcome.paid };
  }

  /** Tells print administrators of a paid order: in the app, and through the configured webhook. */
  private async announcePaid(orderId: number): Promise<void> {
    const row = await this.print.orders.paidOrderSummary(orderId);
    const text = `读者 ${row.name} 已支付打印订单 ${row.order_num}：共 ${Number(row.pages)} 页，${PAYMENT_LABELS[row.payment] ?? ''}，合计 ¥${yuan(row.total_fen)}`;
    await this.print.desk.notify({
      text,
      link: `/PersonalPage/AdminPrint?orderNum=${row.order_num}`,
      at: nowIso(this.clock.now()),
    });
    await Promise.all(this.notifiers.map((n) => n.send(text)));
  }
}
