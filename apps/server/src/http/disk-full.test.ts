import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { makeStaff, type MadeUser } from '../../test/factories.ts';
import { createHttpHarness, multipartFile, type HttpHarness } from '../../test/http.ts';
import { makeZip } from '../../test/zip.ts';

/** Mounts a tmpfs of `size` at a new folder; undefined where this process may not mount (not root). */
function mountSmallDisk(size: string): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

const disk = mountSmallDisk('4m');

/**
 * Issue 17 part 5: DATA_DIR on a real, small filesystem (a 4 MB tmpfs) that fills up while an import
 * package is uploaded or unpacked. The administrator gets 507 with a clear Chinese message; nothing of the
 * upload stays (no book, no master, no temporary folder); with space again the same upload succeeds.
 * Needs root to mount; skipped elsewhere.
 */
describe.skipIf(!disk)('a full disk under DATA_DIR', () => {
  const dataDir = disk!;
  const filler = path.join(dataDir, 'filler');
  let h: HttpHarness;
  let admin: MadeUser;
  let zip: Buffer;
  beforeAll(async () => {
    // The database stays on the ordinary disk (testConfig's folder); the files go to the small one.
    h = await createHttpHarness('sqlite', { DATA_DIR: dataDir });
    admin = await makeStaff(h, ['catalogAdmin'], 'fulldisk');
    // Noise does not compress: two pages of ~300 KB each, stored as they are in the zip.
    const page = () =>
      sharp(randomBytes(320 * 320 * 3), { raw: { width: 320, height: 320, channels: 3 } })
        .png()
        .toBuffer();
    zip = makeZip({
      'metadata.json': JSON.stringify({
        sourceKey: 'full:disk',
        title: '滿盤之書',
        volumes: [{ name: '卷一', images: 'v1' }],
      }),
      'v1/1.png': await page(),
      'v1/2.png': await page(),
    });
  });
  afterAll(async () => {
    await h?.close();
    if (disk) {
      execFileSync('umount', [disk]);
      fs.rmSync(disk, { recursive: true, force: true });
    }
  });

  const free = () => {
    const stat = fs.statfsSync(dataDir);
    return stat.bavail * stat.bsize;
  };
  /** Fills the disk until `left` bytes are free. */
  const fillUntil = (left: number) => {
    fs.rmSync(filler, { force: true });
    fs.writeFileSync(filler, Buffer.alloc(Math.max(0, free() - left)));
  };
  const upload = () => {
    const { payload, contentType } = multipartFile('file', 'package.zip', zip, 'application/zip');
    return h.request({
      method: 'POST',
      url: '/api/admin/import',
      cookie: admin.cookie,
      payload,
      headers: { 'content-type': contentType },
    });
  };
  /** Files under DATA_DIR besides the filler (and the empty folders the server makes). */
  const files = () =>
    fs
      .readdirSync(dataDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && path.join(entry.parentPath, entry.name) !== filler)
      .map((entry) => path.relative(dataDir, path.join(entry.parentPath, entry.name)));

  it('refuses an upload with a clear message and keeps nothing of it, then takes it with space again', async () => {
    const before = files();
    // Too little space for the package itself; room for it but not for its unpacked pages; room for
    // those but not for every master.
    for (const left of [100_000, Math.round(zip.length * 1.4), Math.round(zip.length * 2.5)]) {
      fillUntil(left);
      const response = await upload();
      expect(response.statusCode, `${left} bytes free: ${response.body}`).toBe(507);
      expect(response.json()).toEqual({ code: 'DISK_FULL', message: MSG.diskFull });
      expect(await h.context.repos.catalog.findBookBySourceKey('full:disk')).toBeUndefined();
      expect(files()).toEqual(before);
      // All the space the upload took is given back.
      expect(free()).toBeGreaterThanOrEqual(left - 64 * 1024);
    }
    fs.rmSync(filler);
    const retried = await upload();
    expect(retried.statusCode, retried.body).toBe(200);
    const book = await h.context.repos.catalog.findBookBySourceKey('full:disk');
    expect(book).toBeDefined();
    expect(files().filter((f) => f.startsWith('masters/'))).toHaveLength(2);
  });
});
