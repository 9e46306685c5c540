import { PAY_STATUS, PRINT_STATUS } from '@guji/shared';
import type { Insertable } from 'kysely';
import type { Db, DbOrTx } from '../../db/database.ts';
import type { PrintItemsTable, Row } from '../../db/schema.ts';

/** A print item with its book, page, volume, order and reader, as the lists show it. */
export type ItemRow = Omit<Row<'print_items'>, 'volume_id'> &
  Pick<Row<'books'>, 'title' | 'call_number'> & {
    seq: Row<'pages'>['seq'];
    volume_name: Row<'volumes'>['name'];
    order_num: Row<'print_orders'>['order_num'] | null;
    payment: Row<'print_orders'>['payment'] | null;
    extract: Row<'print_orders'>['extract'] | null;
    creator: string;
  };

/** Which items a list holds. */
export type ItemFilter =
  { userId: number; unpaidOnly: boolean } | { orderId: number } | { orderNum: string } | { ids: number[] };

/** An item as the desk checks it before acting. */
export interface DeskItem {
  id: number;
  order_id: number | null;
  user_id: number;
  book_id: number;
  pay_status: number;
  print_status: number;
  express_number: string | null;
  extract: number;
}

/** Print items (the pages a reader asks to print): the lists, the reader's changes and the desk's marks. */
export class PrintItemRepository {
  constructor(private readonly db: Db) {}

  /**
   * Items as the lists show them: newest first (the reader's list), in book order (`byPage`: book,
   * volume, page, as the desk and the order page list them), or order by order in book order
   * (`byOrder`, the print file).
   */
  async list(
    filter: ItemFilter,
    order: 'newest' | 'byPage' | 'byOrder',
    page?: { offset: number; limit: number },
    tx: DbOrTx = this.db,
  ): Promise<ItemRow[]> {
    let query = tx
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
    if ('userId' in filter) {
      query = query.where('print_items.user_id', '=', filter.userId);
      if (filter.unpaidOnly) query = query.where('print_items.pay_status', '=', PAY_STATUS.unpaid);
    } else if ('orderId' in filter) query = query.where('print_items.order_id', '=', filter.orderId);
    else if ('orderNum' in filter) query = query.where('print_orders.order_num', '=', filter.orderNum);
    else query = query.where('print_items.id', 'in', filter.ids);
    if (order === 'newest') query = query.orderBy('print_items.id', 'desc');
    else {
      if (order === 'byOrder') query = query.orderBy('print_items.order_id');
      query = query
        .orderBy('print_items.book_id')
        .orderBy('volumes.sort')
        .orderBy('print_items.volume_id')
        .orderBy('pages.seq')
        .orderBy('print_items.id');
    }
    if (page) query = query.limit(page.limit).offset(page.offset);
    return query.execute();
  }

  async count(userId: number, unpaidOnly: boolean, tx: DbOrTx = this.db): Promise<number> {
    let count = tx.selectFrom('print_items').where('user_id', '=', userId);
    if (unpaidOnly) count = count.where('pay_status', '=', PAY_STATUS.unpaid);
    const { n } = await count.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(n);
  }

  async add(rows: Array<Insertable<PrintItemsTable>>): Promise<void> {
    await this.db.insertInto('print_items').values(rows).execute();
  }

  /** Some of a user's items, with their payment state and order. */
  async userItems(
    userId: number,
    ids: number[],
    tx: DbOrTx = this.db,
  ): Promise<Array<Pick<Row<'print_items'>, 'id' | 'pay_status' | 'order_id' | 'amount_fen'>>> {
    return tx
      .selectFrom('print_items')
      .select(['id', 'pay_status', 'order_id', 'amount_fen'])
      .where('id', 'in', ids)
      .where('user_id', '=', userId)
      .execute();
  }

  /** Deletes those of the items that are the user's and unpaid; the number deleted. */
  async deleteUnpaidItems(userId: number, ids: number[], tx: DbOrTx): Promise<number> {
    const deleted = await tx
      .deleteFrom('print_items')
      .where('id', 'in', ids)
      .where('user_id', '=', userId)
      .where('pay_status', '=', PAY_STATUS.unpaid)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  }

  /** Puts the unpaid ones of the items into an order; the number moved. */
  async assignItems(ids: number[], orderId: number, tx: DbOrTx): Promise<number> {
    const moved = await tx
      .updateTable('print_items')
      .set({ order_id: orderId })
      .where('id', 'in', ids)
      .where('pay_status', '=', PAY_STATUS.unpaid)
      .executeTakeFirst();
    return Number(moved.numUpdatedRows);
  }

  /** The amount and payment state of each item of an order. */
  async orderItemAmounts(
    orderId: number,
    tx: DbOrTx = this.db,
  ): Promise<Array<Pick<Row<'print_items'>, 'amount_fen' | 'pay_status'>>> {
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

  async markOrderItemsPaid(orderId: number, tx: DbOrTx): Promise<void> {
    await tx
      .updateTable('print_items')
      .set({ pay_status: PAY_STATUS.paid })
      .where('order_id', '=', orderId)
      .execute();
  }

  async hasUnpaidItems(orderId: number, tx: DbOrTx = this.db): Promise<boolean> {
    const row = await tx
      .selectFrom('print_items')
      .select('id')
      .where('order_id', '=', orderId)
      .where('pay_status', '=', PAY_STATUS.unpaid)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The items the desk selected, with their order's pickup. */
  async deskItems(ids: number[], tx: DbOrTx = this.db): Promise<DeskItem[]> {
    return tx
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
      .where('print_items.id', 'in', ids)
      .execute();
  }

  /** Cash taken for the unpaid ones of the items; the number marked. */
  async markItemsPaid(ids: number[], tx: DbOrTx): Promise<number> {
    const updated = await tx
      .updateTable('print_items')
      .set({ pay_status: PAY_STATUS.paid })
      .where('id', 'in', ids)
      .where('pay_status', '=', PAY_STATUS.unpaid)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows);
  }

  /**
   * Marks the items printed, those of them still paid (not refunded meanwhile); how many it marked. On
   * PostgreSQL a refund committed while this waited for the rows is seen, so it marks none of them.
   */
  async markItemsPrinted(ids: number[], tx: DbOrTx): Promise<number> {
    const updated = await tx
      .updateTable('print_items')
      .set({ print_status: PRINT_STATUS.printed })
      .where('id', 'in', ids)
      .where('pay_status', '=', PAY_STATUS.paid)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows);
  }

  /** The courier number for those of the items that have none; the number set. */
  async setExpress(ids: number[], expressNumber: string, tx: DbOrTx): Promise<number> {
    const updated = await tx
      .updateTable('print_items')
      .set({ express_number: expressNumber })
      .where('id', 'in', ids)
      .where('express_number', 'is', null)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows);
  }
}
