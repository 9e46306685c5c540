import fs from 'node:fs/promises';
import path from 'node:path';

/** The default bound when none is configured: this share of the free disk, at most DEFAULT_CAP. */
const DEFAULT_SHARE = 0.1;
const DEFAULT_CAP = 5 * 1024 ** 3;
/** Once over the bound, files are removed until the total is this share of it (so eviction is rare). */
const LOW_WATER = 0.9;
/** A hit refreshes a file's modification time at most this often (the use order that survives restarts). */
const TOUCH_EVERY_MS = 60_000;

interface Entry {
  size: number;
  /** Last use, ms since the epoch. */
  used: number;
}

/**
 * A disk cache bounded in bytes: files under one folder, the least recently used removed first once
 * their total passes the bound. The index of sizes and use times lives in memory, read from the folder
 * at first use (a file's modification time stands for its last use and is refreshed on hits). Files
 * another process writes into the folder are counted from the next start.
 */
export class DiskCache {
  private readonly entries = new Map<string, Entry>();
  private total = 0;
  private loaded: Promise<number> | undefined;
  private readonly pending = new Set<Promise<void>>();

  /**
   * @param dir the cache folder
   * @param maxBytes the bound; undefined: min(5 GiB, 10 % of the free space of the folder's disk);
   *   0 keeps nothing
   */
  constructor(
    readonly dir: string,
    private readonly maxBytes: number | undefined,
  ) {}

  /** A cached file's bytes, or undefined. */
  async read(file: string): Promise<Buffer | undefined> {
    let data: Buffer;
    try {
      data = await fs.readFile(file);
    } catch {
      this.forget(file);
      return undefined;
    }
    const entry = this.entries.get(file);
    const now = Date.now();
    if (entry) {
      if (now - entry.used > TOUCH_EVERY_MS) void fs.utimes(file, now / 1000, now / 1000).catch(() => {});
      entry.used = now;
    }
    return data;
  }

  /** Keeps a file (in the background: a failed write only means rendering again later). */
  write(file: string, data: Buffer): void {
    const job = this.store(file, data).finally(() => this.pending.delete(job));
    this.pending.add(job);
  }

  /** Waits for the writes under way (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** The bytes the cache holds by its index. */
  async size(): Promise<number> {
    await this.load();
    return this.total;
  }

  /** Removes a sub-folder (one page's responses). */
  async removeFolder(name: string): Promise<void> {
    const folder = path.join(this.dir, name) + path.sep;
    for (const file of [...this.entries.keys()]) if (file.startsWith(folder)) this.forget(file);
    await fs.rm(folder, { recursive: true, force: true });
  }

  private async store(file: string, data: Buffer): Promise<void> {
    const bound = await this.load();
    if (data.length > bound) return;
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(temp, data);
      await fs.rename(temp, file);
    } catch {
      await fs.rm(temp, { force: true });
      return;
    }
    this.forget(file);
    this.entries.set(file, { size: data.length, used: Date.now() });
    this.total += data.length;
    if (this.total > bound) await this.evict(bound * LOW_WATER);
  }

  /** Removes the least recently used files until the total is at most `target`. */
  private async evict(target: number): Promise<void> {
    const oldest = [...this.entries].sort((a, b) => a[1].used - b[1].used);
    for (const [file] of oldest) {
      if (this.total <= target) break;
      this.forget(file);
      await fs.rm(file, { force: true });
    }
  }

  private forget(file: string): void {
    const entry = this.entries.get(file);
    if (!entry) return;
    this.total -= entry.size;
    this.entries.delete(file);
  }

  /** Reads the folder into the index once; resolves to the bound in bytes. */
  private load(): Promise<number> {
    this.loaded ??= (async () => {
      for (const [file, entry] of await listFiles(this.dir)) {
        if (this.entries.has(file)) continue;
        this.entries.set(file, entry);
        this.total += entry.size;
      }
      const bound = this.maxBytes ?? (await defaultBound(this.dir));
      if (this.total > bound) await this.evict(bound * LOW_WATER);
      return bound;
    })();
    return this.loaded;
  }
}

/** min(5 GiB, 10 % of the free space) of the disk holding `dir` (or its nearest existing parent). */
export async function defaultBound(dir: string): Promise<number> {
  let probe = dir;
  for (;;) {
    try {
      const stats = await fs.statfs(probe);
      return Math.min(DEFAULT_CAP, Math.floor(stats.bavail * stats.bsize * DEFAULT_SHARE));
    } catch {
      const parent = path.dirname(probe);
      if (parent === probe) return DEFAULT_CAP;
      probe = parent;
    }
  }
}

async function listFiles(dir: string): Promise<Map<string, Entry>> {
  const found = new Map<string, Entry>();
  let names: string[];
  try {
    names = await fs.readdir(dir, { recursive: true });
  } catch {
    return found;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const stats = await fs.stat(file);
      if (!stats.isFile()) continue;
      if (!file.endsWith('.tmp')) found.set(file, { size: stats.size, used: stats.mtimeMs });
      // A temporary file left by a crash mid-write (not one another process is writing now).
      else if (Date.now() - stats.mtimeMs > 600_000) await fs.rm(file, { force: true });
    } catch {
      // Removed meanwhile.
    }
  }
  return found;
}
