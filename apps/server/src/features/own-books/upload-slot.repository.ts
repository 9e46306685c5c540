import type { Db, DbOrTx } from '../../db/database.ts';

/** Each user's upload slots, shared by every process (upload-gate.ts). */
export class UploadSlotRepository {
  constructor(private readonly db: Db) {}

  /**
   * Takes slot `slot` of the user for `holder` until `expiresAt` when it is free or its lease ended before
   * `nowMs`; true when taken. One statement on the slot's primary key, so two processes racing for the same
   * slot cannot both win.
   */
  async claim(
    userId: number,
    slot: number,
    holder: string,
    nowMs: number,
    expiresAt: number,
  ): Promise<boolean> {
    const row = await this.db
      .insertInto('upload_slots')
      .values({ user_id: userId, slot, holder, expires_at: expiresAt })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'slot'])
          .doUpdateSet((eb) => ({
            holder: eb.ref('excluded.holder'),
            expires_at: eb.ref('excluded.expires_at'),
          }))
          .where('upload_slots.expires_at', '<=', nowMs),
      )
      .returning('holder')
      .executeTakeFirst();
    return row?.holder === holder;
  }

  /** Moves the end of the holder's lease; false when the slot is no longer its own. */
  async renew(userId: number, slot: number, holder: string, expiresAt: number): Promise<boolean> {
    const result = await this.db
      .updateTable('upload_slots')
      .set({ expires_at: expiresAt })
      .where('user_id', '=', userId)
      .where('slot', '=', slot)
      .where('holder', '=', holder)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Gives the slot back, if the holder still has it. */
  async release(userId: number, slot: number, holder: string): Promise<void> {
    await this.db
      .deleteFrom('upload_slots')
      .where('user_id', '=', userId)
      .where('slot', '=', slot)
      .where('holder', '=', holder)
      .execute();
  }

  /** Slots of the user whose lease runs past `nowMs`. */
  async held(userId: number, nowMs: number, tx: DbOrTx = this.db): Promise<number> {
    const row = await tx
      .selectFrom('upload_slots')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('expires_at', '>', nowMs)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Forgets leases that ended before `nowMs` (the purge job). */
  async purgeExpired(nowMs: number): Promise<void> {
    await this.db.deleteFrom('upload_slots').where('expires_at', '<=', nowMs).execute();
  }
}
