import type { Db, DbOrTx } from '../../db/database.ts';
import type { ApiTokensTable } from '../../db/schema.ts';
import type { Selectable } from 'kysely';

export type ApiTokenRow = Selectable<ApiTokensTable>;

/** Personal API tokens (api_tokens). Every query of a user's list is scoped by that user's id. */
export class ApiTokenRepository {
  constructor(private readonly db: Db) {}

  /** A user's tokens, newest first. */
  listForUser(userId: number, tx: DbOrTx = this.db): Promise<ApiTokenRow[]> {
    return tx
      .selectFrom('api_tokens')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute();
  }

  /**
   * Takes the user's row lock for the rest of the transaction (an update that changes nothing), so two
   * creations for one user are counted one after the other on PostgreSQL too.
   */
  async lockUser(userId: number, tx: DbOrTx): Promise<void> {
    await tx
      .updateTable('users')
      .set((eb) => ({ failed_logins: eb.ref('failed_logins') }))
      .where('id', '=', userId)
      .execute();
  }

  async countForUser(userId: number, tx: DbOrTx = this.db): Promise<number> {
    const row = await tx
      .selectFrom('api_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async insert(
    token: { userId: number; name: string; prefix: string; hash: string; createdAt: string },
    tx: DbOrTx,
  ): Promise<ApiTokenRow> {
    return tx
      .insertInto('api_tokens')
      .values({
        user_id: token.userId,
        name: token.name,
        token_prefix: token.prefix,
        token_hash: token.hash,
        created_at: token.createdAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** The token whose secret hashes to `hash`, if it exists (a revoked token's row is gone). */
  findByHash(hash: string, tx: DbOrTx = this.db): Promise<ApiTokenRow | undefined> {
    return tx.selectFrom('api_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  }

  /** Deletes one of the user's tokens; false when the user has no token of that id. */
  async delete(userId: number, tokenId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('api_tokens')
      .where('id', '=', tokenId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Records use: written only when the last record is older than `staleBefore` (one write a minute). */
  async touch(tokenId: number, now: string, staleBefore: string): Promise<void> {
    await this.db
      .updateTable('api_tokens')
      .set({ last_used_at: now })
      .where('id', '=', tokenId)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
      .execute();
  }
}
