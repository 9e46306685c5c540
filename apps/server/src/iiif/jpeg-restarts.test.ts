import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addRestartMarkers,
  assembleRegion,
  jpegSegments,
  MAX_ASSEMBLED_TILES,
  SEGMENT_WIDTH,
  type TiledLevel,
} from './jpeg-restarts.ts';
import { makePyramid } from './pyramid.ts';
import { fileSource, readTiffLevels, readTiffTile, tiledLevel, type TiffLevel } from './tiff-tiles.ts';

/** Real scans (test/fixtures/ocr-real): a grey manuscript leaf and a colour print. */
const SCANS = ['shiji-wyg-001-2a.jpg', 'shitouji-jiaxu-001-1.png'].map((name) =>
  path.resolve(import.meta.dirname, '../../test/fixtures/ocr-real', name),
);

/** A ByteSource over bytes in memory. */
const memory = (bytes: Buffer) => (at: number, length: number) =>
  Promise.resolve(bytes.subarray(at, at + length));

/** The markers of a JPEG stream up to its scan. */
const markers = (jpeg: Buffer) => [...jpegSegments(jpeg)].map((segment) => segment.marker);

/** The largest difference of two decoded images of the same size, and their mean absolute difference. */
async function difference(a: Sharp, b: Sharp): Promise<{ max: number; mean: number }> {
  const [x, y] = await Promise.all([a.raw().toBuffer(), b.raw().toBuffer()]);
  expect(x.length).toBe(y.length);
  let max = 0;
  let sum = 0;
  for (let k = 0; k < x.length; k++) {
    const d = Math.abs(x[k]! - y[k]!);
    sum += d;
    if (d > max) max = d;
  }
  return { max, mean: sum / x.length };
}

