import type { Insertable, Selectable } from 'kysely';
import type { Role } from '@guji/shared';
import type { Db, DbOrTx } from '../../db/database.ts';
import { likeText } from '../../db/query.ts';
import type { PrintItemsTable, PrintOrdersTable } from '../../db/schema.ts';

/** A print item with its book, page, volume, order and reader, as the lists show it. */
export interface ItemRow {
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
}

export type OrderRow = Selectable<PrintOrdersTable>;

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

/**
 * Print prices, orders, their items and the desk's log: the queries that keep one live trade per order
 * and re-check a reader's access before money is taken (trades and notices: payment.repository.ts).
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

  /** A reader's roles, for the access check the desk makes on their behalf. */
  async userRoles(userId: number, tx: DbOrTx = this.db): Promise<Role[]> {
    const rows = await tx.selectFrom('user_roles').select('role').where('user_id', '=', userId).execute();
    return rows.map((row) => row.role as Role);
  }

  // Prices

  async prices(tx: DbOrTx = this.db) {
    return tx.selectFrom('print_prices').selectAll().orderBy('sort').execute();
  }

  async replacePrices(
    prices: Array<{ paperSize: string; label: string; priceFen: number }>,
    tx: DbOrTx = this.db,
  ): Promise<void> {
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
  }

  // Items

  /** Items as the lists show them; newest first, or in order and id order (`byOrder`), or by id. */
  async items(
    filter: ItemFilter,
    order: 'newest' | 'byId' | 'byOrder',
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
      if (filter.unpaidOnly) query = query.where('print_items.pay_status', '=', 0);
    } else if ('orderId' in filter) query = query.where('print_items.order_id', '=', filter.orderId);
    else if ('orderNum' in filter) query = query.where('print_orders.order_num', '=', filter.orderNum);
    else query = query.where('print_items.id', 'in', filter.ids);
    if (order === 'newest') query = query.orderBy('print_items.id', 'desc');
    else if (order === 'byOrder') query = query.orderBy('print_items.order_id').orderBy('print_items.id');
    else query = query.orderBy('print_items.id');
    if (page) query = query.limit(page.limit).offset(page.offset);
    return query.execute();
  }

  async countItems(userId: number, unpaidOnly: boolean, tx: DbOrTx = this.db): Promise<number> {
    let count = tx.selectFrom('print_items').where('user_id', '=', userId);
    if (unpaidOnly) count = count.where('pay_status', '=', 0);
    const { n } = await count.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(n);
  }

  async addItems(rows: Array<Insertable<PrintItemsTable>>, tx: DbOrTx = this.db): Promise<void> {
    await tx.insertInto('print_items').values(rows).execute();
  }

  /** Some of a user's items, with their payment state and order. */
  async userItems(
    userId: number,
    ids: number[],
    tx: DbOrTx = this.db,
  ): Promise<Array<{ id: number; pay_status: number; order_id: number | null; amount_fen: number }>> {
    return tx
      .selectFrom('print_items')
      .select(['id', 'pay_status', 'order_id', 'amount_fen'])
      .where('id', 'in', ids)
      .where('user_id', '=', userId)
      .execute();
  }

  /** Deletes those of the items that are the user's and unpaid; the number deleted. */
  async deleteUnpaidItems(userId: number, ids: number[], tx: DbOrTx = this.db): Promise<number> {
    const deleted = await tx
      .deleteFrom('print_items')
      .where('id', 'in', ids)
      .where('user_id', '=', userId)
      .where('pay_status', '=', 0)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  }

  /** Puts the unpaid ones of the items into an order; the number moved. */
  async assignItems(ids: number[], orderId: number, tx: DbOrTx = this.db): Promise<number> {
    const moved = await tx
      .updateTable('print_items')
      .set({ order_id: orderId })
      .where('id', 'in', ids)
      .where('pay_status', '=', 0)
      .executeTakeFirst();
    return Number(moved.numUpdatedRows);
  }

  // Orders

  /** Unpaid orders of the user left without items go. */
  async dropEmptyOrders(userId: number, tx: DbOrTx = this.db): Promise<void> {
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

  async createOrder(order: Insertable<PrintOrdersTable>, tx: DbOrTx = this.db): Promise<number> {
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
  async markOrderPaid(orderId: number, now: string, tx: DbOrTx = this.db): Promise<boolean> {
    const result = await tx
      .updateTable('print_orders')
      .set({ pay_status: 1, paid_at: now, updated_at: now })
      .where('id', '=', orderId)
      .where('pay_status', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async markOrderItemsPaid(orderId: number, tx: DbOrTx = this.db): Promise<void> {
    await tx.updateTable('print_items').set({ pay_status: 1 }).where('order_id', '=', orderId).execute();
  }

  async hasUnpaidItems(orderId: number, tx: DbOrTx = this.db): Promise<boolean> {
    const row = await tx
      .selectFrom('print_items')
      .select('id')
      .where('order_id', '=', orderId)
      .where('pay_status', '=', 0)
      .executeTakeFirst();
    return row !== undefined;
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

  // The print desk

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
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
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
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    return { rows, total: Number(n) };
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
  async markItemsPaid(ids: number[], tx: DbOrTx = this.db): Promise<number> {
    const updated = await tx
      .updateTable('print_items')
      .set({ pay_status: 1 })
      .where('id', 'in', ids)
      .where('pay_status', '=', 0)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows);
  }

  async markItemsPrinted(ids: number[], tx: DbOrTx = this.db): Promise<void> {
    await tx.updateTable('print_items').set({ print_status: 1 }).where('id', 'in', ids).execute();
  }

  /** The courier number for those of the items that have none; the number set. */
  async setExpress(ids: number[], expressNumber: string, tx: DbOrTx = this.db): Promise<number> {
    const updated = await tx
      .updateTable('print_items')
      .set({ express_number: expressNumber })
      .where('id', 'in', ids)
      .where('express_number', 'is', null)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows);
  }

  // The log

  async log(
    entry: {
      orderId: number | null;
      action: string;
      itemIds: number[];
      detail: string | null;
      actorId: number | null;
      at: string;
    },
    tx: DbOrTx = this.db,
  ): Promise<void> {
    await tx
      .insertInto('print_log')
      .values({
        order_id: entry.orderId,
        action: entry.action,
        item_ids: JSON.stringify(entry.itemIds),
        detail: entry.detail,
        actor_id: entry.actorId,
        created_at: entry.at,
      })
      .execute();
  }

  /** The desk's log of an order: who did what, when. */
  async orderLog(orderNum: string, tx: DbOrTx = this.db) {
    return tx
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

  // Notifications to print administrators

  async notify(entry: { text: string; link: string; at: string }, tx: DbOrTx = this.db): Promise<void> {
    await tx
      .insertInto('notifications')
      .values({ audience: 'printAdmin', text: entry.text, link: entry.link, created_at: entry.at })
      .execute();
  }

  async notifications(limit: number, tx: DbOrTx = this.db) {
    return tx
      .selectFrom('notifications')
      .selectAll()
      .where('audience', '=', 'printAdmin')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}
