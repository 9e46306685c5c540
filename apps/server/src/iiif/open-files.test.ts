import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OpenFiles } from './open-files.ts';

describe('OpenFiles', () => {
  let dir: string;
  let files: OpenFiles;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'open-files-'));
  });
  afterEach(async () => {
    files.close();
    vi.restoreAllMocks();
    vi.useRealTimers();
    await fs.rm(dir, { recursive: true, force: true });
  });
  const write = (name: string, text: string) => fs.writeFile(path.join(dir, name), text);
  const read = (name: string, position = 0, length = 100) =>
    files
      .source(path.join(dir, name))(position, length)
      .then((b) => b.toString());

  it('reads ranges through one handle kept open, not one open a read', async () => {
    files = new OpenFiles();
    await write('a.tif', '0123456789');
    const open = vi.spyOn(fs, 'open');
    const reads = await Promise.all(Array.from({ length: 50 }, (_, i) => read('a.tif', i % 10, 3)));
    expect(reads[0]).toBe('012');
    expect(reads[9]).toBe('9');
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('reads a pyramid made again (renamed into place) after forget, and after its time is up', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    files = new OpenFiles(64, 10_000);
    await write('p.tif', 'old');
    expect(await read('p.tif')).toBe('old');
    const replace = async (text: string) => {
      await write('new.tmp', text);
      await fs.rename(path.join(dir, 'new.tmp'), path.join(dir, 'p.tif'));
    };
    await replace('new');
    // The kept handle still reads the file it opened, until this process forgets it …
    expect(await read('p.tif')).toBe('old');
    files.forget(path.join(dir, 'p.tif'));
    expect(await read('p.tif')).toBe('new');
    // … or until it has been open for the longest time allowed (another process made the new file).
    await replace('newer');
    vi.advanceTimersByTime(10_001);
    expect(await read('p.tif')).toBe('newer');
  });

  it('keeps at most maxOpen files, closing the least recently read', async () => {
    files = new OpenFiles(2);
    for (const name of ['1', '2', '3']) await write(name, name);
    const open = vi.spyOn(fs, 'open');
    await read('1');
    await read('2');
    await read('1');
    await read('3'); // closes 2, the least recently read
    expect(open).toHaveBeenCalledTimes(3);
    expect(await read('1')).toBe('1');
    expect(open).toHaveBeenCalledTimes(3);
    expect(await read('2')).toBe('2');
    expect(open).toHaveBeenCalledTimes(4);
  });

  it('does not keep a file that could not be opened', async () => {
    files = new OpenFiles();
    await expect(read('later.tif')).rejects.toThrow(/ENOENT/);
    await write('later.tif', 'here');
    expect(await read('later.tif')).toBe('here');
  });
});
