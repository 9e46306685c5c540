import type { Db } from '../../db/database.ts';

/** Nonces of single-sign-on links already used; a nonce works once. */
export class SsoNonceRepository {
  constructor(private readonly db: Db) {}

  /** Records the nonce; false when it was used before. */
  async use(nonce: string, now: string): Promise<boolean> {
    const inserted = await this.db
      .insertInto('sso_nonces')
      .values({ nonce, used_at: now })
      .onConflict((oc) => oc.column('nonce').doNothing())
      .returning('nonce')
      .executeTakeFirst();
    return inserted !== undefined;
  }
}
