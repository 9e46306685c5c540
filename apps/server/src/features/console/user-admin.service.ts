import { randomInt } from 'node:crypto';
import type { Role } from '@guji/shared';
import type { DbOrTx } from '../../db/database.ts';
import type { Transact } from '../../db/query.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { endOfLocalDay, localDay, startOfLocalDay } from '../../lib/local-day.ts';
import type { SessionRepository } from '../accounts/session.repository.ts';
import type { UserRepository } from '../accounts/user.repository.ts';
import type { UserWithRoles } from '../../lib/user-view.ts';
import type { Auditor } from '../../audit/auditor.ts';

/** A temporary password: letters, digits and a sign, so it meets the password rule. */
function temporaryPassword(): string {
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz';
  const pick = (set: string, n: number) =>
    Array.from({ length: n }, () => set[randomInt(set.length)]).join('');
  return `${pick(letters, 6)}${pick('23456789', 4)}#${pick(letters, 1)}`;
}

/** What UserAdminService is built from (wiring/). */
export interface UserAdminDeps {
  users: UserRepository;
  sessions: SessionRepository;
  auditor: Auditor;
  transact: Transact;
  clock: Clock;
  /** The library's time zone (site settings), in which a research reader's last day ends. */
  timeZone: () => Promise<string>;
}

/**
 * The console's changes to user accounts: roles, reader category, disabling, a new temporary password.
 * Each change is one transaction with its audit record, so the record stands or falls with it.
 */
export class UserAdminService {
  private readonly users: UserRepository;
  private readonly sessions: SessionRepository;
  private readonly auditor: Auditor;
  private readonly transact: Transact;
  private readonly clock: Clock;
  /** The library's time zone (site settings), in which a research reader's last day ends. */
  private readonly timeZone: () => Promise<string>;

  constructor(deps: UserAdminDeps) {
    this.users = deps.users;
    this.sessions = deps.sessions;
    this.auditor = deps.auditor;
    this.transact = deps.transact;
    this.clock = deps.clock;
    this.timeZone = deps.timeZone;
  }

  /** An administrator cannot take the administrator role from themselves. */
  async setRoles(actorId: number, userId: number, requested: readonly Role[]): Promise<void> {
    const roles = [...new Set(requested)];
    await this.transact(async (tx) => {
      const user = await this.target(userId, tx);
      if (user.id === actorId && !roles.includes('admin'))
        throw badRequest('SELF_ADMIN', '不能取消自己的管理员角色');
      await this.users.setRoles(user.id, roles, tx);
      await this.auditor.record(actorId, 'user.roles', `user:${user.login_name}`, user.roles, roles, tx);
    });
  }

  /**
   * The reader category: '1' ordinary, '2' research reader, until the end of an optional last day (in
   * the library's time zone; not before today).
   */
  async setCategory(
    actorId: number,
    userId: number,
    category: { flag: '1' | '2'; lastDay: string | null },
  ): Promise<void> {
    const { flag, lastDay } = category;
    const until = flag === '2' && lastDay !== null ? lastDay : null;
    // Read before the transaction: the settings are not read inside it.
    const timeZone = until === null ? undefined : await this.timeZone();
    await this.transact(async (tx) => {
      const user = await this.target(userId, tx);
      let expires: string | null = null;
      if (until !== null && timeZone !== undefined) {
        if (until < localDay(this.clock.now(), timeZone))
          throw badRequest('FLAG_PAST', '截止日期不能早于今天');
        expires = endOfLocalDay(startOfLocalDay(until, timeZone), timeZone).toISOString();
      }
      await this.users.update(user.id, { reader_flag: flag, flag_expires_at: expires }, tx);
      await this.auditor.record(
        actorId,
        'user.category',
        `user:${user.login_name}`,
        { flag: user.reader_flag, expiresAt: user.flag_expires_at },
        { flag, expiresAt: expires },
        tx,
      );
    });
  }

  /** Disables (every session of the user ends) or enables a user; never oneself. */
  async setDisabled(actorId: number, userId: number, disabled: boolean): Promise<void> {
    await this.transact(async (tx) => {
      const user = await this.target(userId, tx);
      if (user.id === actorId) throw badRequest('SELF_DISABLE', '不能停用自己的账号');
      await this.users.update(user.id, { disabled: disabled ? 1 : 0 }, tx);
      if (disabled) await this.sessions.revokeAllForUser(user.id, tx);
      await this.auditor.record(
        actorId,
        disabled ? 'user.disable' : 'user.enable',
        `user:${user.login_name}`,
        { disabled: user.disabled === 1 },
        { disabled },
        tx,
      );
    });
  }

  /**
   * A new temporary password, returned once: the lock and failed logins are cleared and every session
   * of the user ends; the user changes the password after logging in.
   */
  async resetPassword(actorId: number, userId: number): Promise<string> {
    // A missing user is refused before the (slow) hashing; the transaction reads the user again.
    await this.target(userId);
    const password = temporaryPassword();
    const passwordHash = await hashPassword(password);
    await this.transact(async (tx) => {
      const user = await this.target(userId, tx);
      await this.users.update(
        user.id,
        { password_hash: passwordHash, failed_logins: 0, locked_until: null },
        tx,
      );
      await this.users.clearLoginFailures(user.login_name, undefined, tx);
      await this.sessions.revokeAllForUser(user.id, tx);
      await this.auditor.record(actorId, 'user.reset-password', `user:${user.login_name}`, null, null, tx);
    });
    return password;
  }

  private async target(id: number, tx?: DbOrTx): Promise<UserWithRoles> {
    const user = await this.users.findById(id, tx);
    if (!user) throw notFound('用户不存在', 'NOT_FOUND');
    return user;
  }
}
