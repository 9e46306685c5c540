import { MSG, type PrintItem, PAY_STATUS } from '@guji/shared';
import type { DbOrTx } from '../../db/database.ts';
import { nowIso } from '../../db/database.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import { thumbnailUrl, type CatalogService } from '../catalog/catalog.service.ts';
import type { Viewer } from '../../lib/viewer.ts';
import type { PaymentRepository } from './payment.repository.ts';
import type { ItemRow } from './print-item.repository.ts';
import type { PrintRepositories } from './print.repository.ts';

export const NOT_FOUND = () => notFound(MSG.notFound, 'NOT_FOUND');
export const TRADE_CLOSED = () => conflict('PAYMENT_CLOSED', MSG.paymentTradeClosed);

/** The distinct orders some items belong to. */
export const orderIdsOf = (items: Array<{ order_id: number | null }>): number[] => [
  ...new Set(items.flatMap((item) => (item.order_id === null ? [] : [item.order_id]))),
];

export const toItem = (r: ItemRow): PrintItem => ({
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
 * The rules the reader's list, checkout and the desk share: access checked again where money is
 * taken, orders settled again when their items change, and the order log.
 */
export class PrintRules {
  constructor(
    private readonly print: PrintRepositories,
    private readonly payments: PaymentRepository,
    private readonly catalogRepo: CatalogRepository,
    private readonly catalog: CatalogService,
    private readonly clock: Clock,
  ) {}

  /**
   * Refuses unless the viewer may still read every book (the access rule, DESIGN.md §7): a privilege
   * that was active when the pages were added may have ended since. Checked at checkout, when a trade
   * is opened and when the desk takes cash.
   */
  async assertReadable(viewer: Viewer, bookIds: number[]): Promise<void> {
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

  /**
   * Orders whose items changed (taken into another checkout, or deleted): the total is summed again from
   * the items left and the open trade closed, since it was for the old total; an order left holding only
   * items paid at the desk is paid. Orders left empty were dropped already.
   */
  async settleOrders(tx: DbOrTx, orderIds: number[], now: string): Promise<void> {
    for (const orderId of orderIds) {
      const items = await this.print.items.orderItemAmounts(orderId, tx);
      if (items.length === 0) continue;
      await this.payments.closeTrades(orderId, tx);
      const allPaid = items.every((item) => item.pay_status === PAY_STATUS.paid);
      await this.print.orders.resettleOrder(
        orderId,
        items.reduce((sum, item) => sum + item.amount_fen, 0),
        allPaid,
        now,
        tx,
      );
    }
  }

  /** One line of an order's log (or of the price list's, without an order). */
  async log(
    tx: DbOrTx,
    orderId: number | null,
    action: string,
    itemIds: number[],
    detail: string | null,
    actorId: number | null,
  ): Promise<void> {
    await this.print.desk.log(
      { orderId, action, itemIds, detail, actorId, at: nowIso(this.clock.now()) },
      tx,
    );
  }
}
