import type { Db } from '../../db/database.ts';

/** Image captchas: answer hashes, single use. */
export class CaptchaRepository {
  constructor(private readonly db: Db) {}

  async create(row: { id: string; answerHash: string; createdAt: string; expiresAt: string }) {
    await this.db
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
  async consume(id: string, now: string): Promise<string | undefined> {
    const row = await this.db
      .updateTable('captchas')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('answer_hash')
      .executeTakeFirst();
    return row?.answer_hash;
  }

  async purgeExpired(now: string): Promise<void> {
    await this.db.deleteFrom('captchas').where('expires_at', '<', now).execute();
  }
}
