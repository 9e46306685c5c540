import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../test/s3-server.ts';
import { S3FileStorage } from './s3-storage.ts';
import { LocalFileStorage, withLocalFile, type FileStorage } from './storage.ts';

/**
 * The storage conformance suite (issue 17 part 1): the same cases against local disk and against an
 * S3-compatible store (a real S3-protocol server, s3rver, started here), so the product behaves the
 * same on both. Every case works under its own random folder: cases pass alone and in any order.
 */
let server: TestS3Server;
let localRoot: string;
beforeAll(async () => {
  server = await startS3Server();
  localRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'guji-storage-'));
});
afterAll(async () => {
  await server.stop();
  await fs.rm(localRoot, { recursive: true, force: true });
});

const backends: Array<[string, () => FileStorage]> = [
  ['local disk', () => new LocalFileStorage(localRoot)],
  ['S3 (s3rver)', () => server.storage('library-a/')],
];

const folder = () => `case-${randomBytes(6).toString('hex')}`;
const collect = async (items: AsyncIterable<{ key: string; size: number }>) => {
  const all = [];
  for await (const item of items) all.push(item);
  return all.sort((a, b) => a.key.localeCompare(b.key));
};

describe.each(backends)('file storage on %s', (_name, open) => {
  it('stores, replaces and returns a file; a missing one is undefined', async () => {
    const storage = open();
    const key = `${folder()}/masters/1/0001.jpg`;
    expect(await storage.get(key)).toBeUndefined();
    await storage.put(key, Buffer.from('first'));
    expect((await storage.get(key))?.toString()).toBe('first');
    await storage.put(key, Buffer.from('second, longer'));
    expect((await storage.get(key))?.toString()).toBe('second, longer');
    expect(await storage.stat(key)).toEqual({ size: 14 });
    expect(await storage.stat(`${key}.other`)).toBeUndefined();
  });

  it('keeps keys with Chinese names and binary contents byte for byte', async () => {
    const storage = open();
    const key = `${folder()}/avatars/讀者-甲.png`;
    const data = randomBytes(70_000);
    await storage.put(key, data);
    expect((await storage.get(key))?.equals(data)).toBe(true);
  });

  it('copies local files in and out, streamed', async () => {
    const storage = open();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'guji-storage-file-'));
    const data = randomBytes(1_300_000);
    await fs.writeFile(path.join(dir, 'in.tif'), data);
    const key = `${folder()}/pyramids/3/7.tif`;
    await storage.putFile(key, path.join(dir, 'in.tif'));
    expect(await storage.stat(key)).toEqual({ size: data.length });
    expect(await storage.getToFile(key, path.join(dir, 'out.tif'))).toBe(true);
    expect((await fs.readFile(path.join(dir, 'out.tif'))).equals(data)).toBe(true);
    expect(await storage.getToFile(`${key}.none`, path.join(dir, 'none.tif'))).toBe(false);
    // A path for libraries that read files: the file itself on disk, a fetched copy from a store.
    const seen = await withLocalFile(storage, dir, key, async (file) =>
      (await fs.readFile(file)).equals(data),
    );
    expect(seen).toBe(true);
    await expect(withLocalFile(storage, dir, `${key}.none`, () => Promise.resolve())).rejects.toThrow();
    expect((await fs.readdir(path.join(dir, 'tmp')).catch(() => [])).length).toBe(0);
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('reads byte ranges: within, cut at the end, past the end, of a missing file', async () => {
    const storage = open();
    const key = `${folder()}/pyramids/1/1.tif`;
    const data = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    await storage.put(key, data);
    expect((await storage.getRange(key, 0, 16))?.equals(data.subarray(0, 16))).toBe(true);
    expect((await storage.getRange(key, 517, 100))?.equals(data.subarray(517, 617))).toBe(true);
    expect((await storage.getRange(key, 990, 100))?.equals(data.subarray(990))).toBe(true);
    expect((await storage.getRange(key, 1000, 10))?.length).toBe(0);
    expect((await storage.getRange(key, 5000, 10))?.length).toBe(0);
    expect(await storage.getRange(`${key}.none`, 0, 10)).toBeUndefined();
  });

  it('deletes one file; deleting a missing file is no error', async () => {
    const storage = open();
    const key = `${folder()}/print/a.pdf`;
    await storage.put(key, Buffer.from('%PDF'));
    await storage.delete(key);
    expect(await storage.get(key)).toBeUndefined();
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('lists and deletes by prefix, a folder prefix never reaching its longer-named neighbour', async () => {
    const storage = open();
    const base = folder();
    const keys = [
      `${base}/pyramids/1/1.tif`,
      `${base}/pyramids/1/2.tif`,
      `${base}/pyramids/12/3.tif`,
      `${base}/masters/book-1/1/0001.jpg`,
      `${base}/masters/book-10/1/0001.jpg`,
    ];
    for (const [i, key] of keys.entries()) await storage.put(key, Buffer.alloc(i + 1));
    expect(await collect(storage.list(`${base}/pyramids/1/`))).toEqual([
      { key: `${base}/pyramids/1/1.tif`, size: 1 },
      { key: `${base}/pyramids/1/2.tif`, size: 2 },
    ]);
    expect((await collect(storage.list(`${base}/masters/book-1`))).map((o) => o.key)).toEqual([
      `${base}/masters/book-1/1/0001.jpg`,
      `${base}/masters/book-10/1/0001.jpg`,
    ]);
    expect((await collect(storage.list(`${base}/`))).length).toBe(5);
    expect(await collect(storage.list(`${base}/none/`))).toEqual([]);

    expect(await storage.deletePrefix(`${base}/pyramids/1/`)).toBe(2);
    expect((await collect(storage.list(`${base}/pyramids/`))).map((o) => o.key)).toEqual([
      `${base}/pyramids/12/3.tif`,
    ]);
    expect(await storage.deletePrefix(`${base}/none/`)).toBe(0);
  });

  it('refuses keys that would leave its root', async () => {
    const storage = open();
    for (const key of ['../outside', '/etc/passwd', 'a/../../b', 'a//b', '', 'a\\..\\b'])
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow(/leaves the root/);
    await expect(collect(storage.list('../'))).rejects.toThrow(/leaves the root/);
  });

  it('answers the readiness check', async () => {
    await expect(open().check()).resolves.toBeUndefined();
  });
});

describe('S3 file storage', () => {
  it('keeps libraries under different prefixes of one bucket apart', async () => {
    const a = server.storage('site-a/');
    const b = server.storage('site-b/');
    const key = `${folder()}/avatars/1.png`;
    await a.put(key, Buffer.from('a'));
    expect(await b.get(key)).toBeUndefined();
    expect(await collect(b.list(key.split('/')[0]!))).toEqual([]);
    expect((await collect(a.list(key.split('/')[0]!))).map((o) => o.key)).toEqual([key]);
  });

  it('fails its readiness check, quickly, when the store cannot be reached or the bucket is missing', async () => {
    const closed = new S3FileStorage({ ...server.options(), endpoint: 'http://127.0.0.1:9' });
    const started = Date.now();
    await expect(closed.check()).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(10_000);
    closed.close();
    const missing = new S3FileStorage({ ...server.options(), bucket: 'no-such-bucket' });
    await expect(missing.check()).rejects.toThrow();
    missing.close();
  });
});
