import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeStaleTempDirs, withTempDir } from './temp.ts';

describe('upload folders under DATA_DIR/tmp', () => {
  it('are removed after the work, whatever happens', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'guji-temp-'));
    let seen = '';
    await expect(
      withTempDir(dataDir, async (dir) => {
        seen = dir;
        await fs.writeFile(path.join(dir, 'page.png'), 'x');
        throw new Error('upload refused');
      }),
    ).rejects.toThrow('upload refused');
    await expect(fs.stat(seen)).rejects.toThrow();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('left behind by a crash are purged once stale, live ones and other files stay', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'guji-temp-'));
    const root = path.join(dataDir, 'tmp');
    await fs.mkdir(path.join(root, 'upload-old'), { recursive: true });
    await fs.writeFile(path.join(root, 'upload-old', 'entry.png'), 'x');
    await fs.mkdir(path.join(root, 'upload-live'));
    await fs.mkdir(path.join(root, 'other'));
    const dayAgo = Date.now() / 1000 - 86_400 - 60;
    await fs.utimes(path.join(root, 'upload-old'), dayAgo, dayAgo);
    await fs.utimes(path.join(root, 'other'), dayAgo, dayAgo);

    expect(await removeStaleTempDirs(dataDir, Date.now() - 86_400_000)).toBe(1);
    expect((await fs.readdir(root)).sort()).toEqual(['other', 'upload-live']);
    // No tmp folder at all is not an error.
    expect(await removeStaleTempDirs(path.join(dataDir, 'none'), Date.now())).toBe(0);
    await fs.rm(dataDir, { recursive: true, force: true });
  });
});
