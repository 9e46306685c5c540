import type { Db, DbOrTx } from '../../db/database.ts';

/** Scan-to-pay trades (one live trade per order) and the provider's notices, each recorded once. */
export class PaymentRepository {
  constructor(private readonly db: Db) {}

  async createTrade(
    entry: { orderId: number; provider: string; tradeNo: string; amountFen: number; now: string },
    tx: DbOrTx,
  ): Promise<void> {
    await tx
      .insertInto('payments')
      .values({
        order_id: entry.orderId,
        provider: entry.provider,
        trade_no: entry.tradeNo,
        amount_fen: entry.amountFen,
        status: 'pending',
        created_at: entry.now,
        paid_at: null,
      })
      .execute();
  }

  /** A trade with its order's number and total. */
  async trade(tradeNo: string, tx: DbOrTx = this.db) {
    return tx
      .selectFrom('payments')
      .innerJoin('print_orders', 'print_orders.id', 'payments.order_id')
      .select([
        'payments.id',
        'payments.trade_no',
        'payments.amount_fen',
        'payments.order_id',
        'payments.status',
        'payments.created_at',
        'print_orders.total_fen',
        'print_orders.order_num',
      ])
      .where('payments.trade_no', '=', tradeNo)
      .executeTakeFirst();
  }

  /**
   * Records a notice by its id; false when it was recorded before (a replay). A concurrent duplicate
   * waits on the key and inserts nothing.
   */
  async recordNotice(
    notice: { noticeId: string; tradeNo: string; body: string; receivedAt: string },
    tx: DbOrTx,
  ): Promise<boolean> {
    const recorded = await tx
      .insertInto('payment_notices')
      .values({
        notice_id: notice.noticeId,
        trade_no: notice.tradeNo,
        body: notice.body,
        received_at: notice.receivedAt,
      })
      .onConflict((oc) => oc.column('notice_id').doNothing())
      .returning('notice_id')
      .executeTakeFirst();
    return recorded !== undefined;
  }

  /** Marks a pending trade paid; false when it is not pending. */
  async markTradePaid(paymentId: number, now: string, tx: DbOrTx): Promise<boolean> {
    const trade = await tx
      .updateTable('payments')
      .set({ status: 'paid', paid_at: now })
      .where('id', '=', paymentId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(trade.numUpdatedRows) === 1;
  }

  /** Closes an order's open trade: a notice for it is refused from now on. */
  async closeTrades(orderId: number, tx: DbOrTx): Promise<void> {
    await tx
      .updateTable('payments')
      .set({ status: 'closed' })
      .where('order_id', '=', orderId)
      .where('status', '=', 'pending')
      .execute();
  }

  /** Closes one trade the provider would not open. */
  async closeTrade(tradeNo: string): Promise<void> {
    await this.db
      .updateTable('payments')
      .set({ status: 'closed' })
      .where('trade_no', '=', tradeNo)
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
}
