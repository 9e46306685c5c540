import fs from 'node:fs/promises';
import path from 'node:path';

/** One stored file as a listing names it. */
export interface StoredObject {
  key: string;
  size: number;
}

/**
 * Where files live (DESIGN.md §3): masters, pyramids, avatars, print PDFs. Local disk under DATA_DIR by
 * default (`LocalFileStorage`), or an S3-compatible object store (`S3FileStorage`, STORAGE_URL=s3://…).
 * Keys are relative paths made by the server (`masters/…`, `pyramids/12/345.tif`, `avatars/…`), the same
 * on both, so a library moves between them by copying files; a key that would leave the root is refused.
 * Both pass the same conformance suite (storage.conformance.test.ts).
 */
export interface FileStorage {
  /** Where the bytes are: `local` (DATA_DIR) or `s3`. */
  readonly kind: 'local' | 's3';
  /** Stores `data` under `key`, replacing what was there; readers never see a half-written file. */
  put(key: string, data: Buffer): Promise<void>;
  /** Stores the local file `file` under `key` (streamed, never read into memory whole). */
  putFile(key: string, file: string): Promise<void>;
  /** The whole file; undefined when there is none. */
  get(key: string): Promise<Buffer | undefined>;
  /**
   * `length` bytes from byte `offset` (fewer at the end of the file, none past it); undefined when there
   * is no file. A stored tile is one such range of its pyramid.
   */
  getRange(key: string, offset: number, length: number): Promise<Buffer | undefined>;
  /** Copies the file to the local path `file`; false when there is none. */
  getToFile(key: string, file: string): Promise<boolean>;
  /** The file's size in bytes; undefined when there is none. */
  stat(key: string): Promise<{ size: number } | undefined>;
  /** Removes a file; removing one that is not there is no error. */
  delete(key: string): Promise<void>;
  /** Removes every file whose key starts with `prefix` (e.g. `pyramids/12/`); returns how many went. */
  deletePrefix(prefix: string): Promise<number>;
  /** Every file whose key starts with `prefix`, in no particular order. */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** A local path to read the file from directly (local disk only); undefined for an object store. */
  localPath(key: string): string | undefined;
  /** Throws when the store cannot be reached (readiness probe). */
  check(): Promise<void>;
  /** Lets go of connections (an object store's client); nothing to do on local disk. */
  close?(): void;
}

/** Refuses keys that are empty, absolute, or climb out of the root; the same rule on every backend. */
export function checkKey(key: string): string {
  const parts = key.split('/');
  if (!key || key.startsWith('/') || key.includes('\\') || parts.some((p) => p === '..' || p === '.' || !p))
    throw new Error(`Storage key leaves the root: ${key}`);
  return key;
}

/** Refuses prefixes that could reach outside the root ('' lists everything). */
export function checkPrefix(prefix: string): string {
  if (prefix !== '') checkKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
  return prefix;
}

const notFound = (error: unknown) =>
  ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/** Files under a root folder (DATA_DIR). Writes go to a temporary name first and are renamed. */
export class LocalFileStorage implements FileStorage {
  readonly kind = 'local' as const;
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private resolve(key: string): string {
    return path.join(this.root, ...checkKey(key).split('/'));
  }

  localPath(key: string): string {
    return this.resolve(key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    await this.write(key, (temp) => fs.writeFile(temp, data));
  }

  async putFile(key: string, file: string): Promise<void> {
    await this.write(key, (temp) => fs.copyFile(file, temp));
  }

  private async write(key: string, fill: (temp: string) => Promise<void>): Promise<void> {
    const full = this.resolve(key);
    await fs.mkdir(path.dirname(full), { recursive: true });
    const temp = `${full}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      await fill(temp);
      await fs.rename(temp, full);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.resolve(key));
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
  }

  async getRange(key: string, offset: number, length: number): Promise<Buffer | undefined> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.resolve(key), 'r');
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return bytesRead === length ? buffer : buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async getToFile(key: string, file: string): Promise<boolean> {
    try {
      await fs.copyFile(this.resolve(key), file);
      return true;
    } catch (error) {
      if (notFound(error)) return false;
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | undefined> {
    const stat = await fs.stat(this.resolve(key)).catch((error: unknown) => {
      if (notFound(error)) return undefined;
      throw error;
    });
    return stat?.isFile() ? { size: stat.size } : undefined;
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.resolve(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    let removed = 0;
    for await (const { key } of this.list(prefix)) {
      await this.delete(key);
      removed++;
    }
    // Folders the prefix named whole go with their files.
    if (prefix.endsWith('/'))
      await fs.rm(this.resolve(prefix.slice(0, -1)), { recursive: true, force: true });
    return removed;
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    checkPrefix(prefix);
    // The deepest folder the prefix names whole; files under it are filtered by the rest.
    const dir = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    yield* this.walk(dir, prefix);
  }

  private async *walk(dir: string, prefix: string): AsyncIterable<StoredObject> {
    const full = dir ? path.join(this.root, ...dir.split('/')) : this.root;
    const entries = await fs.readdir(full, { withFileTypes: true }).catch((error: unknown) => {
      if (notFound(error)) return [];
      throw error;
    });
    for (const entry of entries) {
      const key = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) yield* this.walk(key, prefix);
      } else if (entry.isFile() && key.startsWith(prefix) && !entry.name.endsWith('.tmp')) {
        const stat = await fs.stat(path.join(full, entry.name)).catch(() => undefined);
        if (stat) yield { key, size: stat.size };
      }
    }
  }

  async check(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    await fs.access(this.root, fs.constants.W_OK);
  }
}

/**
 * Runs `work` with a local path holding the file `key`: the file itself on local disk, or a copy fetched
 * into DATA_DIR/tmp from an object store (removed afterwards), for libraries that read paths (sharp on
 * large inputs, the OCR engine). Throws when there is no such file.
 */
export async function withLocalFile<T>(
  storage: FileStorage,
  dataDir: string,
  key: string,
  work: (file: string) => Promise<T>,
): Promise<T> {
  const direct = storage.localPath(key);
  if (direct) {
    await fs.access(direct).catch(() => {
      throw new Error(`Stored file missing: ${key}`);
    });
    return work(direct);
  }
  const dir = path.join(dataDir, 'tmp');
  await fs.mkdir(dir, { recursive: true });
  const temp = await fs.mkdtemp(path.join(dir, 'upload-fetch-'));
  try {
    const file = path.join(temp, path.basename(key));
    if (!(await storage.getToFile(key, file))) throw new Error(`Stored file missing: ${key}`);
    return await work(file);
  } finally {
    await fs.rm(temp, { recursive: true, force: true });
  }
}
