import fs from 'node:fs/promises';
import type { ByteSource } from './tiff-tiles.ts';

interface OpenFile {
  handle: Promise<fs.FileHandle>;
  openedAt: number;
  /** Reads in progress on the handle: a retired file is closed when the last one ends. */
  users: number;
  retired: boolean;
}

/**
 * Pyramid files kept open between requests (issue 34): a tile read from an open file is one read, where
 * opening and closing it each time were two thirds of a stored tile's file work. At most `maxOpen` files
 * stay open (the least recently read is closed first), and each for at most `maxAgeMs`, after which it is
 * opened again: a pyramid made again by another process (renamed into place, a new file) is then read
 * within that time. `forget` closes a file at once (its page's image changed in this process).
 */
export class OpenFiles {
  private readonly files = new Map<string, OpenFile>();

  constructor(
    private readonly maxOpen = 64,
    private readonly maxAgeMs = 10_000,
  ) {}

  /** A ByteSource over `file` that reads through a kept handle. */
  source(file: string): ByteSource {
    return (position, length, into) =>
      this.use(file, async (handle) => {
        // Only the bytes read are handed out (the subarray below), so the buffer need not be zeroed.
        const buffer = into && into.length >= length ? into : Buffer.allocUnsafe(length);
        const { bytesRead } = await handle.read(buffer, 0, length, position);
        return buffer.subarray(0, bytesRead);
      });
  }

  /** Closes `file` (when its reads end) so that the next read opens it again. */
  forget(file: string): void {
    const open = this.files.get(file);
    if (open) this.retire(file, open);
  }

  /** Closes every file (the service is shutting down). */
  close(): void {
    for (const [file, open] of [...this.files]) this.retire(file, open);
  }

  private async use<T>(file: string, work: (handle: fs.FileHandle) => Promise<T>): Promise<T> {
    const open = this.entry(file);
    open.users++;
    try {
      return await work(await open.handle);
    } finally {
      open.users--;
      if (open.retired && open.users === 0) closeQuietly(open);
    }
  }

  private entry(file: string): OpenFile {
    const now = Date.now();
    const kept = this.files.get(file);
    if (kept && now - kept.openedAt <= this.maxAgeMs) {
      // Most recently used last: eviction takes the first.
      this.files.delete(file);
      this.files.set(file, kept);
      return kept;
    }
    if (kept) this.retire(file, kept);
    const open: OpenFile = { handle: fs.open(file, 'r'), openedAt: now, users: 0, retired: false };
    // A file that cannot be opened (gone, unreadable) is not kept: the next read tries again.
    open.handle.catch(() => {
      if (this.files.get(file) === open) this.files.delete(file);
    });
    this.files.set(file, open);
    if (this.files.size > this.maxOpen) {
      const [oldest, old] = this.files.entries().next().value!;
      this.retire(oldest, old);
    }
    return open;
  }

  private retire(file: string, open: OpenFile): void {
    if (this.files.get(file) === open) this.files.delete(file);
    open.retired = true;
    if (open.users === 0) closeQuietly(open);
  }
}

function closeQuietly(open: OpenFile): void {
  open.handle.then((handle) => handle.close()).catch(() => undefined);
}
