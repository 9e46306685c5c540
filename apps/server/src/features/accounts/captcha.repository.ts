import type { Db, DbOrTx } from '../../db/database.ts';

/** Image captchas: answer hashes, single use. */
export class CaptchaRepository {
  constructor(private readonly db: Db) {}

  async create(
    row: { id: string; answerHash: string; createdAt: string; expiresAt: string },
    tx: DbOrTx = this.db,
  ) {
    await tx
      .insertInto('captchas')
      .values({
        id: row.id,
        answer_hash: row.answerHash,
        created_at: row.createdAt,
        expires_at: row.expiresAt,
      })
      .execute();
  }

  /**
   * Marks the captcha used and returns its answer hash, or undefined when it does not exist, was
   * already used or has expired. The update is one statement, so two requests cannot both use it.
   */
  async consume(id: string, now: string, tx: DbOrTx = this.db): Promise<string | undefined> {
    const row = await tx
      .updateTable('captchas')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('answer_hash')
      .executeTakeFirst();
    return row?.answer_hash;
  }

  async purgeExpired(now: string, tx: DbOrTx = this.db): Promise<void> {
    await tx.deleteFrom('captchas').where('expires_at', '<', now).execute();
  }
}
