import { PAY_STATUS, PRINT_STATUS } from '@guji/shared';
import type { Db, DbOrTx } from '../../db/database.ts';
import type { Row } from '../../db/schema.ts';

export type RefundRow = Omit<Row<'refunds'>, 'actor_id'> & {
  order_num: Row<'print_orders'>['order_num'];
  actor: string | null;
};

/**
 * Refunds, the cancellation of the paid orders they return, and the trades of a day for reconciliation
 * (docs/payments.md).
 */
export class RefundRepository {
  constructor(private readonly db: Db) {}

  private selectRefunds(tx: DbOrTx) {
    return tx
      .selectFrom('refunds')
      .innerJoin('print_orders', 'print_orders.id', 'refunds.order_id')
      .leftJoin('users', 'users.id', 'refunds.actor_id')
      .select([
        'refunds.id',
        'refunds.order_id',
        'print_orders.order_num',
        'refunds.provider',
        'refunds.refund_no',
        'refunds.trade_no',
        'refunds.amount_fen',
        'refunds.reason',
        'refunds.status',
        'refunds.detail',
        'refunds.created_at',
        'refunds.updated_at',
      ])
      .select((eb) => eb.fn.coalesce('users.real_name', 'users.nick_name', 'users.login_name').as('actor'));
  }

  async byId(id: number, tx: DbOrTx = this.db): Promise<RefundRow | undefined> {
    return this.selectRefunds(tx).where('refunds.id', '=', id).executeTakeFirst();
  }

  /** The refund already made (or being made) of a trade, if any. */
  async ofTrade(tradeNo: string, tx: DbOrTx = this.db): Promise<{ id: number } | undefined> {
    return tx.selectFrom('refunds').select('id').where('trade_no', '=', tradeNo).executeTakeFirst();
  }

  async ofOrder(orderId: number, tx: DbOrTx = this.db): Promise<RefundRow[]> {
    return this.selectRefunds(tx)
      .where('refunds.order_id', '=', orderId)
      .orderBy('refunds.id', 'desc')
      .execute();
  }

  async create(
    r: {
      orderId: number;
      provider: string;
      refundNo: string;
      tradeNo: string | null;
      amountFen: number;
      reason: string;
      status: 'pending' | 'success';
      detail: string | null;
      actorId: number | null;
      now: string;
    },
    tx: DbOrTx,
  ): Promise<number> {
    const row = await tx
      .insertInto('refunds')
      .values({
        order_id: r.orderId,
        provider: r.provider,
        refund_no: r.refundNo,
        trade_no: r.tradeNo,
        amount_fen: r.amountFen,
        reason: r.reason,
        status: r.status,
        detail: r.detail,
        actor_id: r.actorId,
        created_at: r.now,
        updated_at: r.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Records the provider's answer; a refund already done is never set back. */
  async settle(
    id: number,
    status: 'pending' | 'success' | 'failed',
    detail: string | null,
    now: string,
  ): Promise<void> {
    await this.db
      .updateTable('refunds')
      .set({ status, detail, updated_at: now })
      .where('id', '=', id)
      .where('status', '!=', 'success')
      .execute();
  }

  /**
   * Cancels a paid order none of whose items is printed: the order and its items become refunded. False
   * when the order is not paid (any more) or an item was printed meanwhile; the order's row is the lock.
   */
  async cancelPaidOrder(orderId: number, now: string, tx: DbOrTx): Promise<boolean> {
    const order = await tx
      .updateTable('print_orders')
      .set({ pay_status: PAY_STATUS.refunded, updated_at: now })
      .where('id', '=', orderId)
      .where('pay_status', '=', PAY_STATUS.paid)
      .executeTakeFirst();
    if (Number(order.numUpdatedRows) !== 1) return false;
    // Every item, none printed: on PostgreSQL an item printed while this waited for its row is seen
    // here, and the cancel fails (the caller's transaction is rolled back).
    const items = await tx
      .selectFrom('print_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    const refunded = await tx
      .updateTable('print_items')
      .set({ pay_status: PAY_STATUS.refunded })
      .where('order_id', '=', orderId)
      .where('print_status', '=', PRINT_STATUS.notPrinted)
      .executeTakeFirst();
    return Number(refunded.numUpdatedRows) === Number(items.n);
  }

  /** The order's paid trade, if it was paid by scan. */
  async paidTrade(orderId: number, tx: DbOrTx = this.db) {
    return tx
      .selectFrom('payments')
      .select(['trade_no', 'provider', 'amount_fen'])
      .where('order_id', '=', orderId)
      .where('status', '=', 'paid')
      .executeTakeFirst();
  }

  /** Trades opened in [from, to), with their orders and what our successful refunds returned of each. */
  async tradesBetween(from: string, to: string) {
    return this.db
      .selectFrom('payments')
      .innerJoin('print_orders', 'print_orders.id', 'payments.order_id')
      .select([
        'payments.trade_no',
        'payments.provider',
        'payments.status',
        'payments.amount_fen',
        'payments.created_at',
        'print_orders.order_num',
      ])
      .select((eb) =>
        eb
          .selectFrom('refunds')
          .select((r) => r.fn.coalesce(r.fn.sum<number>('refunds.amount_fen'), r.lit(0)).as('s'))
          .whereRef('refunds.trade_no', '=', 'payments.trade_no')
          .where('refunds.status', '=', 'success')
          .as('refunded_fen'),
      )
      .where('payments.created_at', '>=', from)
      .where('payments.created_at', '<', to)
      .orderBy('payments.created_at')
      .orderBy('payments.id')
      .execute();
  }
}
