import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { autoIncrementId } from './columns.ts';

/**
 * Print orders (spec §3 Order, Print order item, Pay record; DESIGN.md §9): prices by paper size, the
 * reader's print items (a page each, its amount fixed when added), orders with their pickup and
 * payment, provider payments with the notices received, the print desk's log, and notifications.
 * Amounts are integer fen.
 */
export function migration0010(dialect: Dialect): Migration {
  const id = autoIncrementId(dialect);
  const user = (c: ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade');
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('print_prices')
        .addColumn('paper_size', 'text', (c) => c.primaryKey())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('price_fen', 'integer', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull())
        .execute();
      await sql`insert into print_prices (paper_size, label, price_fen, sort) values
        ('A4', 'A4 单面', 150, 1), ('A3', 'A3 单面', 300, 2)`.execute(db);

      await db.schema
        .createTable('print_orders')
        .addColumn('id', id)
        .addColumn('order_num', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', user)
        /** 0 self-pickup, 1 post. */
        .addColumn('extract', 'integer', (c) => c.notNull())
        /** 0 cash, 1 scan. */
        .addColumn('payment', 'integer', (c) => c.notNull())
        .addColumn('is_invoice', 'integer', (c) => c.notNull())
        .addColumn('invoice_title', 'text')
        .addColumn('consignee', 'text')
        .addColumn('consignee_phone', 'text')
        .addColumn('delivery_address', 'text')
        .addColumn('total_fen', 'integer', (c) => c.notNull())
        .addColumn('pay_status', 'integer', (c) => c.notNull())
        .addColumn('paid_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('print_orders_user_idx')
        .on('print_orders')
        .columns(['user_id', 'id'])
        .execute();

      await db.schema
        .createTable('print_items')
        .addColumn('id', id)
        .addColumn('user_id', 'integer', user)
        .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
        .addColumn('volume_id', 'integer', (c) => c.notNull().references('volumes.id').onDelete('cascade'))
        .addColumn('page_id', 'integer', (c) => c.notNull().references('pages.id').onDelete('cascade'))
        .addColumn('directory_name', 'text')
        .addColumn('paper_size', 'text', (c) => c.notNull())
        .addColumn('amount_fen', 'integer', (c) => c.notNull())
        .addColumn('order_id', 'integer', (c) => c.references('print_orders.id').onDelete('set null'))
        .addColumn('pay_status', 'integer', (c) => c.notNull())
        .addColumn('print_status', 'integer', (c) => c.notNull())
        .addColumn('express_number', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('print_items_user_idx')
        .on('print_items')
        .columns(['user_id', 'id'])
        .execute();
      await db.schema.createIndex('print_items_order_idx').on('print_items').columns(['order_id']).execute();

      await db.schema
        .createTable('payments')
        .addColumn('id', id)
        .addColumn('order_id', 'integer', (c) =>
          c.notNull().references('print_orders.id').onDelete('cascade'),
        )
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('trade_no', 'text', (c) => c.notNull().unique())
        .addColumn('amount_fen', 'integer', (c) => c.notNull())
        /** `pending`, then `paid` once a verified notice arrives. */
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('paid_at', 'text')
        .execute();

      await db.schema
        .createTable('payment_notices')
        .addColumn('notice_id', 'text', (c) => c.primaryKey())
        .addColumn('trade_no', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('print_log')
        .addColumn('id', id)
        .addColumn('order_id', 'integer', (c) => c.references('print_orders.id').onDelete('cascade'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('item_ids', 'text', (c) => c.notNull())
        .addColumn('detail', 'text')
        .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('notifications')
        .addColumn('id', id)
        /** The role that sees it, e.g. printAdmin. */
        .addColumn('audience', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('link', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('notifications_audience_idx')
        .on('notifications')
        .columns(['audience', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of [
        'notifications',
        'print_log',
        'payment_notices',
        'payments',
        'print_items',
        'print_orders',
        'print_prices',
      ])
        await db.schema.dropTable(table).execute();
    },
  };
}
