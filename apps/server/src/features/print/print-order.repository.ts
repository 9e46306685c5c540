import { PAY_STATUS, PRINT_STATUS } from '@guji/shared';
import type { Insertable, Selectable } from 'kysely';
import type { Db, DbOrTx } from '../../db/database.ts';
import { countedPage, likeText } from '../../db/query.ts';
import type { PrintOrdersTable } from '../../db/schema.ts';

export type OrderRow = Selectable<PrintOrdersTable>;

/**
 * Print orders: the locks that keep one live trade per order, checkout, payment, and the desk's list
 * (their items: print-item.repository.ts; trades and notices: payment.repository.ts).
 */
export class PrintOrderRepository {
  constructor(private readonly db: Db) {}

  /**
   * Takes the rows of orders about to change, before their items or trades, in id order: every change
   * of an order (checkout, delete, notice, desk) locks this way, so concurrent ones wait instead of
   * deadlocking.
   */
  async lockOrders(orderIds: number[], now: string, tx: DbOrTx): Promise<void> {
    if (orderIds.length === 0) return;
    await tx
      .updateTable('print_orders')
      .set({ updated_at: now })
      .where(
        'id',
        'in',
        [...orderIds].sort((a, b) => a - b),
      )
      .execute();
  }

  /**
   * Locks one unpaid order and reads its total; undefined when it is paid (or gone).
   */
  async lockUnpaidOrder(
    orderId: number,
    now: string,
    tx: DbOrTx,
  ): Promise<{ total_fen: number } | undefined> {
    return tx
      .updateTable('print_orders')
      .set({ updated_at: now })
      .where('id', '=', orderId)
      .where('pay_status', '=', PAY_STATUS.unpaid)
      .returning('total_fen')
      .executeTakeFirst();
  }

  /** Sets an unpaid order's total again, and marks it paid when `paid`. */
  async resettleOrder(
    orderId: number,
    totalFen: number,
    paid: boolean,
    now: string,
    tx: DbOrTx,
  ): Promise<void> {
    await tx
      .updateTable('print_orders')
      .set({
        total_fen: totalFen,
        updated_at: now,
        ...(paid ? { pay_status: PAY_STATUS.paid, paid_at: now } : {}),
      })
      .where('id', '=', orderId)
      .where('pay_status', '=', PAY_STATUS.unpaid)
      .execute();
  }

  /** Unpaid orders of the user left without items go. */
  async dropEmptyOrders(userId: number, tx: DbOrTx): Promise<void> {
    await tx
      .deleteFrom('print_orders')
      .where('user_id', '=', userId)
      .where('pay_status', '=', PAY_STATUS.unpaid)
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

  async createOrder(order: Insertable<PrintOrdersTable>, tx: DbOrTx): Promise<number> {
    const row = await tx.insertInto('print_orders').values(order).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  /** An order with the name of its reader. */
  async orderByNum(
    orderNum: string,
    tx: DbOrTx = this.db,
  ): Promise<(OrderRow & { creator: string }) | undefined> {
    return tx
      .selectFrom('print_orders')
      .innerJoin('users', 'users.id', 'print_orders.user_id')
      .selectAll('print_orders')
      .select((eb) => eb.fn.coalesce('users.real_name', 'users.nick_name', 'users.login_name').as('creator'))
      .where('order_num', '=', orderNum)
      .executeTakeFirst();
  }

  /** Marks an unpaid order paid; false when it was paid already. */
  async markOrderPaid(orderId: number, now: string, tx: DbOrTx): Promise<boolean> {
    const result = await tx
      .updateTable('print_orders')
      .set({ pay_status: PAY_STATUS.paid, paid_at: now, updated_at: now })
      .where('id', '=', orderId)
      .where('pay_status', '=', PAY_STATUS.unpaid)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** What the desk's notice of a paid order says: number, payment, total, reader, pages. */
  async paidOrderSummary(orderId: number, tx: DbOrTx = this.db) {
    return tx
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
  }

  /** An order with its reader's names and phone, for its cover sheet. */
  async orderForCover(orderId: number, tx: DbOrTx = this.db) {
    return tx
      .selectFrom('print_orders')
      .innerJoin('users', 'users.id', 'print_orders.user_id')
      .selectAll('print_orders')
      .select(['users.real_name', 'users.nick_name', 'users.login_name', 'users.phone'])
      .where('print_orders.id', '=', orderId)
      .executeTakeFirstOrThrow();
  }

  /**
   * The desk's list of orders with items, newest first, by the reader's real name, phone or email
   * (substrings) and pickup; with the count of all.
   */
  async deskOrders(
    query: {
      realName?: string | undefined;
      phone?: string | undefined;
      email?: string | undefined;
      extract?: number | undefined;
      offset: number;
      limit: number;
    },
    tx: DbOrTx = this.db,
  ) {
    let base = tx
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
    if (query.extract !== undefined) base = base.where('print_orders.extract', '=', query.extract);
    return countedPage(
      base,
      (list) =>
        list
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
            'print_orders.is_invoice',
            'print_orders.invoice_title',
            eb.fn.coalesce('users.nick_name', 'users.login_name').as('creator'),
            eb
              .selectFrom('print_items')
              .select((e) => e.fn.countAll<number>().as('n'))
              .whereRef('print_items.order_id', '=', 'print_orders.id')
              .where('print_items.pay_status', '=', PAY_STATUS.paid)
              .where('print_items.print_status', '=', PRINT_STATUS.notPrinted)
              .as('pay_no_print'),
          ])
          .orderBy('print_orders.id', 'desc'),
      query,
    );
  }
}
