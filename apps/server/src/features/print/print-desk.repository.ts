import type { Role } from '@guji/shared';
import type { Db, DbOrTx } from '../../db/database.ts';

/** The print desk's log of what was done to an order, its notices to print administrators, and the roles it checks. */
export class PrintDeskRepository {
  constructor(private readonly db: Db) {}

  /** A reader's roles, for the access check the desk makes on their behalf. */
  async userRoles(userId: number, tx: DbOrTx = this.db): Promise<Role[]> {
    const rows = await tx.selectFrom('user_roles').select('role').where('user_id', '=', userId).execute();
    return rows.map((row) => row.role as Role);
  }

  async log(
    entry: {
      orderId: number | null;
      action: string;
      itemIds: number[];
      detail: string | null;
      actorId: number | null;
      at: string;
    },
    tx: DbOrTx,
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

  /** The order numbers a print file was made for (the log's `printed` entries name their file). */
  async ordersOfFile(file: string, tx: DbOrTx = this.db): Promise<string[]> {
    const rows = await tx
      .selectFrom('print_log')
      .innerJoin('print_orders', 'print_orders.id', 'print_log.order_id')
      .select('print_orders.order_num')
      .distinct()
      .where('print_log.action', '=', 'printed')
      .where('print_log.detail', '=', file)
      .orderBy('print_orders.order_num')
      .execute();
    return rows.map((row) => row.order_num);
  }

  // Notifications to print administrators

  async notify(entry: { text: string; link: string; at: string }): Promise<void> {
    await this.db
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
