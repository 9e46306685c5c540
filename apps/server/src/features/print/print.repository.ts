import type { Role } from '@guji/shared';
import type { Db, DbOrTx } from '../../db/database.ts';

/**
 * Print orders, their items and their scan-to-pay trades: the queries that keep one live trade per
 * order and re-check a reader's access before money is taken.
 */
export class PrintRepository {
  constructor(private readonly db: Db) {}

  /**
   * Takes the rows of orders about to change, before their items or trades, in id order: every change
   * of an order (checkout, delete, notice, desk) locks this way, so concurrent ones wait instead of
   * deadlocking.
   */
  async lockOrders(orderIds: number[], now: string, tx: DbOrTx = this.db): Promise<void> {
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
    tx: DbOrTx = this.db,
  ): Promise<{ total_fen: number } | undefined> {
    return tx
      .updateTable('print_orders')
      .set({ updated_at: now })
      .where('id', '=', orderId)
      .where('pay_status', '=', 0)
      .returning('total_fen')
      .executeTakeFirst();
  }

  /** Sets an unpaid order's total again, and marks it paid when `paid`. */
  async resettleOrder(
    orderId: number,
    totalFen: number,
    paid: boolean,
    now: string,
    tx: DbOrTx = this.db,
  ): Promise<void> {
    await tx
      .updateTable('print_orders')
      .set({
        total_fen: totalFen,
        updated_at: now,
        ...(paid ? { pay_status: 1, paid_at: now } : {}),
      })
      .where('id', '=', orderId)
      .where('pay_status', '=', 0)
      .execute();
  }

  /** The amount and payment state of each item of an order. */
  async orderItemAmounts(
    orderId: number,
    tx: DbOrTx = this.db,
  ): Promise<Array<{ amount_fen: number; pay_status: number }>> {
    return tx
      .selectFrom('print_items')
      .select(['amount_fen', 'pay_status'])
      .where('order_id', '=', orderId)
      .execute();
  }

  /** The books of some of a user's print items (one row per item). */
  async itemBookIds(userId: number, itemIds: number[], tx: DbOrTx = this.db): Promise<number[]> {
    const rows = await tx
      .selectFrom('print_items')
      .select('book_id')
      .where('id', 'in', itemIds)
      .where('user_id', '=', userId)
      .execute();
    return rows.map((row) => row.book_id);
  }

  /** The books of an order's items (one row per item). */
  async orderBookIds(orderId: number, tx: DbOrTx = this.db): Promise<number[]> {
    const rows = await tx
      .selectFrom('print_items')
      .select('book_id')
      .where('order_id', '=', orderId)
      .execute();
    return rows.map((row) => row.book_id);
  }

  /** Closes an order's open trade: a notice for it is refused from now on. */
  async closeTrades(orderId: number, tx: DbOrTx = this.db): Promise<void> {
    await tx
      .updateTable('payments')
      .set({ status: 'closed' })
      .where('order_id', '=', orderId)
      .where('status', '=', 'pending')
      .execute();
  }

  /** A trade's status now ('pending', 'paid' or 'closed'). */
  async tradeStatus(paymentId: number, tx: DbOrTx = this.db): Promise<string | undefined> {
    const row = await tx
      .selectFrom('payments')
      .select('status')
      .where('id', '=', paymentId)
      .executeTakeFirst();
    return row?.status;
  }

  /** A reader's roles, for the access check the desk makes on their behalf. */
  async userRoles(userId: number, tx: DbOrTx = this.db): Promise<Role[]> {
    const rows = await tx.selectFrom('user_roles').select('role').where('user_id', '=', userId).execute();
    return rows.map((row) => row.role as Role);
  }
}
