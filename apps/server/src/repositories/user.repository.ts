import type { Role } from '@guji/shared';
import { ROLES } from '@guji/shared';
import type { Db, DbOrTx } from '../db/database.ts';
import { nowIso } from '../db/database.ts';
import type { NewUser, UserRow, UserUpdate } from '../db/schema.ts';

export interface UserWithRoles extends UserRow {
  roles: Role[];
}

const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** Users and their roles. The only module that reads or writes the users tables. */
export class UserRepository {
  constructor(private readonly db: Db) {}

  async isEmpty(tx: DbOrTx = this.db): Promise<boolean> {
    return (await tx.selectFrom('users').select('id').limit(1).executeTakeFirst()) === undefined;
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
    tx: DbOrTx = this.db,
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

  async update(id: number, changes: UserUpdate, tx: DbOrTx = this.db): Promise<void> {
    await tx
      .updateTable('users')
      .set({ ...changes, updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
  }

  async setRoles(id: number, roles: Role[], tx: DbOrTx = this.db): Promise<void> {
    await tx.deleteFrom('user_roles').where('user_id', '=', id).execute();
    if (roles.length > 0) {
      await tx
        .insertInto('user_roles')
        .values(roles.map((role) => ({ user_id: id, role })))
        .execute();
    }
  }

  /** Counts a failed login. */
  async recordFailedLogin(id: number, tx: DbOrTx = this.db): Promise<void> {
    await tx
      .updateTable('users')
      .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  /** Locks the account until the given time and starts the failure count afresh. */
  async lock(id: number, until: string, tx: DbOrTx = this.db): Promise<void> {
    await tx
      .updateTable('users')
      .set({ failed_logins: 0, locked_until: until })
      .where('id', '=', id)
      .execute();
  }

  async resetFailedLogins(id: number, tx: DbOrTx = this.db): Promise<void> {
    await tx
      .updateTable('users')
      .set({ failed_logins: 0, locked_until: null })
      .where('id', '=', id)
      .execute();
  }

  private async withRoles(row: UserRow, tx: DbOrTx): Promise<UserWithRoles> {
    const roles = await tx.selectFrom('user_roles').select('role').where('user_id', '=', row.id).execute();
    return { ...row, roles: roles.map((r) => r.role).filter(isRole) };
  }
}
