import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBook, makeReader } from '../../test/factories.ts';
import { createTestContext, testConfig } from '../../test/helpers.ts';
import { createHttpHarness, type HttpHarness } from '../../test/http.ts';
import { startS3Server, type TestS3Server } from '../../test/s3-server.ts';
import type { Config } from '../config.ts';
import { openStorage } from '../storage/open-storage.ts';
import { backupLibrary, restoreLibrary, verifyBackup } from './backup.ts';

const s3Env = (server: TestS3Server, prefix: string): Record<string, string> => ({
  STORAGE_URL: `s3://${server.bucket}/${prefix}`,
  AWS_ENDPOINT_URL: server.endpoint,
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
  S3_FORCE_PATH_STYLE: 'true',
});

/** Every stored file of a library by key, as base64, read through its configured storage. */
async function storedFiles(config: Config): Promise<Record<string, string>> {
  const storage = openStorage(config);
  const out: Record<string, string> = {};
  try {
    for await (const { key } of storage.list('')) {
      if (!/^(masters|pyramids|avatars|print)\//.test(key)) continue;
      out[key] = (await storage.get(key))!.toString('base64');
    }
  } finally {
    storage.close?.();
  }
  return out;
}

/** Backups of a library whose files are in an object store (issue 17 parts 1 and 6). */
describe('backup and restore with STORAGE_URL=s3://…', () => {
  let server: TestS3Server;
  let h: HttpHarness;
  let root: string;
  let made = 0;
  /** A new folder for one backup. */
  const freshDir = () => path.join(root, `backup-${++made}`);
  const cleanups: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    server = await startS3Server();
    h = await createHttpHarness('sqlite', s3Env(server, 'source-library'));
    await makeReader(h, 's3backup');
    await makeBook(h, { volumes: [2] });
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-backup-s3-'));
  });
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
    await h.close();
    await server.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('copies the object store’s files with checksums and puts them back into another prefix', async () => {
    const dir = freshDir();
    const manifest = await backupLibrary(h.context.config, dir);
    const keys = (manifest.objects ?? []).map((entry) => entry.path);
    expect(keys.filter((key) => key.startsWith('masters/'))).toHaveLength(2);
    expect(keys.filter((key) => key.startsWith('pyramids/'))).toHaveLength(2);
    expect(verifyBackup(dir)).toEqual(manifest);

    const target = await createTestContext('sqlite', s3Env(server, 'restored-library'));
    cleanups.push(() => target.close());
    await target.context.close();
    target.context.close = () => Promise.resolve();
    await restoreLibrary(target.context.config, dir, { force: true });
    const restored = await storedFiles(target.context.config);
    expect(Object.keys(restored)).toHaveLength(keys.length);
    expect(restored).toEqual(await storedFiles(h.context.config));
    // Into an empty DATA_DIR but a prefix that holds a library: refused without --force.
    const fresh = await testConfig('sqlite', s3Env(server, 'restored-library'));
    cleanups.push(fresh.cleanup);
    await expect(restoreLibrary(fresh.config, dir)).rejects.toThrow(
      `对象存储已有文件：s3://${server.bucket}/restored-library/（确认要替换时加 --force）`,
    );
  });

  it('restores such a backup onto local disk under the same keys', async () => {
    const dir = freshDir();
    await backupLibrary(h.context.config, dir);
    const { config, cleanup } = await testConfig('sqlite');
    cleanups.push(cleanup);
    await restoreLibrary(config, dir, { force: true });
    expect(await storedFiles(config)).toEqual(await storedFiles(h.context.config));
  });

  it('refuses a damaged object in the backup', async () => {
    const copy = freshDir();
    const manifest = await backupLibrary(h.context.config, copy);
    const entry = manifest.objects![0]!;
    fs.appendFileSync(path.join(copy, 'objects', entry.path), 'x');
    expect(() => verifyBackup(copy)).toThrow(`备份文件已损坏（校验和不符）：${entry.path}`);
  });
});
