import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes, randomInt } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import QRCode from 'qrcode';
import sharp from 'sharp';
import {
  ADMIN_PRINT_PAGE_SIZE,
  EXTRACT_LABELS,
  MSG,
  PAYMENT_LABELS,
  PRINT_PAGE_SIZE,
  PRINT_RANGE_MAX,
  yuan,
  type AdminPrintSummary,
  type Notification,
  type PrintItem,
  type PrintOrder,
  type PrintPrice,
  type ScanPayment,
  type SandboxPaymentInfo,
} from '@guji/shared';
import type { Db, DbOrTx } from '../../db/database.ts';
import { nowIso } from '../../db/database.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { likeText } from '../../db/query.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import type { PrintRepository } from './print.repository.ts';
import { thumbnailUrl, type CatalogService, type Viewer } from '../catalog/catalog.service.ts';
import type { Clock } from '../../lib/clock.ts';
import { sheetSvg, type DownloadService } from '../personal/download.service.ts';
import {
  SandboxPaymentProvider,
  TRADE_LIFETIME_MS,
  type PaymentNotice,
  type PaymentProvider,
} from './payment.ts';
import { pagedOf, type Paged } from '../../lib/paged.ts';
import type { SettingsService } from '../site/settings.service.ts';

/** Where print administrators hear of a paid order besides the in-app list (e.g. a messaging robot). */
export interface PrintNotifier {
  send(text: string): Promise<void>;
}

