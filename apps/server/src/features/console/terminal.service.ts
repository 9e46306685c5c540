import type { CreatedTerminal, Terminal } from '@guji/shared';
import type { Db } from '../../db/database.ts';
import { nowIso } from '../../db/database.ts';
import { notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';

/** The cookie a reading-room terminal holds. */
export const TERMINAL_COOKIE = 'guji_terminal';

const toTerminal = (row: {
  id: number;
  name: string;
  created_at: string;
  last_seen_at: string | null;
  revoked_at: string | null;
}): Terminal => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  revokedAt: row.revoked_at,
});

/**
 * Reading-room terminals (DESIGN.md §7): tokens an administrator issues to machines in the reading room
 * that the address ranges do not cover (a laptop on the library's Wi-Fi, a terminal behind a shared
 * NAT). Only the token's hash is kept; a revoked token stops working at once.
 */
export class TerminalService {
  /** Recent answers, so a page's many requests do not each ask the database. */
  private readonly recent = new Map<string, { ok: boolean; until: number }>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async create(name: string, createdBy: number | null): Promise<CreatedTerminal> {
    const token = randomToken();
    const now = nowIso(this.clock.now());
    const row = await this.db
      .insertInto('reading_room_terminals')
      .values({ name, token_hash: sha256(token), created_by: createdBy, created_at: now })
      .returning(['id', 'name', 'created_at', 'last_seen_at', 'revoked_at'])
      .executeTakeFirstOrThrow();
    return { ...toTerminal(row), token, activationPath: `/api/reading-room/activate?token=${token}` };
  }

  async list(): Promise<Terminal[]> {
    const rows = await this.db
      .selectFrom('reading_room_terminals')
      .select(['id', 'name', 'created_at', 'last_seen_at', 'revoked_at'])
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toTerminal);
  }

  async revoke(id: number): Promise<Terminal> {
    const now = nowIso(this.clock.now());
    const row = await this.db
      .updateTable('reading_room_terminals')
      .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)) }))
      .where('id', '=', id)
      .returning(['id', 'name', 'created_at', 'last_seen_at', 'revoked_at'])
      .executeTakeFirst();
    if (!row) throw notFound('终端不存在', 'NOT_FOUND');
    this.recent.clear();
    return toTerminal(row);
  }

  /** Whether a token belongs to a terminal that has not been revoked. */
  async isValid(token: string | undefined): Promise<boolean> {
    if (!token || token.length > 100) return false;
    const hash = sha256(token);
    const now = this.clock.now().getTime();
    const known = this.recent.get(hash);
    if (known && known.until > now) return known.ok;
    const row = await this.db
      .selectFrom('reading_room_terminals')
      .select(['id', 'revoked_at'])
      .where('token_hash', '=', hash)
      .executeTakeFirst();
    const ok = row !== undefined && row.revoked_at === null;
    if (row && ok) {
      await this.db
        .updateTable('reading_room_terminals')
        .set({ last_seen_at: nowIso(this.clock.now()) })
        .where('id', '=', row.id)
        .execute();
    }
    if (this.recent.size > 1000) this.recent.clear();
    this.recent.set(hash, { ok, until: now + 30_000 });
    return ok;
  }
}
