import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { autoIncrementId } from './columns.ts';

/**
 * Refunds (issue 18 part 5, docs/payments.md): a print order cancelled at the desk after it was paid,
 * or a payment that arrived for a trade already closed, is refunded. Each refund keeps its own number
 * (the provider's out_request_no / out_refund_no, so asking again is the same refund), the trade it
 * returns, the amount, who and why, and the provider's answer; a cash refund has no trade.
 */
export function migration0025(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('refunds')
        .addColumn('id', autoIncrementId(dialect))
        .addColumn('order_id', 'integer', (c) => c.notNull().references('print_orders.id'))
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('refund_no', 'text', (c) => c.notNull().unique())
        .addColumn('trade_no', 'text')
        .addColumn('amount_fen', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('detail', 'text')
        .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('refunds_order').on('refunds').column('order_id').execute();
      await db.schema.createIndex('refunds_trade').on('refunds').column('trade_no').execute();
      await db.schema.createIndex('payments_created').on('payments').column('created_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('payments_created').execute();
      await db.schema.dropTable('refunds').execute();
    },
  };
}
