import type { DbOrTx } from '../../db/database.ts';
import type { SessionRepository } from './session.repository.ts';
import type { UserRepository } from './user.repository.ts';
import type { UserWithRoles } from '../../lib/user-view.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';

/** Opaque session tokens: the cookie holds the token, the database only its hash (DESIGN.md §8). */
export class SessionService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly users: UserRepository,
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {}

  async create(
    userId: number,
    ip: string | null,
    userAgent: string | null,
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = randomToken();
    const expiresAt = new Date(this.clock.now().getTime() + this.ttlMs);
    await this.sessions.create({
      tokenHash: sha256(token),
      userId,
      expiresAt: expiresAt.toISOString(),
      ip,
      userAgent: userAgent?.slice(0, 300) ?? null,
    });
    return { token, expiresAt };
  }

  /** The user of a live session, or undefined for an unknown, revoked or expired token. */
  async resolve(token: string): Promise<UserWithRoles | undefined> {
    const now = this.clock.now().toISOString();
    const session = await this.sessions.findActive(sha256(token), now);
    if (!session) return undefined;
    const user = await this.users.findById(session.user_id);
    if (!user || user.disabled) return undefined;
    // Record activity at most once a minute per session.
    if (Date.parse(now) - Date.parse(session.last_seen_at) > 60_000)
      await this.sessions.touch(session.id, now);
    return user;
  }

  revoke(token: string): Promise<void> {
    return this.sessions.revoke(sha256(token));
  }

  /** Ends every session of a user, inside the change that calls for it (a new password, a disabled account). */
  revokeAll(userId: number, tx: DbOrTx): Promise<number> {
    return this.sessions.revokeAllForUser(userId, tx);
  }
}
