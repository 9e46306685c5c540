import type { Db, DbOrTx } from '../../db/database.ts';
import { nowIso } from '../../db/database.ts';
import type { SessionRow } from '../../db/schema.ts';

/** Login sessions, stored by the hash of their token. */
export class SessionRepository {
  constructor(private readonly db: Db) {}

  async create(session: {
    tokenHash: string;
    userId: number;
    expiresAt: string;
    ip: string | null;
    userAgent: string | null;
  }): Promise<void> {
    const now = nowIso();
    await this.db
      .insertInto('sessions')
      .values({
        token_hash: session.tokenHash,
        user_id: session.userId,
        created_at: now,
        last_seen_at: now,
        expires_at: session.expiresAt,
        ip: session.ip,
        user_agent: session.userAgent,
      })
      .execute();
  }

  /** The live session with this token hash: not revoked and not expired. */
  async findActive(tokenHash: string, now: string, tx: DbOrTx = this.db): Promise<SessionRow | undefined> {
    return tx
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async touch(id: number, now: string): Promise<void> {
    await this.db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
  }

  async revoke(tokenHash: string): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: nowIso() })
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async revokeAllForUser(userId: number, tx: DbOrTx): Promise<number> {
    const result = await tx
      .updateTable('sessions')
      .set({ revoked_at: nowIso() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Removes sessions that ended more than a day ago. */
  async purgeExpired(now: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<', now).execute();
  }
}
