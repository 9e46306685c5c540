import {
  ADMIN_PRINT_PAGE_SIZE,
  MSG,
  type AdminPrintSummary,
  type Notification,
  type PrintItem,
  PAY_STATUS,
  PRINT_STATUS,
} from '@guji/shared';
import type { DbOrTx } from '../../db/database.ts';
import { nowIso } from '../../db/database.ts';
import type { Transact } from '../../db/query.ts';
import { badRequest, conflict } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { pagedOf, type Paged } from '../../lib/paged.ts';
import type { PaymentRepository } from './payment.repository.ts';
import type { PrintPdf } from './print-pdf.ts';
import type { PrintRepositories } from './print.repository.ts';
import { NOT_FOUND, orderIdsOf, toItem, type PrintRules } from './print-rules.ts';

/** What PrintDeskService is built from (wiring/). */
export interface PrintDeskDeps {
  print: PrintRepositories;
  payments: PaymentRepository;
  rules: PrintRules;
  pdf: PrintPdf;
  transact: Transact;
  clock: Clock;
}

/**
 * The print desk (spec §2 AdminPrint, §5 print-desk rules): orders by reader, cash taken, printing to a
 * print-ready PDF, courier numbers, each action in the order's log; notices of paid orders.
 */
export class PrintDeskService {
  private readonly print: PrintRepositories;
  private readonly payments: PaymentRepository;
  private readonly rules: PrintRules;
  private readonly pdf: PrintPdf;
  private readonly transact: Transact;
  private readonly clock: Clock;

  constructor(deps: PrintDeskDeps) {
    this.print = deps.print;
    this.payments = deps.payments;
    this.rules = deps.rules;
    this.pdf = deps.pdf;
    this.transact = deps.transact;
    this.clock = deps.clock;
  }

  async summary(query: {
    pageNum: number;
    realName?: string | undefined;
    phone?: string | undefined;
    email?: string | undefined;
    extract?: '0' | '1' | undefined;
  }): Promise<Paged<AdminPrintSummary>> {
    const size = ADMIN_PRINT_PAGE_SIZE;
    const { rows, total } = await this.print.orders.deskOrders({
      realName: query.realName,
      phone: query.phone,
      email: query.email,
      extract: query.extract === undefined ? undefined : Number(query.extract),
      offset: (query.pageNum - 1) * size,
      limit: size,
    });
    return pagedOf(
      query.pageNum,
      size,
      total,
      rows.map((r) => ({
        realName: r.real_name,
        phone: r.phone,
        email: r.email,
        orderNum: r.order_num,
        orderCreateTime: r.created_at,
        payNoPrint: Number(r.pay_no_print),
        extract: r.extract,
        payment: r.payment,
        creator: r.creator,
        totalFen: r.total_fen,
        payStatus: r.pay_status,
        invoiceTitle: r.is_invoice ? (r.invoice_title ?? '') : null,
      })),
    );
  }

  /** The items selected at the desk; every one must exist. */
  private async deskItems(tx: DbOrTx | undefined, ids: number[]) {
    const unique = [...new Set(ids)];
    const rows = await this.print.items.deskItems(unique, tx);
    if (rows.length !== unique.length) throw NOT_FOUND();
    return rows;
  }

  /**
   * Cash received at the desk: refused if any selected item is paid already, or if its reader may no
   * longer read the page (the desk is in the reading room, so this refuses books withdrawn since). The
   * orders' open trades are closed: an order paid (even in part) at the desk is not paid by scanning.
   */
  async confirmPayment(actorId: number, ids: number[]): Promise<void> {
    const now = nowIso(this.clock.now());
    const selected = await this.deskItems(undefined, ids);
    for (const userId of new Set(selected.map((r) => r.user_id))) {
      await this.rules.assertReadable(
        { userId, roles: await this.print.desk.userRoles(userId), readingRoom: true },
        selected.filter((r) => r.user_id === userId).map((r) => r.book_id),
      );
    }
    await this.transact(async (tx) => {
      const rows = await this.deskItems(tx, ids);
      if (rows.some((r) => r.pay_status === PAY_STATUS.paid))
        throw badRequest('ALREADY_PAID', MSG.adminConfirmPaid);
      await this.print.orders.lockOrders(orderIdsOf(rows), now, tx);
      const marked = await this.print.items.markItemsPaid(
        rows.map((r) => r.id),
        tx,
      );
      // Another hand confirmed some of them meanwhile: nothing of this request is applied.
      if (marked !== rows.length) throw badRequest('ALREADY_PAID', MSG.adminConfirmPaid);
      for (const orderId of new Set(rows.map((r) => r.order_id!))) {
        await this.payments.closeTrades(orderId, tx);
        if (!(await this.print.items.hasUnpaidItems(orderId, tx)))
          await this.print.orders.markOrderPaid(orderId, now, tx);
        const mine = rows.filter((r) => r.order_id === orderId).map((r) => r.id);
        await this.rules.log(tx, orderId, 'confirm-payment', mine, null, actorId);
      }
    });
  }