/** A seeded pseudo-random sequence (the same regions in every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('JPEG restart segments: tiles coded for partial decoding (issue 34 part 3)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-restarts-'));
  const pyramids: Array<{ file: string; levels: TiffLevel[] }> = [];
  beforeAll(async () => {
    for (const [k, scan] of SCANS.entries()) {
      const file = path.join(dir, `${k}.tif`);
      await makePyramid(scan, file);
      pyramids.push({ file, levels: await readTiffLevels(file) });
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const levelOf = (file: string, tiff: TiffLevel) => tiledLevel(fileSource(file), tiff);

  it('re-codes a libtiff tile losslessly: the same pixels, a restart marker every 64 pixels of a row', async () => {
    for (const scan of SCANS) {
      const tiff = await sharp(scan)
        .flatten({ background: '#ffffff' })
        .tiff({ tile: true, compression: 'jpeg', quality: 88, tileWidth: 512, tileHeight: 512 })
        .toBuffer();
      const [level] = await readTiffLevels(memory(tiff));
      const tables = level!.jpegTables!;
      const whole = (tile: Buffer) => Buffer.concat([tables.subarray(0, -2), tile.subarray(2)]);
      for (let index = 0; index < level!.offsets.length; index++) {
        const tile = tiff.subarray(level!.offsets[index], level!.offsets[index]! + level!.byteCounts[index]!);
        const coded = addRestartMarkers(tables, tile)!;
        expect(coded).toBeDefined();
        expect(markers(coded)).toContain(0xdd);
        // 512 px wide: 8 segments a row of blocks, 32 rows (16-pixel MCUs of 4:2:0 YCbCr).
        const restarts = [...coded.subarray(2)].filter(
          (b, k, all) => all[k - 1] === 0xff && b >= 0xd0 && b <= 0xd7,
        );
        expect(restarts).toHaveLength((512 / SEGMENT_WIDTH) * 32 - 1);
        const { max } = await difference(sharp(whole(tile)), sharp(whole(coded)));
        expect(max).toBe(0);
        expect(coded.length).toBeLessThan(tile.length * 1.1 + 1024);
      }
    }
  });

  it('stores every full-width pyramid tile with restart segments, still readable by libvips', async () => {
    for (const { file, levels } of pyramids) {
      const top = levels[0]!;
      const tile = await readTiffTile(fileSource(file), top, 0, 0);
      expect(markers(tile!)).toContain(0xdd);
      const meta = await sharp(file, { page: 0 }).metadata();
      expect([meta.width, meta.height]).toEqual([top.width, top.height]);
    }
  });

  it('puts any region of a level together from the segments it touches, decoded as the level itself', async () => {
    const next = random(34);
    for (const [k, { file, levels }] of pyramids.entries()) {
      const colour = k === 1;
      for (const tiff of levels.filter((l) => l.tileWidth % SEGMENT_WIDTH === 0)) {
        const level = levelOf(file, tiff);
        const decoded = await sharp(file, { page: tiff.index }).raw().toBuffer({ resolveWithObject: true });
        const rects = [
          { left: 0, top: 0, width: tiff.width, height: tiff.height },
          { left: tiff.width - 37, top: tiff.height - 21, width: 37, height: 21 },
          ...Array.from({ length: 6 }, () => {
            const width = 1 + Math.floor(next() * Math.min(700, tiff.width));
            const height = 1 + Math.floor(next() * Math.min(700, tiff.height));
            return {
              left: Math.floor(next() * (tiff.width - width)),
              top: Math.floor(next() * (tiff.height - height)),
              width,
              height,
            };
          }),
        ];
        for (const rect of rects) {
          const region = (await assembleRegion(level, rect))!;
          expect(region).toBeDefined();
          // Widened to whole segments across and whole rows of blocks down, never beyond the tile grid.
          expect(region.left % SEGMENT_WIDTH).toBe(0);
          expect(region.left).toBeGreaterThan(rect.left - SEGMENT_WIDTH);
          expect(region.left + region.width).toBeLessThan(rect.left + rect.width + SEGMENT_WIDTH);
          expect(region.top).toBeGreaterThan(rect.top - 16);
          const cut = sharp(region.jpeg).extract({
            ...rect,
            left: rect.left - region.left,
            top: rect.top - region.top,
          });
          const reference = sharp(decoded.data, { raw: decoded.info }).extract(rect);
          const { max, mean } = await difference(cut, reference);
          // The grey leaf decodes to the very same pixels. In colour, libtiff hands libvips chroma
          // repeated over each 2×2 block, where a JPEG decoder (and a browser showing a stored tile)
          // smooths it: a few steps at sharp colour edges, nothing on average.
          if (colour) {
            expect(max).toBeLessThanOrEqual(24);
            expect(mean).toBeLessThan(0.05);
          } else expect(max).toBe(0);
        }
      }
    }
  });

  it('leaves a region over more than MAX_ASSEMBLED_TILES tiles to libvips, without reading a tile', async () => {
    let reads = 0;
    const level: TiledLevel = {
      across: 5,
      down: 4,
      tileWidth: 512,
      tileHeight: 512,
      tables: undefined,
      row: () => {
        reads++;
        return Promise.resolve([]);
      },
    };
    expect(MAX_ASSEMBLED_TILES).toBeLessThan(20);
    expect(await assembleRegion(level, { left: 0, top: 0, width: 2560, height: 2048 })).toBeUndefined();
    expect(reads).toBe(0);
  });

  it('leaves tiles without restart segments to the caller, and tiles it cannot re-code as they are', async () => {
    const plain = await sharp(SCANS[0])
      .flatten({ background: '#ffffff' })
      .tiff({ tile: true, compression: 'jpeg', quality: 88, tileWidth: 512, tileHeight: 512 })
      .toBuffer();
    const [level] = await readTiffLevels(memory(plain));
    const tiled = tiledLevel(memory(plain), level!);
    expect(await assembleRegion(tiled, { left: 100, top: 100, width: 512, height: 512 })).toBeUndefined();
    const progressive = await sharp(SCANS[0]).resize(512, 512).jpeg({ progressive: true }).toBuffer();
    expect(addRestartMarkers(undefined, progressive)).toBeUndefined();
    const narrow = await sharp(SCANS[0]).resize(200, 200).jpeg().toBuffer();
    expect(addRestartMarkers(undefined, narrow)).toBeUndefined();
  });
});
