import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageRow } from '../db/schema.ts';
import { IiifImageService, makePyramid, TILE_SIZE } from './image.service.ts';
import { parseImageRequest } from './image-request.ts';
import { readTiffLevels, servesJpegTiles } from './tiff-tiles.ts';

/** A page with detail everywhere (so a misplaced tile shows): a colour gradient with ruled lines. */
async function makeMaster(file: string, width: number, height: number): Promise<void> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const line = x % 97 < 6 || y % 61 < 6 ? 0 : 1;
      pixels[i] = line * Math.round((255 * x) / width);
      pixels[i + 1] = line * Math.round((255 * y) / height);
      pixels[i + 2] = line * (((x >> 6) + (y >> 6)) % 2 === 0 ? 220 : 90);
    }
  }
  await sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toFile(file);
}

/** Mean absolute difference per channel value of two images of the same size. */
async function difference(a: Buffer, b: Buffer): Promise<number> {
  const [ra, rb] = await Promise.all(
    [a, b].map((x) => sharp(x).removeAlpha().raw().toBuffer({ resolveWithObject: true })),
  );
  expect(ra!.info.width).toBe(rb!.info.width);
  expect(ra!.info.height).toBe(rb!.info.height);
  let sum = 0;
  for (let i = 0; i < ra!.data.length; i++) sum += Math.abs(ra!.data[i]! - rb!.data[i]!);
  return sum / ra!.data.length;
}

describe('IIIF images from the tiled pyramid', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-iiif-'));
  const width = 2001;
  const height = 1403;
  const page = {
    id: 1,
    width,
    height,
    master_key: 'master.png',
    pyramid_key: 'pyramid.tif',
  } as PageRow;
  let service: IiifImageService;
  beforeAll(async () => {
    await makeMaster(path.join(dir, page.master_key), width, height);
    await makePyramid(path.join(dir, page.master_key), path.join(dir, page.pyramid_key!));
    service = new IiifImageService(dir);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const request = (region: string, size: string, quality = 'default.jpg') =>
    service.render(page, parseImageRequest(region, size, '0', quality));
  const sizeOf = async (data: Buffer) => {
    const meta = await sharp(data).metadata();
    return [meta.width, meta.height];
  };

  it('makes pyramids of 512² JPEG tiles whose levels halve, rounding down', async () => {
    const levels = await readTiffLevels(path.join(dir, page.pyramid_key!));
    expect(levels.map((l) => [l.width, l.height])).toEqual([
      [2001, 1403],
      [1000, 701],
      [500, 350],
    ]);
    for (const level of levels) {
      expect(level.tileWidth).toBe(TILE_SIZE);
      expect(servesJpegTiles(level)).toBe(true);
    }
  });

  it('sends every tile of the info.json grid straight from the pyramid, matching a rendered one', async () => {
    for (const scale of [1, 2]) {
      const span = TILE_SIZE * scale;
      for (let y = 0; y < height; y += span) {
        for (let x = 0; x < width; x += span) {
          const w = Math.min(span, width - x);
          const h = Math.min(span, height - y);
          const outW = Math.floor((x + w) / scale) - x / scale;
          const outH = Math.floor((y + h) / scale) - y / scale;
          const region = `${x},${y},${w},${h}`;
          const image = await request(region, `${outW},${outH}`);
          expect(await sizeOf(image.data), region).toEqual([outW, outH]);
          // Whole tiles and bottom-edge tiles go out as stored; right-edge tiles are cut to size.
          expect(image.source, region).toBe(outW === TILE_SIZE ? 'tile' : 'render');
          // The same picture as the master scaled down (two JPEG generations, and libvips halves
          // levels its own way at odd edges: a misplaced tile differs by far more).
          const reference = await sharp(path.join(dir, page.master_key))
            .extract({ left: x, top: y, width: w, height: h })
            .resize(outW, outH, { fit: 'fill' })
            .png()
            .toBuffer();
          expect(await difference(image.data, reference), region).toBeLessThan(12);
        }
      }
    }
  });

  it('renders what is not a stored tile: unaligned regions, other sizes, qualities and rotations', async () => {
    for (const [region, size, quality] of [
      ['100,100,512,512', '512,', 'default.jpg'],
      ['0,0,512,512', '256,', 'default.jpg'],
      ['0,0,512,512', '512,', 'gray.jpg'],
      ['0,0,512,512', '512,', 'default.png'],
      ['full', '125,', 'default.jpg'],
    ] as const) {
      const image = await request(region, size, quality);
      expect(image.source, `${region}/${size}/${quality}`).toBe('render');
    }
    const rotated = await service.render(page, parseImageRequest('0,0,512,512', '512,', '90', 'default.jpg'));
    expect(rotated.source).toBe('render');
  });

  it('serves a listed size from the disk cache the second time, but never keeps a one-off request', async () => {
    // 2001×1403 at scale factor 8: a size info.json lists.
    const first = await request('full', '250,');
    expect(first.source).toBe('render');
    await service.cache.idle();
    const second = await request('full', '250,');
    expect(second.source).toBe('cache');
    expect(second.etag).toBe(first.etag);

    const before = await service.cache.size();
    const oneOff = await request('10,10,300,300', '150,');
    await service.cache.idle();
    expect(oneOff.source).toBe('render');
    expect((await request('10,10,300,300', '150,')).source).toBe('render');
    expect(await service.cache.size()).toBe(before);
  });

  it('reads a rebuilt pyramid afresh once the page is invalidated', async () => {
    const id = { ...page, id: 7, pyramid_key: '7.tif' };
    await makePyramid(path.join(dir, page.master_key), path.join(dir, '7.tif'));
    const before = await service.render(id, parseImageRequest('0,0,512,512', '512,', '0', 'default.jpg'));
    // The same page rebuilt from a different master (here: the image turned upside down).
    await sharp(path.join(dir, page.master_key)).rotate(180).toFile(path.join(dir, 'turned.png'));
    await makePyramid(path.join(dir, 'turned.png'), path.join(dir, '7.tif'));
    await service.invalidate(7);
    const after = await service.render(id, parseImageRequest('0,0,512,512', '512,', '0', 'default.jpg'));
    expect(after.source).toBe('tile');
    expect(await difference(after.data, before.data)).toBeGreaterThan(20);
  });
});
