import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../test/s3-server.ts';
import type { PageRow } from '../db/schema.ts';
import { S3FileStorage } from '../storage/s3-storage.ts';
import { IiifImageService } from './image.service.ts';
import { makePyramid } from './pyramid.ts';
import { parseImageRequest } from './image-request.ts';

/** An S3FileStorage that counts what it is asked (the real store answers every call). */
class CountingS3Storage extends S3FileStorage {
  ranges: Array<[number, number]> = [];
  wholeReads = 0;
  override getRange(key: string, offset: number, length: number): Promise<Buffer | undefined> {
    this.ranges.push([offset, length]);
    return super.getRange(key, offset, length);
  }
  override get(key: string): Promise<Buffer | undefined> {
    this.wholeReads++;
    return super.get(key);
  }
}

describe('IIIF images from pyramids in an object store (issue 17 part 1)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-iiif-s3-'));
  const page = {
    id: 41,
    width: 1500,
    height: 1100,
    master_key: 'masters/s3-test/1/0001.png',
    pyramid_key: 'pyramids/9/41.tif',
  } as PageRow;
  let server: TestS3Server;
  let storage: CountingS3Storage;
  let onDisk: IiifImageService;
  let fromStore: IiifImageService;
  beforeAll(async () => {
    server = await startS3Server();
    storage = new CountingS3Storage(server.options('library/'));
    const master = path.join(dir, 'disk', page.master_key);
    const pyramid = path.join(dir, 'disk', page.pyramid_key!);
    fs.mkdirSync(path.dirname(master), { recursive: true });
    await sharp({ create: { width: page.width, height: page.height, channels: 3, background: '#c8b08a' } })
      .composite([
        {
          input: Buffer.from(
            '<svg width="900" height="700"><rect x="40" y="40" width="800" height="600" fill="#233"/></svg>',
          ),
        },
      ])
      .png()
      .toFile(master);
    await makePyramid(master, pyramid);
    await storage.putFile(page.master_key, master);
    await storage.putFile(page.pyramid_key!, pyramid);
    onDisk = new IiifImageService(path.join(dir, 'disk'), { cacheDir: path.join(dir, 'cache-disk') });
    fromStore = new IiifImageService(path.join(dir, 'store'), { storage });
  });
  afterAll(async () => {
    storage.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const tile = (region: string, size: string) => parseImageRequest(region, size, '0', 'default.jpg');

  it('answers a stored tile with ranged GETs only, byte for byte as from disk, and then from the cache', async () => {
    storage.ranges = [];
    storage.wholeReads = 0;
    const first = await fromStore.render(page, tile('512,0,512,512', '512,'));
    expect(first.source).toBe('tile');
    const local = await onDisk.render(page, tile('512,0,512,512', '512,'));
    expect(first.data.equals(local.data)).toBe(true);
    expect(first.etag).toBe(local.etag);
    // The structure in one block read from the file's start (iiif/pyramid.ts puts it first), then the
    // tile itself: never the whole pyramid.
    expect(storage.wholeReads).toBe(0);
    expect(storage.ranges).toHaveLength(2);
    expect(storage.ranges[0]).toEqual([0, 16 * 1024]);
    const size = fs.statSync(path.join(dir, 'disk', page.pyramid_key!)).size;
    expect(storage.ranges.reduce((n, [, length]) => n + length, 0)).toBeLessThan(size * 2);

    // Another tile of the same pyramid: the structure is kept, one GET for the tile.
    const before = storage.ranges.length;
    expect((await fromStore.render(page, tile('0,512,512,512', '512,'))).source).toBe('tile');
    expect(storage.ranges.length).toBe(before + 1);
    await fromStore.cache.idle();
    const again = await fromStore.render(page, tile('512,0,512,512', '512,'));
    expect(again.source).toBe('cache');
    expect(again.data.equals(local.data)).toBe(true);
    expect(storage.ranges.length).toBe(before + 1);
  });

  it('renders other requests (a scaled size, a crop, an edge tile) from the stored pyramid like from disk', async () => {
    storage.wholeReads = 0;
    for (const request of [
      tile('full', '300,'),
      tile('100,200,333,444', '200,'),
      tile('1024,1024,476,76', '476,'),
    ]) {
      const store = await fromStore.render(page, request);
      const disk = await onDisk.render(page, request);
      const [a, b] = await Promise.all([store.data, disk.data].map((d) => sharp(d).metadata()));
      expect([a!.width, a!.height]).toEqual([b!.width, b!.height]);
      expect(store.etag).toBe(disk.etag);
    }
    // Each from the tiles under its region (jpeg-restarts.ts), never by fetching the whole pyramid.
    expect(storage.wholeReads).toBe(0);
  });

  it('reads a never-seen region from the four tiles it touches only, one ranged GET per row of tiles', async () => {
    await fromStore.render(page, tile('0,0,512,512', '512,')); // the structure, read once
    storage.ranges = [];
    storage.wholeReads = 0;
    const region = await fromStore.render(page, tile('300,400,512,512', '512,'));
    expect(region.source).toBe('render');
    expect(storage.wholeReads).toBe(0);
    expect(storage.ranges).toHaveLength(2);
    const disk = await onDisk.render(page, tile('300,400,512,512', '512,'));
    expect(region.data.equals(disk.data)).toBe(true);
  });

  it('reads a master without a pyramid yet from the store', async () => {
    const pending = { ...page, id: 42, pyramid_key: null };
    const answer = await fromStore.render(pending, tile('full', '150,'));
    expect((await sharp(answer.data).metadata()).width).toBe(150);
  });
});
