import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageRow } from '../db/schema.ts';
import { IiifImageService, imageSizes, TILE_SIZE } from './image.service.ts';
import { makePyramid } from './pyramid.ts';
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

  it('makes a level for every scale factor info.json lists, each ceil(size / scale), in 512² JPEG tiles', async () => {
    const levels = await readTiffLevels(path.join(dir, page.pyramid_key!));
    const { scaleFactors } = imageSizes(width, height);
    expect(scaleFactors).toEqual([1, 2, 4, 8, 16]);
    expect(levels.map((l) => [l.width, l.height])).toEqual(
      scaleFactors.map((s) => [Math.ceil(width / s), Math.ceil(height / s)]),
    );
    // Tiles are 512² until a level is smaller, then the level's size rounded up to 16 pixels.
    expect(levels.map((l) => [l.tileWidth, l.tileHeight])).toEqual([
      [512, 512],
      [512, 512],
      [512, 352],
      [256, 176],
      [128, 96],
    ]);
    for (const level of levels) expect(servesJpegTiles(level)).toBe(true);
  });

  it('sends every tile of the info.json grid at every scale factor as stored, matching a rendered one', async () => {
    const { scaleFactors } = imageSizes(width, height);
    for (const scale of scaleFactors) {
      const span = TILE_SIZE * scale;
      for (let y = 0; y < height; y += span) {
        for (let x = 0; x < width; x += span) {
          const w = Math.min(span, width - x);
          const h = Math.min(span, height - y);
          // The size the IIIF Image API gives a tile: ceil(region / scale factor).
          const outW = Math.ceil(w / scale);
          const outH = Math.ceil(h / scale);
          const region = `${x},${y},${w},${h}`;
          const image = await request(region, `${outW},${outH}`);
          expect(await sizeOf(image.data), region).toEqual([outW, outH]);
          // Whole tiles, bottom-edge tiles and the pyramid's exact right-edge tiles: nothing to render.
          expect(image.source, `${region} at 1/${scale}`).toBe('tile');
          // The same picture as the master scaled down (a misplaced tile differs by far more). From 1/8
          // down, the test page's 6-pixel rules are under a pixel wide, and JPEG's error alone on them is
          // ~11 (measured: one JPEG made straight from the master differs 10.7 at 1/8, 11.6 at 1/16).
          const reference = await sharp(path.join(dir, page.master_key))
            .extract({ left: x, top: y, width: w, height: h })
            .resize(outW, outH, { fit: 'fill' })
            .png()
            .toBuffer();
          expect(await difference(image.data, reference), region).toBeLessThan(scale < 8 ? 12 : 16);
        }
      }
    }
  });

  it('still serves an older pyramid (libvips levels, rounded down): whole tiles as stored, edges cut', async () => {
    const old = { ...page, id: 9, pyramid_key: 'libvips.tif' };
    await sharp(path.join(dir, page.master_key))
      .tiff({ tile: true, pyramid: true, compression: 'jpeg', quality: 88, tileWidth: 512, tileHeight: 512 })
      .toFile(path.join(dir, old.pyramid_key));
    const render = (region: string, size: string) =>
      service.render(old, parseImageRequest(region, size, '0', 'default.jpg'));
    expect((await render('512,512,512,512', '512,512')).source).toBe('tile');
    // Scale factor 2: libvips made the level 1000×701, so its right-edge tile holds floor(977 / 2) pixels,
    // padded in the file: decoded and cut. The size IIIF names, ceil(977 / 2), is rendered.
    const edge = await render('1024,0,977,1024', '488,512');
    expect(edge.source).toBe('render');
    expect(await sizeOf(edge.data)).toEqual([488, 512]);
    expect((await render('1024,0,977,1024', '489,512')).source).toBe('render');
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

  it('renders regions at once as one at a time: the buffers renders borrow are never shared', async () => {
    // Unaligned regions of every level, each drawn from the restart segments of the tiles under it.
    const asked = Array.from({ length: 12 }, (_, k) => {
      const scale = 2 ** (k % 3);
      const x = (k * 173) % (width - 600 * scale);
      const y = (k * 97) % (height - 600 * scale);
      return [`${x},${y},${500 * scale},${400 * scale}`, '500,'] as const;
    });
    const alone: Buffer[] = [];
    for (const [region, size] of asked) alone.push((await request(region, size)).data);
    const together = await Promise.all(asked.map(([region, size]) => request(region, size)));
    together.forEach((image, k) => {
      expect(image.source).toBe('render');
      expect(image.data.equals(alone[k]!), asked[k]!.join('/')).toBe(true);
    });
  });

  it('renders a region of the page as the master shows it', async () => {
    const region = await request('777,333,600,500', '600,');
    const master = await sharp(path.join(dir, page.master_key))
      .extract({ left: 777, top: 333, width: 600, height: 500 })
      .jpeg({ quality: 95 })
      .toBuffer();
    expect(await difference(region.data, master)).toBeLessThan(3);
  });

  it('sends a listed size as stored, keeps a listed size in another format, never a one-off request', async () => {
    // 2001×1403 at scale factor 8: info.json lists 251×176, the pyramid's level.
    expect((await request('full', '251,')).source).toBe('tile');
    const first = await request('full', '251,', 'default.png');
    expect(first.source).toBe('render');
    await service.cache.idle();
    const second = await request('full', '251,', 'default.png');
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