/** Posts `{ msgtype: 'text', text: { content } }` to a webhook (the enterprise messaging robots' format). */
export class WebhookNotifier implements PrintNotifier {
  constructor(
    private readonly url: string,
    private readonly log: (message: string) => void,
  ) {}
  async send(text: string): Promise<void> {
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ msgtype: 'text', text: { content: text } }),
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok) this.log(`print notice webhook answered ${response.status}`);
    } catch (error) {
      this.log(`print notice webhook failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

const NOT_FOUND = () => notFound(MSG.notFound, 'NOT_FOUND');
const TRADE_CLOSED = () => conflict('PAYMENT_CLOSED', MSG.paymentTradeClosed);

/** The distinct orders some items belong to. */
const orderIdsOf = (items: Array<{ order_id: number | null }>): number[] => [
  ...new Set(items.flatMap((item) => (item.order_id === null ? [] : [item.order_id]))),
];

type ItemRow = {
  id: number;
  user_id: number;
  book_id: number;
  page_id: number;
  order_id: number | null;
  directory_name: string | null;
  paper_size: string;
  amount_fen: number;
  pay_status: number;
  print_status: number;
  express_number: string | null;
  created_at: string;
  title: string;
  call_number: string | null;
  seq: number;
  volume_name: string;
  order_num: string | null;
  payment: number | null;
  extract: number | null;
  creator: string;
};

const toItem = (r: ItemRow): PrintItem => ({
  id: r.id,
  orderId: r.order_id,
  orderNum: r.order_num,
  catalogId: r.book_id,
  title: r.title,
  callNumber: r.call_number,
  name: r.directory_name,
  imageId: r.page_id,
  pageNumber: r.seq,
  volumeName: r.volume_name,
  filePath: thumbnailUrl(r.page_id),
  paperSize: r.paper_size,
  amountFen: r.amount_fen,
  payment: r.payment,
  extract: r.extract,
  payStatus: r.pay_status,
  printStatus: r.print_status,
  expressNumber: r.express_number,
  creator: r.creator,
  createTime: r.created_at,
});

/**
 * Print orders (spec §2 Print, AdminPrint; §4 print order states; §5 checkout and print-desk rules;
 * DESIGN.md §9): the reader's print list, checkout, scan-to-pay through a payment provider and cash
 * confirmed at the desk, printing to a print-ready PDF, courier numbers. Every state change is a
 * conditional update (so two hands cannot pay or print twice) and the desk's actions are logged.
 */
export class PrintService {
  constructor(
    private readonly db: Db,
    private readonly printRepo: PrintRepository,
    private readonly catalogRepo: CatalogRepository,
    private readonly catalog: CatalogService,
    private readonly downloads: DownloadService,
    private readonly settings: SettingsService,
    /** The live scan-to-pay provider; undefined when none is (PAYMENT_PROVIDER=none: cash only). */
    readonly provider: PaymentProvider | undefined,
    private readonly notifiers: PrintNotifier[],
    private readonly dataDir: string,
    private readonly clock: Clock,
  ) {}

  /** The sandbox provider when it is the live one (its payment page and confirm endpoint exist only then). */
  get sandbox(): SandboxPaymentProvider | undefined {
    return this.provider instanceof SandboxPaymentProvider ? this.provider : undefined;
  }

  // Prices

  async prices(): Promise<PrintPrice[]> {
    const rows = await this.db.selectFrom('print_prices').selectAll().orderBy('sort').execute();
    return rows.map((r) => ({ paperSize: r.paper_size, label: r.label, priceFen: r.price_fen }));
  }

  async setPrices(prices: PrintPrice[], actorId: number): Promise<PrintPrice[]> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('print_prices').execute();
      await tx
        .insertInto('print_prices')
        .values(
          prices.map((p, i) => ({
            paper_size: p.paperSize,
            label: p.label,
            price_fen: p.priceFen,
            sort: i + 1,
          })),
        )
        .execute();
      await this.log(tx, null, 'prices', [], JSON.stringify(prices), actorId);
    });
    return this.prices();
  }

  // The reader's print list

  private selectItems(tx: DbOrTx = this.db) {
    return tx
      .selectFrom('print_items')
      .innerJoin('books', 'books.id', 'print_items.book_id')
      .innerJoin('pages', 'pages.id', 'print_items.page_id')
      .innerJoin('volumes', 'volumes.id', 'print_items.volume_id')
      .innerJoin('users', 'users.id', 'print_items.user_id')
      .leftJoin('print_orders', 'print_orders.id', 'print_items.order_id')
      .selectAll('print_items')
      .select((eb) => [
        'books.title',
        'books.call_number',
        'pages.seq',
        'volumes.name as volume_name',
        'print_orders.order_num',
        'print_orders.payment',
        'print_orders.extract',
        eb.fn.coalesce('users.real_name', 'users.nick_name', 'users.login_name').as('creator'),
      ]);
  }

  /** Adds the current page, or a range of pages of a volume, that the reader may read. */
  async addItems(
    viewer: Viewer & { userId: number },
    request:
      | { imageId: number; paperSize?: string }
      | { fascicleId: number; from: number; to: number; paperSize?: string },
  ): Promise<{ added: number }> {
    const prices = await this.prices();
    const price = prices.find((p) => p.paperSize === request.paperSize) ?? prices[0];
    if (!price) throw badRequest('NO_PRICE', MSG.serverException);
    let pages: Array<{ id: number; book_id: number; volume_id: number; seq: number }>;
    if ('imageId' in request) {
      const { page } = await this.catalog.readablePage(request.imageId, viewer);
      pages = [page];
    } else {
      if (request.to < request.from) throw badRequest('PRINT_RANGE', MSG.printRangeInvalid);
      if (request.to - request.from + 1 > PRINT_RANGE_MAX)
        throw badRequest('PRINT_RANGE', MSG.printRangeTooLong);
      const all = await this.catalogRepo.listPages(request.fascicleId);
      pages = all.filter((p) => p.seq >= request.from && p.seq <= request.to);
      if (pages.length === 0) throw badRequest('PRINT_RANGE', MSG.printRangeInvalid);
      await this.catalog.readablePage(pages[0]!.id, viewer);
    }
    const now = nowIso(this.clock.now());
    const rows = [];
    for (const page of pages) {
      const entry = await this.db
        .selectFrom('directories')
        .innerJoin('pages', 'pages.id', 'directories.page_id')
        .select('directories.name')
        .where('directories.volume_id', '=', page.volume_id)
        .where('pages.seq', '<=', page.seq)
        .orderBy('pages.seq', 'desc')
        .orderBy('directories.sort', 'desc')
        .executeTakeFirst();
      rows.push({
        user_id: viewer.userId,
        book_id: page.book_id,
        volume_id: page.volume_id,
        page_id: page.id,
        directory_name: entry?.name ?? null,
        paper_size: price.paperSize,
        amount_fen: price.priceFen,
        order_id: null,
        pay_status: 0,
        print_status: 0,
        express_number: null,
        created_at: now,
      });
    }
    await this.db.insertInto('print_items').values(rows).execute();
    return { added: rows.length };
  }

  /** 'all prints' (6 a page, newest first) or 'to pay' (every unpaid item). */
  async myItems(userId: number, tab: 'all' | 'unpaid', pageNum: number): Promise<Paged<PrintItem>> {
    let count = this.db.selectFrom('print_items').where('user_id', '=', userId);
    let query = this.selectItems().where('print_items.user_id', '=', userId);
    if (tab === 'unpaid') {
      count = count.where('pay_status', '=', 0);
      query = query.where('print_items.pay_status', '=', 0);
    }
    const { n } = await count.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const size = tab === 'unpaid' ? 500 : PRINT_PAGE_SIZE;
    const rows = await query
      .orderBy('print_items.id', 'desc')
      .limit(size)
      .offset(tab === 'unpaid' ? 0 : (pageNum - 1) * size)
      .execute();
    return pagedOf(
      tab === 'unpaid' ? 1 : pageNum,
      size,
      n,
      rows.map((r) => toItem(r as ItemRow)),
    );
  }

  async deleteItems(userId: number, ids: number[]): Promise<void> {
    const now = nowIso(this.clock.now());
    await this.db.transaction().execute(async (tx) => {
      const rows = await tx
        .selectFrom('print_items')
        .select(['id', 'pay_status', 'order_id'])
        .where('id', 'in', ids)
        .where('user_id', '=', userId)
        .execute();
      if (rows.length !== new Set(ids).size) throw NOT_FOUND();
      if (rows.some((r) => r.pay_status !== 0)) throw badRequest('PRINT_PAID', MSG.printDeleteOnlyUnpaid);
      const orders = orderIdsOf(rows);
      await this.printRepo.lockOrders(orders, now, tx);
      const deleted = await tx
        .deleteFrom('print_items')
        .where('id', 'in', ids)
        .where('user_id', '=', userId)
        .where('pay_status', '=', 0)
        .executeTakeFirst();
      // Paid by a notice meanwhile: nothing of this request is applied.
      if (Number(deleted.numDeletedRows) !== rows.length)
        throw badRequest('PRINT_PAID', MSG.printDeleteOnlyUnpaid);
      await this.dropEmptyOrders(tx, userId);
      await this.settleOrders(tx, orders, now);
    });
  }

  /**
   * Orders whose items changed (taken into another checkout, or deleted): the total is summed again from
   * the items left and the open trade closed, since it was for the old total; an order left holding only
   * items paid at the desk is paid. Orders left empty were dropped already.
   */
  private async settleOrders(tx: DbOrTx, orderIds: number[], now: string): Promise<void> {
    for (const orderId of orderIds) {
      const items = await this.printRepo.orderItemAmounts(orderId, tx);
      if (items.length === 0) continue;
      await this.printRepo.closeTrades(orderId, tx);
      const allPaid = items.every((item) => item.pay_status === 1);
      await this.printRepo.resettleOrder(
        orderId,
        items.reduce((sum, item) => sum + item.amount_fen, 0),
        allPaid,
        now,
        tx,
      );
    }
  }

  /**
   * Refuses unless the viewer may still read every book (the access rule, DESIGN.md §7): a privilege
   * that was active when the pages were added may have ended since. Checked at checkout, when a trade
   * is opened and when the desk takes cash.
   */
  private async assertReadable(viewer: Viewer, bookIds: number[]): Promise<void> {
    for (const bookId of new Set(bookIds)) {
      const book = await this.catalogRepo.findBook(bookId);
      const access = await this.catalog.access(
        book,
        book ? await this.catalogRepo.countVolumes(bookId) : 0,
        viewer,
      );
      if (!access.canRead) throw forbidden(MSG.printAccessLapsed, 'PRINT_ACCESS');
    }
  }

  /** Unpaid orders left without items (their items were deleted or checked out again) go. */
  private async dropEmptyOrders(tx: DbOrTx, userId: number): Promise<void> {
    await tx
      .deleteFrom('print_orders')
      .where('user_id', '=', userId)
      .where('pay_status', '=', 0)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('print_items')
              .select('id')
              .whereRef('print_items.order_id', '=', 'print_orders.id'),
          ),
        ),
      )
      .execute();
  }

  // Checkout

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
    await this.assertReadable(viewer, await this.printRepo.itemBookIds(userId, ids));
    const now = nowIso(this.clock.now());
    const orderNum = this.newOrderNum();
    await this.db.transaction().execute(async (tx) => {
      const items = await tx
        .selectFrom('print_items')
        .select(['id', 'amount_fen', 'order_id'])
        .where('id', 'in', ids)
        .where('user_id', '=', userId)
        .where('pay_status', '=', 0)
        .execute();
      if (items.length !== ids.length) throw badRequest('ITEMS_UNAVAILABLE', MSG.checkoutItemsUnavailable);
      // Items taken from an unpaid order leave it: its total is summed again and its trade closed.
      const previous = orderIdsOf(items);
      await this.printRepo.lockOrders(previous, now, tx);
      const total = items.reduce((sum, item) => sum + item.amount_fen, 0);
      const order = await tx
        .insertInto('print_orders')
        .values({
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
          pay_status: 0,
          paid_at: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const moved = await tx
        .updateTable('print_items')
        .set({ order_id: order.id })
        .where('id', 'in', ids)
        .where('pay_status', '=', 0)
        .executeTakeFirst();
      // Paid by a notice meanwhile: nothing of this checkout is applied.
      if (Number(moved.numUpdatedRows) !== ids.length)
        throw badRequest('ITEMS_UNAVAILABLE', MSG.checkoutItemsUnavailable);
      await this.dropEmptyOrders(tx, userId);
      await this.settleOrders(tx, previous, now);
    });
    return this.order(orderNum, { userId, printAdmin: false });
  }

  /** An order with its items: its owner's, or any for the print desk. */
  async order(orderNum: string, who: { userId: number; printAdmin: boolean }): Promise<PrintOrder> {
    const order = await this.db
      .selectFrom('print_orders')
      .innerJoin('users', 'users.id', 'print_orders.user_id')
      .selectAll('print_orders')
      .select((eb) => eb.fn.coalesce('users.real_name', 'users.nick_name', 'users.login_name').as('creator'))
      .where('order_num', '=', orderNum)
      .executeTakeFirst();
    if (!order || (order.user_id !== who.userId && !who.printAdmin)) throw NOT_FOUND();
    const items = await this.selectItems()
      .where('print_items.order_id', '=', order.id)
      .orderBy('print_items.id')
      .execute();
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
      items: items.map((r) => toItem(r as ItemRow)),
    };
  }

  async payStatus(
    orderNum: string,
    who: { userId: number; printAdmin: boolean },
  ): Promise<'paid' | 'unpaid'> {
    const order = await this.db
      .selectFrom('print_orders')
      .select(['user_id', 'pay_status'])
      .where('order_num', '=', orderNum)
      .executeTakeFirst();
    if (!order || (order.user_id !== who.userId && !who.printAdmin)) throw NOT_FOUND();
    return order.pay_status === 1 ? 'paid' : 'unpaid';
  }

  // Scan to pay

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
    const order = await this.db
      .selectFrom('print_orders')
      .selectAll()
      .where('order_num', '=', orderNum)
      .where('user_id', '=', viewer.userId)
      .executeTakeFirst();
    if (!order) throw NOT_FOUND();
    if (order.pay_status === 1) throw conflict('ORDER_PAID', '订单已支付');
    if (order.payment !== 1) throw badRequest('ORDER_CASH', '现金订单请到阅览室付款');
    const provider = this.provider;
    if (!provider) throw badRequest('PAYMENT_UNAVAILABLE', MSG.scanPayUnavailable);
    await this.assertReadable(viewer, await this.printRepo.orderBookIds(order.id));
    const tradeNo = randomBytes(12).toString('hex');
    const now = nowIso(this.clock.now());
    const amountFen = await this.db.transaction().execute(async (tx) => {
      const locked = await this.printRepo.lockUnpaidOrder(order.id, now, tx);
      // Paid, or emptied by another checkout, meanwhile.
      if (!locked) throw conflict('ORDER_CHANGED', MSG.paymentTradeClosed);
      await this.printRepo.closeTrades(order.id, tx);
      await tx
        .insertInto('payments')
        .values({
          order_id: order.id,
          provider: provider.name,
          trade_no: tradeNo,
          amount_fen: locked.total_fen,
          status: 'pending',
          created_at: now,
          paid_at: null,
        })
        .execute();
      return locked.total_fen;
    });
    const payUrl = provider.payUrl({ tradeNo, amountFen }, origin);
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
    const row = await this.db
      .selectFrom('payments')
      .innerJoin('print_orders', 'print_orders.id', 'payments.order_id')
      .select([
        'payments.trade_no',
        'payments.amount_fen',
        'payments.status',
        'payments.created_at',
        'print_orders.order_num',
      ])
      .where('payments.trade_no', '=', tradeNo)
      .executeTakeFirst();
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
  async handleNotice(body: unknown): Promise<{ paid: boolean }> {
    const notice: PaymentNotice | undefined = this.provider?.verifyNotice(body);
    if (!notice) throw badRequest('PAYMENT_INVALID', MSG.paymentInvalid);
    const now = nowIso(this.clock.now());
    const outcome = await this.db.transaction().execute(async (tx) => {
      const payment = await tx
        .selectFrom('payments')
        .innerJoin('print_orders', 'print_orders.id', 'payments.order_id')
        .select([
          'payments.id',
          'payments.amount_fen',
          'payments.order_id',
          'payments.status',
          'print_orders.total_fen',
          'print_orders.order_num',
        ])
        .where('payments.trade_no', '=', notice.tradeNo)
        .executeTakeFirst();
      if (!payment) throw badRequest('PAYMENT_INVALID', MSG.paymentInvalid);
      if (payment.status === 'closed') throw TRADE_CLOSED();
      if (notice.amountFen !== payment.amount_fen || notice.amountFen !== payment.total_fen)
        throw badRequest('PAYMENT_AMOUNT', MSG.paymentAmountMismatch);
      // Each notice id once: a concurrent duplicate waits on the key and inserts nothing.
      const recorded = await tx
        .insertInto('payment_notices')
        .values({
          notice_id: notice.noticeId,
          trade_no: notice.tradeNo,
          body: JSON.stringify(body),
          received_at: now,
        })
        .onConflict((oc) => oc.column('notice_id').doNothing())
        .returning('notice_id')
        .executeTakeFirst();
      if (!recorded) throw conflict('PAYMENT_REPLAY', MSG.paymentInvalid);
      const unchanged = { paid: notice.paid, newlyPaid: false, orderId: payment.order_id };
      if (!notice.paid || payment.status === 'paid') return unchanged;
      // The order's row first (the lock every change of an order takes), then its trade.
      const order = await tx
        .updateTable('print_orders')
        .set({ pay_status: 1, paid_at: now, updated_at: now })
        .where('id', '=', payment.order_id)
        .where('pay_status', '=', 0)
        .executeTakeFirst();
      const trade = await tx
        .updateTable('payments')
        .set({ status: 'paid', paid_at: now })
        .where('id', '=', payment.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(trade.numUpdatedRows) !== 1) {
        // Another notice of this trade paid it meanwhile (nothing to do), or it was closed (refused).
        if ((await this.printRepo.tradeStatus(payment.id, tx)) === 'paid') return unchanged;
        throw TRADE_CLOSED();
      }
      // The order was paid another way (cash at the desk) while this trade was still open.
      if (Number(order.numUpdatedRows) !== 1) throw TRADE_CLOSED();
      await tx
        .updateTable('print_items')
        .set({ pay_status: 1 })
        .where('order_id', '=', payment.order_id)
        .execute();
      await this.log(tx, payment.order_id, 'paid-scan', [], `trade ${notice.tradeNo}`, null);
      return { paid: true, newlyPaid: true, orderId: payment.order_id };
    });
    if (outcome.newlyPaid) await this.announcePaid(outcome.orderId);
    return { paid: outcome.paid };
  }

  /** Tells print administrators of a paid order: in the app, and through the configured webhook. */
  private async announcePaid(orderId: number): Promise<void> {
    const row = await this.db
      .selectFrom('print_orders')
      .innerJoin('users', 'users.id', 'print_orders.user_id')
      .select((eb) => [
        'print_orders.order_num',
        'print_orders.payment',
        'print_orders.total_fen',
        eb.fn.coalesce('users.real_name', 'users.nick_name', 'users.login_name').as('name'),
        eb
          .selectFrom('print_items')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('print_items.order_id', '=', 'print_orders.id')
          .as('pages'),
      ])
      .where('print_orders.id', '=', orderId)
      .executeTakeFirstOrThrow();
    const text = `读者 ${row.name} 已支付打印订单 ${row.order_num}：共 ${Number(row.pages)} 页，${PAYMENT_LABELS[row.payment] ?? ''}，合计 ¥${yuan(row.total_fen)}`;
    await this.db
      .insertInto('notifications')
      .values({
        audience: 'printAdmin',
        text,
        link: `/PersonalPage/AdminPrint?orderNum=${row.order_num}`,
        created_at: nowIso(this.clock.now()),
      })
      .execute();
    await Promise.all(this.notifiers.map((n) => n.send(text)));
  }

  async notifications(): Promise<Notification[]> {
    const rows = await this.db
      .selectFrom('notifications')
      .selectAll()
      .where('audience', '=', 'printAdmin')
      .orderBy('id', 'desc')
      .limit(20)
      .execute();
    return rows.map((r) => ({ id: r.id, text: r.text, link: r.link, createdAt: r.created_at }));
  }

  // The print desk

  async summary(query: {
    pageNum: number;
    realName?: string | undefined;
    phone?: string | undefined;
    email?: string | undefined;
    extract?: '0' | '1' | undefined;
  }): Promise<Paged<AdminPrintSummary>> {
    let base = this.db
      .selectFrom('print_orders')
      .innerJoin('users', 'users.id', 'print_orders.user_id')
      .where((eb) =>
        eb.exists(
          eb.selectFrom('print_items').select('id').whereRef('print_items.order_id', '=', 'print_orders.id'),
        ),
      );
    if (query.realName) base = base.where(likeText('users.real_name', query.realName));
    if (query.phone) base = base.where(likeText('users.phone', query.phone));
    if (query.email) base = base.where(likeText('users.email', query.email));
    if (query.extract !== undefined) base = base.where('print_orders.extract', '=', Number(query.extract));
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const size = ADMIN_PRINT_PAGE_SIZE;
    const rows = await base
      .select((eb) => [
        'users.real_name',
        'users.phone',
        'users.email',
        'print_orders.order_num',
        'print_orders.created_at',
        'print_orders.extract',
        'print_orders.payment',
        'print_orders.total_fen',
        'print_orders.pay_status',
        eb.fn.coalesce('users.nick_name', 'users.login_name').as('creator'),
        eb
          .selectFrom('print_items')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('print_items.order_id', '=', 'print_orders.id')
          .where('print_items.pay_status', '=', 1)
          .where('print_items.print_status', '=', 0)
          .as('pay_no_print'),
      ])
      .orderBy('print_orders.id', 'desc')
      .limit(size)
      .offset((query.pageNum - 1) * size)
      .execute();
    return pagedOf(
      query.pageNum,
      size,
      n,
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
      })),
    );
  }

  private async deskItems(tx: DbOrTx, ids: number[]) {
    const unique = [...new Set(ids)];
    const rows = await tx
      .selectFrom('print_items')
      .innerJoin('print_orders', 'print_orders.id', 'print_items.order_id')
      .select([
        'print_items.id',
        'print_items.order_id',
        'print_items.user_id',
        'print_items.book_id',
        'print_items.pay_status',
        'print_items.print_status',
        'print_items.express_number',
        'print_orders.extract',
      ])
      .where('print_items.id', 'in', unique)
      .execute();
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
    const selected = await this.deskItems(this.db, ids);
    for (const userId of new Set(selected.map((r) => r.user_id))) {
      await this.assertReadable(
        { userId, roles: await this.printRepo.userRoles(userId), readingRoom: true },
        selected.filter((r) => r.user_id === userId).map((r) => r.book_id),
      );
    }
    await this.db.transaction().execute(async (tx) => {
      const rows = await this.deskItems(tx, ids);
      if (rows.some((r) => r.pay_status === 1)) throw badRequest('ALREADY_PAID', MSG.adminConfirmPaid);
      await this.printRepo.lockOrders(orderIdsOf(rows), now, tx);
      const updated = await tx
        .updateTable('print_items')
        .set({ pay_status: 1 })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .where('pay_status', '=', 0)
        .executeTakeFirst();
      // Another hand confirmed some of them meanwhile: nothing of this request is applied.
      if (Number(updated.numUpdatedRows) !== rows.length)
        throw badRequest('ALREADY_PAID', MSG.adminConfirmPaid);
      for (const orderId of new Set(rows.map((r) => r.order_id!))) {
        await this.printRepo.closeTrades(orderId, tx);
        const unpaid = await tx
          .selectFrom('print_items')
          .select('id')
          .where('order_id', '=', orderId)
          .where('pay_status', '=', 0)
          .executeTakeFirst();
        if (!unpaid) {
          await tx
            .updateTable('print_orders')
            .set({ pay_status: 1, paid_at: now, updated_at: now })
            .where('id', '=', orderId)
            .where('pay_status', '=', 0)
            .execute();
        }
        const mine = rows.filter((r) => r.order_id === orderId).map((r) => r.id);
        await this.log(tx, orderId, 'confirm-payment', mine, null, actorId);
      }
    });
  }

  /**
   * Prints the selected items: refused if any is unpaid; marks them printed and makes a print-ready PDF
   * of their pages, each order's pages after a cover sheet (order number, reader, pickup, items).
   */
  async markPrinted(actorId: number, ids: number[]): Promise<{ file: string; pages: number }> {
    const rows = await this.deskItems(this.db, ids);
    if (rows.some((r) => r.pay_status !== 1)) throw badRequest('UNPAID', MSG.adminPrintUnpaid);
    const file = await this.printPdf(rows.map((r) => r.id));
    await this.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('print_items')
        .set({ print_status: 1 })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      for (const orderId of new Set(rows.map((r) => r.order_id!))) {
        const mine = rows.filter((r) => r.order_id === orderId).map((r) => r.id);
        await this.log(tx, orderId, 'printed', mine, file, actorId);
      }
    });
    return { file, pages: rows.length };
  }

  async saveExpress(actorId: number, ids: number[], expressNumber: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const rows = await this.deskItems(tx, ids);
      if (expressNumber.trim() === '') throw badRequest('EXPRESS_EMPTY', MSG.adminExpressEmpty);
      if (rows.some((r) => r.extract !== 1)) throw badRequest('EXPRESS_PICKUP', MSG.adminExpressPickup);
      if (rows.some((r) => r.print_status !== 1))
        throw badRequest('EXPRESS_UNPRINTED', MSG.adminExpressUnprinted);
      if (rows.some((r) => r.express_number)) throw badRequest('EXPRESS_EXISTS', MSG.adminExpressExists);
      const updated = await tx
        .updateTable('print_items')
        .set({ express_number: expressNumber.trim() })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .where('express_number', 'is', null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== rows.length)
        throw badRequest('EXPRESS_EXISTS', MSG.adminExpressExists);
      for (const orderId of new Set(rows.map((r) => r.order_id!))) {
        const mine = rows.filter((r) => r.order_id === orderId).map((r) => r.id);
        await this.log(tx, orderId, 'express', mine, expressNumber.trim(), actorId);
      }
    });
  }

  /** The print desk's items of an order. */
  async deskOrderItems(orderNum: string): Promise<PrintItem[]> {
    const rows = await this.selectItems()
      .where('print_orders.order_num', '=', orderNum)
      .orderBy('print_items.id')
      .execute();
    return rows.map((r) => toItem(r as ItemRow));
  }

  async pdfPath(name: string): Promise<string> {
    if (!/^[0-9a-f]{24}\.pdf$/.test(name)) throw NOT_FOUND();
    const file = path.join(this.dataDir, 'print', name);
    await fs.access(file).catch(() => {
      throw NOT_FOUND();
    });
    return file;
  }

  private async printPdf(itemIds: number[]): Promise<string> {
    const items = (await this.selectItems()
      .where('print_items.id', 'in', itemIds)
      .orderBy('print_items.order_id')
      .orderBy('print_items.id')
      .execute()) as ItemRow[];
    const pdf = await PDFDocument.create();
    pdf.setTitle('打印订单');
    const A4 = [595.28, 841.89] as const;
    const A3 = [841.89, 1190.55] as const;
    const byOrder = new Map<number, ItemRow[]>();
    for (const item of items) byOrder.set(item.order_id!, [...(byOrder.get(item.order_id!) ?? []), item]);
    for (const [orderId, list] of byOrder) {
      const order = await this.db
        .selectFrom('print_orders')
        .innerJoin('users', 'users.id', 'print_orders.user_id')
        .selectAll('print_orders')
        .select(['users.real_name', 'users.nick_name', 'users.login_name', 'users.phone'])
        .where('print_orders.id', '=', orderId)
        .executeTakeFirstOrThrow();
      const lines = [
        `打印订单 ${order.order_num}`,
        `读者：${order.real_name ?? order.nick_name ?? order.login_name}  ${order.phone ?? ''}`,
        `取件：${EXTRACT_LABELS[order.extract] ?? ''}${order.extract === 1 ? `  ${order.consignee ?? ''} ${order.consignee_phone ?? ''} ${order.delivery_address ?? ''}` : ''}`,
        `支付：${PAYMENT_LABELS[order.payment] ?? ''}  合计 ¥${yuan(order.total_fen)}  本次打印 ${list.length} 页`,
        `发票：${order.is_invoice ? (order.invoice_title ?? '') : '不需要'}`,
        '',
        ...list.map(
          (item, i) =>
            `${i + 1}. 《${item.title}》${item.volume_name} 第 ${item.seq} 页  ${item.directory_name ?? ''}  ${item.paper_size}`,
        ),
      ];
      const cover = await sharp(Buffer.from(await sheetSvg(lines, 1240, 1754, 30)))
        .jpeg({ quality: 90 })
        .toBuffer();
      const coverImage = await pdf.embedJpg(cover);
      pdf.addPage([...A4]).drawImage(coverImage, { x: 0, y: 0, width: A4[0], height: A4[1] });
      for (const item of list) {
        const page = await this.catalogRepo.findPage(item.page_id);
        if (!page) continue;
        const size = item.paper_size === 'A3' ? A3 : A4;
        const jpeg = await pdf.embedJpg(
          await this.downloads.stampedJpeg(page, 2400, `${order.order_num} · ${item.title} · ${item.seq}`),
        );
        // Landscape pages on landscape paper; fitted inside a 1 cm margin, centred.
        const landscape = jpeg.width > jpeg.height;
        const [pw, ph] = landscape ? [size[1], size[0]] : [size[0], size[1]];
        const margin = 28.35;
        const scale = Math.min((pw - 2 * margin) / jpeg.width, (ph - 2 * margin) / jpeg.height);
        const w = jpeg.width * scale;
        const h = jpeg.height * scale;
        pdf.addPage([pw, ph]).drawImage(jpeg, { x: (pw - w) / 2, y: (ph - h) / 2, width: w, height: h });
      }
    }
    const dir = path.join(this.dataDir, 'print');
    await fs.mkdir(dir, { recursive: true });
    const name = `${randomBytes(12).toString('hex')}.pdf`;
    await fs.writeFile(path.join(dir, name), await pdf.save());
    return name;
  }

  private async log(
    tx: DbOrTx,
    orderId: number | null,
    action: string,
    itemIds: number[],
    detail: string | null,
    actorId: number | null,
  ): Promise<void> {
    await tx
      .insertInto('print_log')
      .values({
        order_id: orderId,
        action,
        item_ids: JSON.stringify(itemIds),
        detail,
        actor_id: actorId,
        created_at: nowIso(this.clock.now()),
      })
      .execute();
  }

  /** The desk's log of an order: who did what, when. */
  async orderLog(orderNum: string) {
    return this.db
      .selectFrom('print_log')
      .innerJoin('print_orders', 'print_orders.id', 'print_log.order_id')
      .leftJoin('users', 'users.id', 'print_log.actor_id')
      .select([
        'print_log.action',
        'print_log.item_ids',
        'print_log.detail',
        'print_log.created_at',
        'users.login_name as actor',
      ])
      .where('print_orders.order_num', '=', orderNum)
      .orderBy('print_log.id')
      .execute();
  }
}
