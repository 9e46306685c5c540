import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CreatedTerminal, Terminal } from '@guji/shared';
import { nowIso } from '../../db/database.ts';
import type { Transact } from '../../db/query.ts';
import { notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import type { Auditor } from '../../audit/auditor.ts';
import type { TerminalRepository, TerminalRow } from './terminal.repository.ts';

/** A terminal cookie: the terminal's id, a dot, the MAC (base64url of SHA-256). */
const COOKIE_VALUE = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;
const cookieMac = (tokenHash: string) =>
  createHmac('sha256', tokenHash).update('guji_terminal cookie').digest('base64url');

const toTerminal = (row: TerminalRow): Terminal => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  revokedAt: row.revoked_at,
});

/**
 * Reading-room terminals (DESIGN.md §7): tokens an administrator issues to machines in the reading room
 * that the address ranges do not cover (a laptop on the library's Wi-Fi, a terminal behind a shared
 * NAT). Only the token's hash is kept; a revoked token stops working at once. Issuing and revoking
 * are each one transaction with their audit record.
 */
export class TerminalService {
  /** Recent answers, so a page's many requests do not each ask the database. */
  private readonly recent = new Map<string, { ok: boolean; until: number }>();

  constructor(
    private readonly terminals: TerminalRepository,
    private readonly clock: Clock,
    private readonly auditor: Auditor,
    private readonly transact: Transact,
  ) {}

  /** Issues a terminal's token (shown once); `actorId` is the administrator, recorded as its creator. */
  async create(name: string, actorId: number): Promise<CreatedTerminal> {
    const token = randomToken();
    const now = nowIso(this.clock.now());
    const row = await this.transact(async (tx) => {
      const created = await this.terminals.create(
        { name, tokenHash: sha256(token), createdBy: actorId, createdAt: now },
        tx,
      );
      await this.auditor.record(
        actorId,
        'terminal.create',
        `terminal:${created.id}`,
        null,
        { name: created.name },
        tx,
      );
      return created;
    });
    return { ...toTerminal(row), token, activationPath: `/api/reading-room/activate?token=${token}` };
  }

  async list(): Promise<Terminal[]> {
    return (await this.terminals.list()).map(toTerminal);
  }

  async revoke(actorId: number, id: number): Promise<Terminal> {
    const row = await this.transact(async (tx) => {
      const revoked = await this.terminals.revoke(id, nowIso(this.clock.now()), tx);
      if (!revoked) throw notFound('终端不存在', 'NOT_FOUND');
      await this.auditor.record(
        actorId,
        'terminal.revoke',
        `terminal:${revoked.id}`,
        { revokedAt: null },
        { revokedAt: revoked.revoked_at },
        tx,
      );
      return revoked;
    });
    this.recent.clear();
    return toTerminal(row);
  }

  /** Whether a token belongs to a terminal that has not been revoked. */
  /**
   * The value of the terminal's cookie, apart from its token (issue 30 item 9: the token, which appears
   * in the activation link, was the long-lived cookie itself): the terminal's id and a MAC keyed by the
   * token's hash, so whoever holds the cookie cannot learn the token, and revoking the terminal ends both.
   * Undefined for a token that is not valid.
   */
  async cookieFor(token: string): Promise<string | undefined> {
    if (!(await this.isValid(token))) return undefined;
    const row = await this.terminals.findByTokenHash(sha256(token));
    if (!row) return undefined;
    return `${row.id}.${cookieMac(sha256(token))}`;
  }

  /** Whether a terminal cookie (or, as activated before, the token itself) belongs to a terminal not revoked. */
  async isValidCookie(value: string | undefined): Promise<boolean> {
    const parts = value === undefined ? undefined : COOKIE_VALUE.exec(value);
    if (!parts) return this.isValid(value);
    const now = this.clock.now().getTime();
    const known = this.recent.get(value!);
    if (known && known.until > now) return known.ok;
    const row = await this.terminals.findById(Number(parts[1]));
    const mac = row ? Buffer.from(cookieMac(row.token_hash)) : undefined;
    const given = Buffer.from(parts[2]!);
    const ok =
      row !== undefined &&
      row.revoked_at === null &&
      mac !== undefined &&
      mac.length === given.length &&
      timingSafeEqual(mac, given);
    if (row && ok) await this.terminals.touch(row.id, nowIso(this.clock.now()));
    if (this.recent.size > 1000) this.recent.clear();
    this.recent.set(value!, { ok, until: now + 30_000 });
    return ok;
  }

  async isValid(token: string | undefined): Promise<boolean> {
    if (!token || token.length > 100) return false;
    const hash = sha256(token);
    const now = this.clock.now().getTime();
    const known = this.recent.get(hash);
    if (known && known.until > now) return known.ok;
    const row = await this.terminals.findByTokenHash(hash);
    const ok = row !== undefined && row.revoked_at === null;
    if (row && ok) {
      await this.terminals.touch(row.id, nowIso(this.clock.now()));
    }
    if (this.recent.size > 1000) this.recent.clear();
    this.recent.set(hash, { ok, until: now + 30_000 });
    return ok;
  }
}
