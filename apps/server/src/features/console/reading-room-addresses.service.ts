import { MSG } from '@guji/shared';
import type { Transact } from '../../db/query.ts';
import { badRequest } from '../../errors.ts';
import { ReadingRoom } from '../../http/reading-room.ts';
import type { SettingsRepository } from '../site/settings.repository.ts';
import type { Auditor } from '../../audit/auditor.ts';

/** The widest reading-room range an administrator may save: its prefix length at least this. */
const MIN_PREFIX = { v4: 8, v6: 16 };

const KEY = 'readingRoomCidrs';
/** How long a server keeps the list before reading it again (other servers' changes arrive by then). */
const REFRESH_MS = 30_000;

/**
 * The reading room's address ranges (DESIGN.md §7): READING_ROOM_CIDRS until an administrator saves a
 * list in the console, then that list. Kept in memory and read again every 30 seconds, so a request
 * costs no query and every server of a shared database follows a change within half a minute (the one
 * that saved it at once). Saving is one transaction with its audit record.
 */
export class ReadingRoomAddresses {
  private room: ReadingRoom;
  private cidrs: string[];
  private saved = false;
  private loadedAt = 0;

  constructor(
    private readonly settings: SettingsRepository,
    private readonly defaults: string[],
    private readonly auditor: Auditor,
    private readonly transact: Transact,
  ) {
    this.cidrs = defaults;
    this.room = new ReadingRoom(defaults);
  }

  async current(): Promise<ReadingRoom> {
    if (Date.now() - this.loadedAt > REFRESH_MS) await this.reload();
    return this.room;
  }

  async list(): Promise<{ cidrs: string[]; fromEnvironment: boolean }> {
    await this.reload();
    return { cidrs: this.cidrs, fromEnvironment: !this.saved };
  }

  /** Saves a new list; every entry must be an IPv4 or IPv6 address or range. */
  async save(actorId: number, cidrs: string[]): Promise<void> {
    const clean = cidrs.map((c) => c.trim()).filter((c) => c !== '');
    for (const cidr of clean) {
      try {
        new ReadingRoom([cidr]);
      } catch {
        throw badRequest('READING_ROOM_CIDR', MSG.readingRoomCidrInvalid.replace('{cidr}', cidr));
      }
      // A range wider than /8 (IPv4) or /16 (IPv6), `0.0.0.0/0` above all, would make the whole
      // Internet a reading room: refused (issue 30).
      const prefix = /\/(\d+)$/.exec(cidr)?.[1];
      const widest = cidr.includes(':') ? MIN_PREFIX.v6 : MIN_PREFIX.v4;
      if (prefix !== undefined && Number(prefix) < widest)
        throw badRequest(
          'READING_ROOM_CIDR',
          MSG.readingRoomCidrTooWide.replace('{cidr}', cidr).replace('{min}', String(widest)),
        );
    }
    await this.transact(async (tx) => {
      const before = this.fromSettings(await this.settings.getAll(tx));
      await this.settings.set(KEY, clean, tx);
      await this.auditor.record(actorId, 'readingroom.addresses', 'reading-room', before.cidrs, clean, tx);
    });
    await this.reload();
  }

  /** The saved list, or the environment's when none is saved. */
  private fromSettings(settings: Record<string, unknown>): { cidrs: string[]; saved: boolean } {
    const value = settings[KEY];
    const saved = Array.isArray(value) && value.every((v) => typeof v === 'string');
    return { cidrs: saved ? value : this.defaults, saved };
  }

  private async reload(): Promise<void> {
    const { cidrs, saved } = this.fromSettings(await this.settings.getAll());
    this.room = new ReadingRoom(cidrs);
    this.cidrs = cidrs;
    this.saved = saved;
    this.loadedAt = Date.now();
  }
}
