import { MSG } from '@guji/shared';
import { badRequest } from '../../errors.ts';
import { ReadingRoom } from '../../http/reading-room.ts';
import type { SettingsRepository } from '../site/settings.repository.ts';

const KEY = 'readingRoomCidrs';
/** How long a server keeps the list before reading it again (other servers' changes arrive by then). */
const REFRESH_MS = 30_000;

/**
 * The reading room's address ranges (DESIGN.md §7): READING_ROOM_CIDRS until an administrator saves a
 * list in the console, then that list. Kept in memory and read again every 30 seconds, so a request
 * costs no query and every server of a shared database follows a change within half a minute (the one
 * that saved it at once).
 */
export class ReadingRoomAddresses {
  private room: ReadingRoom;
  private cidrs: string[];
  private saved = false;
  private loadedAt = 0;

  constructor(
    private readonly settings: SettingsRepository,
    private readonly defaults: string[],
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
  async save(cidrs: string[]): Promise<void> {
    const clean = cidrs.map((c) => c.trim()).filter((c) => c !== '');
    for (const cidr of clean) {
      try {
        new ReadingRoom([cidr]);
      } catch {
        throw badRequest('READING_ROOM_CIDR', MSG.readingRoomCidrInvalid.replace('{cidr}', cidr));
      }
    }
    await this.settings.set(KEY, clean);
    await this.reload();
  }

  private async reload(): Promise<void> {
    const value = (await this.settings.getAll())[KEY];
    const saved = Array.isArray(value) && value.every((v) => typeof v === 'string');
    const cidrs = saved ? value : this.defaults;
    this.room = new ReadingRoom(cidrs);
    this.cidrs = cidrs;
    this.saved = saved;
    this.loadedAt = Date.now();
  }
}
