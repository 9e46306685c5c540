import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultBound, DiskCache } from './disk-cache.ts';

/** The bytes of every file under a folder. */
function bytesUnder(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => fs.statSync(path.join(dir, name)))
    .filter((stats) => stats.isFile())
    .reduce((sum, stats) => sum + stats.size, 0);
}

describe('the bounded IIIF disk cache', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-cache-'));
    // Only the clock the cache reads for use times; file I/O keeps its real timers.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-06-01T08:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const file = (name: string) => path.join(dir, '1', name);
  const put = async (cache: DiskCache, name: string, bytes = 300) => {
    vi.advanceTimersByTime(1000);
    cache.write(file(name), Buffer.alloc(bytes, name));
    await cache.idle();
  };

  it('removes the least recently used files once the bound is passed', async () => {
    const cache = new DiskCache(dir, 1000);
    await put(cache, 'a');
    await put(cache, 'b');
    await put(cache, 'c');
    vi.advanceTimersByTime(1000);
    expect(await cache.read(file('a'))).toBeDefined();
    await put(cache, 'd');
    expect(bytesUnder(dir)).toBeLessThanOrEqual(1000);
    expect(await cache.size()).toBe(bytesUnder(dir));
    // b was used longest ago; a, read just before, stays.
    expect(fs.existsSync(file('b'))).toBe(false);
    for (const kept of ['a', 'c', 'd']) expect(fs.existsSync(file(kept)), kept).toBe(true);
  });

  it('counts what is already on disk at start and keeps within a smaller bound', async () => {
    const first = new DiskCache(dir, 10_000);
    for (const name of ['a', 'b', 'c', 'd', 'e']) await put(first, name);
    expect(bytesUnder(dir)).toBe(1500);
    const restarted = new DiskCache(dir, 700);
    expect(await restarted.size()).toBeLessThanOrEqual(700);
    expect(bytesUnder(dir)).toBeLessThanOrEqual(700);
  });

  it('keeps nothing with a bound of 0, and forgets a removed page folder', async () => {
    const off = new DiskCache(dir, 0);
    await put(off, 'a');
    expect(bytesUnder(dir)).toBe(0);
    const cache = new DiskCache(dir, 10_000);
    await put(cache, 'b');
    await cache.removeFolder('1');
    expect(await cache.size()).toBe(0);
    expect(await cache.read(file('b'))).toBeUndefined();
  });

  it('defaults to a tenth of the free disk, at most 5 GiB', async () => {
    const bound = await defaultBound(path.join(dir, 'not', 'made', 'yet'));
    const stats = fs.statfsSync(dir);
    expect(bound).toBe(Math.min(5 * 1024 ** 3, Math.floor(stats.bavail * stats.bsize * 0.1)));
  });
});