  /**
   * Prints the selected items: refused if any is unpaid or refunded (even by a cancel that lands while
   * the PDF is made); marks them printed and makes a print-ready PDF
   * of their pages, each order's pages after a cover sheet (order number, reader, pickup, items).
   */
  async markPrinted(actorId: number, ids: number[]): Promise<{ file: string; pages: number }> {
    const rows = await this.deskItems(undefined, ids);
    if (rows.some((r) => r.pay_status === PAY_STATUS.refunded))
      throw conflict('REFUNDED', MSG.adminPrintRefunded);
    if (rows.some((r) => r.pay_status !== PAY_STATUS.paid)) throw badRequest('UNPAID', MSG.adminPrintUnpaid);
    const file = await this.pdf.make(rows.map((r) => r.id));
    try {
      await this.transact(async (tx) => {
        // An order cancelled and refunded since the check above is not printed.
        if (
          (await this.print.items.markItemsPrinted(
            rows.map((r) => r.id),
            tx,
          )) !== rows.length
        )
          throw conflict('REFUNDED', MSG.adminPrintRefunded);
        for (const orderId of new Set(rows.map((r) => r.order_id!))) {
          const mine = rows.filter((r) => r.order_id === orderId).map((r) => r.id);
          await this.rules.log(tx, orderId, 'printed', mine, file, actorId);
        }
      });
    } catch (error) {
      await this.pdf.discard(file).catch(() => undefined);
      throw error;
    }
    return { file, pages: rows.length };
  }

  async saveExpress(actorId: number, ids: number[], expressNumber: string): Promise<void> {
    await this.transact(async (tx) => {
      const rows = await this.deskItems(tx, ids);
      if (expressNumber.trim() === '') throw badRequest('EXPRESS_EMPTY', MSG.adminExpressEmpty);
      if (rows.some((r) => r.extract !== 1)) throw badRequest('EXPRESS_PICKUP', MSG.adminExpressPickup);
      if (rows.some((r) => r.print_status !== PRINT_STATUS.printed))
        throw badRequest('EXPRESS_UNPRINTED', MSG.adminExpressUnprinted);
      if (rows.some((r) => r.express_number)) throw badRequest('EXPRESS_EXISTS', MSG.adminExpressExists);
      const set = await this.print.items.setExpress(
        rows.map((r) => r.id),
        expressNumber.trim(),
        tx,
      );
      if (set !== rows.length) throw badRequest('EXPRESS_EXISTS', MSG.adminExpressExists);
      for (const orderId of new Set(rows.map((r) => r.order_id!))) {
        const mine = rows.filter((r) => r.order_id === orderId).map((r) => r.id);
        await this.rules.log(tx, orderId, 'express', mine, expressNumber.trim(), actorId);
      }
    });
  }

  /** The print desk's items of an order. */
  async deskOrderItems(orderNum: string): Promise<PrintItem[]> {
    return (await this.print.items.list({ orderNum }, 'byPage')).map(toItem);
  }

  /**
   * A print-ready PDF made earlier, by the name `markPrinted` gave, with the name it downloads as: the
   * order number it was printed for (`P….pdf`; two orders' numbers joined by `_`).
   */
  async pdfFile(name: string): Promise<{ data: Buffer; downloadName: string }> {
    const data = await this.pdf.read(name);
    const orders = await this.print.desk.ordersOfFile(name);
    const downloadName = orders.length > 0 ? `${orders.join('_')}.pdf` : name;
    return { data, downloadName };
  }

  /** The desk's log of an order: who did what, when. */
  async orderLog(orderNum: string) {
    return this.print.desk.orderLog(orderNum);
  }

  async notifications(): Promise<Notification[]> {
    const rows = await this.print.desk.notifications(20);
    return rows.map((r) => ({ id: r.id, text: r.text, link: r.link, createdAt: r.created_at }));
  }
}
