import { sql, type Selectable } from 'kysely';
import type { Role } from '@guji/shared';
import { ROLES } from '@guji/shared';
import type { Db, DbOrTx } from '../../db/database.ts';
import { nowIso } from '../../db/database.ts';
import { countedPage, likeText } from '../../db/query.ts';
import type { LoginFailuresTable, NewUser, UserRow, UserUpdate } from '../../db/schema.ts';
import type { UserWithRoles } from '../../lib/user-view.ts';

export type LoginFailureRow = Selectable<LoginFailuresTable>;

const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** Users and their roles. The only module that reads or writes the users tables. */
export class UserRepository {
  constructor(private readonly db: Db) {}

  async isEmpty(tx: DbOrTx = this.db): Promise<boolean> {
    return (await tx.selectFrom('users').select('id').limit(1).executeTakeFirst()) === undefined;
  }

  /**
   * One page of users for the console, newest first: a text found in the login name, nickname, real
   * name, phone or email, and a reader category; with their roles and the count of all.
   */
  async page(
    query: { text?: string | undefined; flag?: string | undefined; offset: number; limit: number },
    tx: DbOrTx = this.db,
  ): Promise<{ rows: UserWithRoles[]; total: number }> {
    let base = tx.selectFrom('users');
    const text = query.text;
    if (text) {
      base = base.where((eb) =>
        eb.or(
          ['login_name', 'nick_name', 'real_name', 'phone', 'email'].map((column) => likeText(column, text)),
        ),
      );
    }
    if (query.flag) base = base.where('reader_flag', '=', query.flag);
    const { rows, total } = await countedPage(base, (list) => list.selectAll().orderBy('id', 'desc'), query);
    const roles =
      rows.length === 0
        ? []
        : await tx
            .selectFrom('user_roles')
            .selectAll()
            .where(
              'user_id',
              'in',
              rows.map((r) => r.id),
            )
            .execute();
    return {
      rows: rows.map((row) => ({
        ...row,
        roles: roles
          .filter((r) => r.user_id === row.id)
          .map((r) => r.role)
          .filter(isRole),
      })),
      total,
    };
  }

  /** The name each user is shown by (nickname, else login name), by id. */
  async displayNames(ids: number[], tx: DbOrTx = this.db): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await tx
      .selectFrom('users')
      .select(['id', 'login_name', 'nick_name'])
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((u) => [u.id, u.nick_name || u.login_name]));
  }

  async findById(id: number, tx: DbOrTx = this.db): Promise<UserWithRoles | undefined> {
    const row = await tx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.withRoles(row, tx) : undefined;
  }

  async findByLoginName(loginName: string, tx: DbOrTx = this.db): Promise<UserWithRoles | undefined> {
    const row = await tx
      .selectFrom('users')
      .selectAll()
      .where('login_name', '=', loginName)
      .executeTakeFirst();
    return row ? this.withRoles(row, tx) : undefined;
  }

  async findByPhone(phone: string, tx: DbOrTx = this.db): Promise<UserWithRoles | undefined> {
    const row = await tx.selectFrom('users').selectAll().where('phone', '=', phone).executeTakeFirst();
    return row ? this.withRoles(row, tx) : undefined;
  }

  /** Creates a user with roles (registered at `at`); returns the new id. */
  async create(
    user: Omit<NewUser, 'created_at' | 'updated_at'>,
    roles: Role[],
    tx: DbOrTx,
    at: Date = new Date(),
  ): Promise<number> {
    const now = nowIso(at);
    const inserted = await tx
      .insertInto('users')
      .values({ ...user, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (roles.length > 0) {
      await tx
        .insertInto('user_roles')
        .values(roles.map((role) => ({ user_id: inserted.id, role })))
        .execute();
    }
    return inserted.id;
  }

  async update(id: number, changes: UserUpdate, tx: DbOrTx): Promise<void> {
    await tx
      .updateTable('users')
      .set({ ...changes, updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
  }

  async setRoles(id: number, roles: Role[], tx: DbOrTx): Promise<void> {
    await tx.deleteFrom('user_roles').where('user_id', '=', id).execute();
    if (roles.length > 0) {
      await tx
        .insertInto('user_roles')
        .values(roles.map((role) => ({ user_id: id, role })))
        .execute();
    }
  }

  /**
   * Counts a failed login for a login name from a client (`clientKey` '*': from any client) and
   * returns the failures in the current window; a window older than `windowStart` starts afresh.
   */
  async recordLoginFailure(
    loginKey: string,
    clientKey: string,
    now: string,
    windowStart: string,
  ): Promise<number> {
    const stale = sql<boolean>`login_failures.window_started_at < ${windowStart}`;
    const row = await this.db
      .insertInto('login_failures')
      .values({ login_key: loginKey, client_key: clientKey, failures: 1, window_started_at: now })
      .onConflict((oc) =>
        oc.columns(['login_key', 'client_key']).doUpdateSet({
          failures: sql<number>`case when ${stale} then 1 else login_failures.failures + 1 end`,
          window_started_at: sql<string>`case when ${stale} then ${now} else login_failures.window_started_at end`,
        }),
      )
      .returning('failures')
      .executeTakeFirstOrThrow();
    return Number(row.failures);
  }

  /** Locks a login name for one client until the given time and starts its count afresh. */
  async lockLogin(loginKey: string, clientKey: string, until: string, now: string): Promise<void> {
    await this.db
      .updateTable('login_failures')
      .set({ failures: 0, window_started_at: now, locked_until: until })
      .where('login_key', '=', loginKey)
      .where('client_key', '=', clientKey)
      .execute();
  }

  /** The failure counts of a login name: from one client, and from every client ('*'). */
  async loginFailures(
    loginKey: string,
    clientKey: string,
    tx: DbOrTx = this.db,
  ): Promise<{ client?: LoginFailureRow; all?: LoginFailureRow }> {
    const rows = await tx
      .selectFrom('login_failures')
      .selectAll()
      .where('login_key', '=', loginKey)
      .where('client_key', 'in', [clientKey, '*'])
      .execute();
    const client = rows.find((r) => r.client_key === clientKey && clientKey !== '*');
    const all = rows.find((r) => r.client_key === '*');
    return { ...(client ? { client } : {}), ...(all ? { all } : {}) };
  }

  /** Forgets a login name's failures from one client (a successful login), or from all of them. */
  async clearLoginFailures(loginKey: string, clientKey: string | undefined, tx: DbOrTx): Promise<void> {
    let query = tx.deleteFrom('login_failures').where('login_key', '=', loginKey);
    if (clientKey !== undefined) query = query.where('client_key', '=', clientKey);
    await query.execute();
  }

  /** Drops counts whose window started before `before` and that hold no lock still running at `now`. */
  async purgeLoginFailures(before: string, now: string): Promise<void> {
    await this.db
      .deleteFrom('login_failures')
      .where('window_started_at', '<', before)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .execute();
  }

  private async withRoles(row: UserRow, tx: DbOrTx): Promise<UserWithRoles> {
    const roles = await tx.selectFrom('user_roles').select('role').where('user_id', '=', row.id).execute();
    return { ...row, roles: roles.map((r) => r.role).filter(isRole) };
  }
}
