import type { Db, DbOrTx } from '../../db/database.ts';
import type { Row } from '../../db/schema.ts';

export type TerminalRow = Omit<Row<'reading_room_terminals'>, 'token_hash' | 'created_by'>;

const COLUMNS = ['id', 'name', 'created_at', 'last_seen_at', 'revoked_at'] as const;

/** Reading-room terminals: only each token's hash is kept. */
export class TerminalRepository {
  constructor(private readonly db: Db) {}

  async create(
    entry: { name: string; tokenHash: string; createdBy: number | null; createdAt: string },
    tx: DbOrTx,
  ): Promise<TerminalRow> {
    return tx
      .insertInto('reading_room_terminals')
      .values({
        name: entry.name,
        token_hash: entry.tokenHash,
        created_by: entry.createdBy,
        created_at: entry.createdAt,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
  }

  /** Newest first. */
  async list(tx: DbOrTx = this.db): Promise<TerminalRow[]> {
    return tx.selectFrom('reading_room_terminals').select(COLUMNS).orderBy('id', 'desc').execute();
  }

  /** Revokes a terminal (a second revocation keeps the first time); undefined when there is none. */
  async revoke(id: number, now: string, tx: DbOrTx): Promise<TerminalRow | undefined> {
    return tx
      .updateTable('reading_room_terminals')
      .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)) }))
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirst();
  }

  async findByTokenHash(
    hash: string,
    tx: DbOrTx = this.db,
  ): Promise<{ id: number; revoked_at: string | null } | undefined> {
    return tx
      .selectFrom('reading_room_terminals')
      .select(['id', 'revoked_at'])
      .where('token_hash', '=', hash)
      .executeTakeFirst();
  }

  async findById(
    id: number,
    tx: DbOrTx = this.db,
  ): Promise<{ id: number; token_hash: string; revoked_at: string | null } | undefined> {
    return tx
      .selectFrom('reading_room_terminals')
      .select(['id', 'token_hash', 'revoked_at'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async touch(id: number, now: string): Promise<void> {
    await this.db
      .updateTable('reading_room_terminals')
      .set({ last_seen_at: now })
      .where('id', '=', id)
      .execute();
  }
}
