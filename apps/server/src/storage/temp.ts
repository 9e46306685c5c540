import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * A private folder under `DATA_DIR/tmp` for the duration of `work` (uploads and what is unpacked
 * from them go to disk, not memory), removed afterwards whatever happens. `DATA_DIR` rather than the
 * system's temporary folder, which may be memory (tmpfs).
 */
export async function withTempDir<T>(dataDir: string, work: (dir: string) => Promise<T>): Promise<T> {
  const root = path.join(dataDir, 'tmp');
  await fs.mkdir(root, { recursive: true });
  const dir = await fs.mkdtemp(path.join(root, 'upload-'));
  try {
    return await work(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Writes an uploaded file's stream to `file`; returns false when the stream was cut at its size
 * limit (busboy's `truncated`), so the caller refuses it.
 */
export async function saveUpload(stream: Readable & { truncated?: boolean }, file: string): Promise<boolean> {
  await pipeline(stream, createWriteStream(file, { flags: 'wx' }));
  return !stream.truncated;
}

/**
 * Removes the upload folders under `DATA_DIR/tmp` last changed before `before` (ms since the epoch):
 * those a crash left behind. Returns how many went.
 */
export async function removeStaleTempDirs(dataDir: string, before: number): Promise<number> {
  const root = path.join(dataDir, 'tmp');
  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith('upload-')) continue;
    const dir = path.join(root, entry.name);
    const stat = await fs.stat(dir).catch(() => undefined);
    if (!stat || stat.mtimeMs >= before) continue;
    await fs.rm(dir, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
