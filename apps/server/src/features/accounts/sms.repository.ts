import type { Db, DbOrTx } from '../../db/database.ts';
import { nowIso } from '../../db/database.ts';
import type { Row } from '../../db/schema.ts';

export type SmsCodeRow = Omit<Row<'sms_codes'>, 'ip'>;

/** SMS verification codes (hashed) and the development outbox. */
export class SmsRepository {
  constructor(private readonly db: Db) {}

  async createCode(row: {
    phone: string;
    purpose: string;
    codeHash: string;
    ip: string | null;
    createdAt: string;
    expiresAt: string;
  }): Promise<number> {
    // A new code replaces any earlier live one for the same phone and purpose.
    await this.db
      .updateTable('sms_codes')
      .set({ consumed_at: row.createdAt })
      .where('phone', '=', row.phone)
      .where('purpose', '=', row.purpose)
      .where('consumed_at', 'is', null)
      .execute();
    const inserted = await this.db
      .insertInto('sms_codes')
      .values({
        phone: row.phone,
        purpose: row.purpose,
        code_hash: row.codeHash,
        ip: row.ip,
        created_at: row.createdAt,
        expires_at: row.expiresAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(inserted.id);
  }

  /** Removes a code that could not be sent, so it neither starts the countdown nor counts against limits. */
  async deleteCode(id: number): Promise<void> {
    await this.db.deleteFrom('sms_codes').where('id', '=', id).execute();
  }

  /** The newest unconsumed code for a phone and purpose. */
  async findLive(phone: string, purpose: string, tx: DbOrTx = this.db): Promise<SmsCodeRow | undefined> {
    return tx
      .selectFrom('sms_codes')
      .selectAll()
      .where('phone', '=', phone)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async countSince(
    filter: { phone?: string; ip?: string },
    since: string,
    tx: DbOrTx = this.db,
  ): Promise<number> {
    let query = tx
      .selectFrom('sms_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('created_at', '>', since);
    if (filter.phone) query = query.where('phone', '=', filter.phone);
    if (filter.ip) query = query.where('ip', '=', filter.ip);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async latestCreatedAt(phone: string, purpose: string, tx: DbOrTx = this.db): Promise<string | undefined> {
    const row = await tx
      .selectFrom('sms_codes')
      .select('created_at')
      .where('phone', '=', phone)
      .where('purpose', '=', purpose)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.created_at;
  }

  async incrementAttempts(id: number): Promise<void> {
    await this.db
      .updateTable('sms_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  async markVerified(id: number, now: string): Promise<void> {
    await this.db.updateTable('sms_codes').set({ verified_at: now }).where('id', '=', id).execute();
  }

  /** Consumes the code once; false when another request consumed it first. */
  async consume(id: number, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('sms_codes')
      .set({ consumed_at: now })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async addToOutbox(phone: string, text: string): Promise<void> {
    await this.db.insertInto('sms_outbox').values({ phone, text, created_at: nowIso() }).execute();
  }

  async listOutbox(phone: string | undefined, limit: number, tx: DbOrTx = this.db) {
    let query = tx.selectFrom('sms_outbox').selectAll().orderBy('id', 'desc').limit(limit);
    if (phone) query = query.where('phone', '=', phone);
    return query.execute();
  }
}
