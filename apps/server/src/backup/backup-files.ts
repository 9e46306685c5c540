import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { openStorage } from '../storage/open-storage.ts';
import type { BackupEntry } from './backup.ts';

/** Folder of a backup that holds the files of an object store, by their storage keys. */
export const OBJECTS_DIR = 'objects';

/** The SHA-256 of a file, read a megabyte at a time (a pyramid or a master may be large). */
export function sha256File(file: string): string {
  const hash = createHash('sha256');
  const chunk = Buffer.alloc(1 << 20);
  const fd = fs.openSync(file, 'r');
  try {
    for (let read = fs.readSync(fd, chunk); read > 0; read = fs.readSync(fd, chunk))
      hash.update(chunk.subarray(0, read));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

/** A manifest entry for `file`, its path relative to `root` with forward slashes. */
export function entryOf(root: string, file: string): BackupEntry {
  return {
    path: path.relative(root, file).split(path.sep).join('/'),
    bytes: fs.statSync(file).size,
    sha256: sha256File(file),
  };
}

/** Every file under `dir`, depth first. */
export function* walk(dir: string): Generator<string> {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

const where = (config: Config) =>
  config.storage.kind === 's3' ? `s3://${config.storage.bucket}/${config.storage.prefix}` : '';

/**
 * With STORAGE_URL=s3://…, copies every object under the library's prefix (masters, pyramids, avatars,
 * print PDFs) into `target/objects/<key>`; returns their entries, or undefined on local disk (whose files
 * the backup takes from DATA_DIR).
 */
export async function backupObjects(config: Config, target: string): Promise<BackupEntry[] | undefined> {
  if (config.storage.kind !== 's3') return undefined;
  const storage = openStorage(config);
  const root = path.join(target, OBJECTS_DIR);
  const entries: BackupEntry[] = [];
  try {
    for await (const { key } of storage.list('')) {
      const copy = path.join(root, ...key.split('/'));
      fs.mkdirSync(path.dirname(copy), { recursive: true });
      if (await storage.getToFile(key, copy)) entries.push(entryOf(root, copy));
    }
  } catch (error) {
    throw new Error(`对象存储读取失败 / object store unreadable (${where(config)}): ${String(error)}`, {
      cause: error,
    });
  } finally {
    storage.close?.();
  }
  return entries;
}

/** Whether the configured object store already holds files of a library (restore refuses without --force). */
export async function objectStoreHasFiles(config: Config): Promise<string | undefined> {
  if (config.storage.kind !== 's3') return undefined;
  const storage = openStorage(config);
  try {
    for await (const _object of storage.list('')) return where(config);
    return undefined;
  } finally {
    storage.close?.();
  }
}

/**
 * Puts a backup's object-store files back: into the configured object store (its files under the prefix
 * replaced), or, on local disk, into DATA_DIR under the same keys, so a library moves from an object store
 * to local disk by backup and restore.
 */
export async function restoreObjects(config: Config, source: string, entries: BackupEntry[]): Promise<void> {
  const storage = openStorage(config);
  try {
    if (config.storage.kind === 's3') await storage.deletePrefix('');
    for (const entry of entries) {
      await storage.putFile(entry.path, path.join(source, OBJECTS_DIR, ...entry.path.split('/')));
    }
  } finally {
    storage.close?.();
  }
}
