import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TILE_SIZE } from './image.service.ts';
import { makePyramid } from './pyramid.ts';
import {
  isStoredExactly,
  readJpegTile,
  readTiffLevels,
  servesJpegTiles,
  TiffFormatError,
} from './tiff-tiles.ts';

/**
 * A one-level tiled TIFF written field by field: classic or BigTIFF, either byte order, JPEG tiles
 * (YCbCr) with their tables inside each tile. Libraries scan and convert with many tools; the reader
 * must not depend on the one that makes our own pyramids.
 */
function tiledTiff(options: {
  littleEndian: boolean;
  big: boolean;
  width: number;
  height: number;
  tile: number;
  tiles: Buffer[];
}): Buffer {
  const { littleEndian: le, big, width, height, tile, tiles } = options;
  const word = big ? 8 : 4;
  const headerSize = big ? 16 : 8;
  const entries = 8;
  const ifdSize = (big ? 8 : 2) + entries * (big ? 20 : 12) + word;
  const offsetsAt = headerSize + ifdSize;
  const countsAt = offsetsAt + tiles.length * word;
  let dataAt = countsAt + tiles.length * word;
  const out = Buffer.alloc(dataAt + tiles.reduce((n, t) => n + t.length, 0));
  const u16 = (v: number, at: number) => (le ? out.writeUInt16LE(v, at) : out.writeUInt16BE(v, at));
  const u32 = (v: number, at: number) => (le ? out.writeUInt32LE(v, at) : out.writeUInt32BE(v, at));
  const u64 = (v: number, at: number) =>
    le ? out.writeBigUInt64LE(BigInt(v), at) : out.writeBigUInt64BE(BigInt(v), at);
  const wordAt = (v: number, at: number) => (big ? u64(v, at) : u32(v, at));
  out.write(le ? 'II' : 'MM', 0, 'latin1');
  if (big) {
    u16(43, 2);
    u16(8, 4);
    u16(0, 6);
    u64(headerSize, 8);
  } else {
    u16(42, 2);
    u32(headerSize, 4);
  }
  let at = headerSize;
  if (big) u64(entries, at);
  else u16(entries, at);
  at += big ? 8 : 2;
  const entry = (tag: number, type: number, count: number, value: number, inline: boolean) => {
    u16(tag, at);
    u16(type, at + 2);
    wordAt(count, at + 4);
    const valueAt = at + (big ? 12 : 8);
    if (inline && type === 3) u16(value, valueAt);
    else wordAt(value, valueAt);
    at += big ? 20 : 12;
  };
  entry(256, 3, 1, width, true);
  entry(257, 3, 1, height, true);
  entry(259, 3, 1, 7, true);
  entry(262, 3, 1, 6, true);
  entry(322, 3, 1, tile, true);
  entry(323, 3, 1, tile, true);
  entry(324, big ? 16 : 4, tiles.length, offsetsAt, false);
  entry(325, big ? 16 : 4, tiles.length, countsAt, false);
  wordAt(0, at); // no next IFD
  tiles.forEach((t, i) => {
    wordAt(dataAt, offsetsAt + i * word);
    wordAt(t.length, countsAt + i * word);
    t.copy(out, dataAt);
    dataAt += t.length;
  });
  return out;
}

/** A baseline JPEG tile of one colour with a dark mark in one corner. */
async function jpegTile(size: number, grey: number): Promise<Buffer> {
  const pixels = Buffer.alloc(size * size * 3, grey);
  for (let y = 0; y < 4; y++)
    for (let x = 0; x < 4; x++) pixels.fill(0, (y * size + x) * 3, (y * size + x) * 3 + 3);
  return sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
    .jpeg({ quality: 95, chromaSubsampling: '4:4:4' })
    .toBuffer();
}

describe('tiled TIFF reader', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tiff-tiles-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each([
    { name: 'classic, little-endian', littleEndian: true, big: false },
    { name: 'classic, big-endian', littleEndian: false, big: false },
    { name: 'BigTIFF, little-endian', littleEndian: true, big: true },
    { name: 'BigTIFF, big-endian', littleEndian: false, big: true },
  ])('reads the level and hands out each stored tile as it is ($name)', async ({ littleEndian, big }) => {
    const tiles = [await jpegTile(16, 200), await jpegTile(16, 60)];
    const file = path.join(dir, `one-${littleEndian ? 'le' : 'be'}-${big ? 'big' : 'classic'}.tif`);
    fs.writeFileSync(file, tiledTiff({ littleEndian, big, width: 32, height: 16, tile: 16, tiles }));
    const [level, ...rest] = await readTiffLevels(file);
    expect(rest).toEqual([]);
    expect(level).toMatchObject({ width: 32, height: 16, tileWidth: 16, tileHeight: 16, compression: 7 });
    expect(level!.offsets).toHaveLength(2);
    expect(servesJpegTiles(level!)).toBe(true);
    // The second tile, byte for byte (no shared tables to put in front, nothing to crop).
    expect((await readJpegTile(file, level!, 1, 0, 16))?.equals(tiles[1]!)).toBe(true);
    const second = await sharp(await readJpegTile(file, level!, 1, 0, 16))
      .raw()
      .toBuffer();
    expect(second[0]).toBeLessThan(30);
    expect(second[second.length - 1]).toBeGreaterThan(40);
    expect(second[second.length - 1]).toBeLessThan(80);
    // An edge tile holding fewer rows says so in its frame header: decoders stop there.
    expect((await sharp(await readJpegTile(file, level!, 0, 0, 10)).metadata()).height).toBe(10);
    // A tile the grid does not have.
    expect(await readJpegTile(file, level!, 0, 1, 16)).toBeUndefined();
  });

  it('refuses what is not a TIFF, and a TIFF cut short, with a Chinese message', async () => {
    const png = path.join(dir, 'page.png');
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .png()
      .toFile(png);
    await expect(readTiffLevels(png)).rejects.toThrow(new TiffFormatError('不是 TIFF 文件'));
    const whole = tiledTiff({
      littleEndian: true,
      big: false,
      width: 16,
      height: 16,
      tile: 16,
      tiles: [await jpegTile(16, 128)],
    });
    const cut = path.join(dir, 'cut.tif');
    fs.writeFileSync(cut, whole.subarray(0, 40));
    await expect(readTiffLevels(cut)).rejects.toThrow(new TiffFormatError('TIFF 文件不完整'));
  });

  it('reads our own pyramids: a level per scale factor, shared tables, exact edge tiles, decoded as the master', async () => {
    const width = 1300;
    const height = 900;
    const pixels = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 3;
        const line = x % 97 < 6 || y % 61 < 6 ? 0 : 1;
        pixels[i] = line * Math.round((255 * x) / width);
        pixels[i + 1] = line * Math.round((255 * y) / height);
        pixels[i + 2] = line * 160;
      }
    const master = path.join(dir, 'master.png');
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .png()
      .toFile(master);
    const pyramid = path.join(dir, 'pyramid.tif');
    await makePyramid(master, pyramid);
    const levels = await readTiffLevels(pyramid);
    // 1300 → 650 → 325 → 162 → 81: every size info.json lists (down to 64 px wide), rounded up.
    expect(levels.map((l) => [l.width, l.height])).toEqual(
      [1, 2, 4, 8, 16].map((s) => [Math.ceil(width / s), Math.ceil(height / s)]),
    );
    // Its structure comes first: every directory and the edge index in the file's first 16 KB, so that
    // opening it is one read (one ranged GET from an object store).
    const file = fs.readFileSync(pyramid);
    const structure: number[] = [];
    for (let at = file.readUInt32LE(4); at !== 0; at = file.readUInt32LE(at + 2 + file.readUInt16LE(at) * 12))
      structure.push(at);
    structure.push(file.readUInt32LE(16) + file.readUInt32LE(20));
    expect(structure).toHaveLength(levels.length + 1);
    expect(Math.max(...structure)).toBeLessThan(16 * 1024);
    // A standard TIFF: libvips reads every level (the edge block after the header is skipped).
    for (const [page, level] of levels.entries()) {
      const meta = await sharp(pyramid, { page }).metadata();
      expect([meta.width, meta.height, meta.pages]).toEqual([level.width, level.height, levels.length]);
    }
    const full = levels[0]!;
    expect(servesJpegTiles(full)).toBe(true);
    expect(full.jpegTables?.length).toBeGreaterThan(0);
    expect(full.offsets).toHaveLength(Math.ceil(width / TILE_SIZE) * Math.ceil(height / TILE_SIZE));
    // The bottom-right tile holds 1300 − 1024 = 276 columns and 900 − 512 = 388 rows of the page: the
    // pyramid keeps it at exactly that size beside the padded TIFF tile.
    expect(full.edges?.size).toBe(2);
    expect(isStoredExactly(full, 2, 1, width - 2 * TILE_SIZE)).toBe(true);
    expect(isStoredExactly(full, 1, 1, width - 2 * TILE_SIZE)).toBe(false);
    const corner = await readJpegTile(pyramid, full, 2, 1, height - TILE_SIZE);
    const decoded = await sharp(corner).raw().toBuffer({ resolveWithObject: true });
    expect([decoded.info.width, decoded.info.height]).toEqual([width - 2 * TILE_SIZE, height - TILE_SIZE]);
    const expected = await sharp(master)
      .extract({
        left: 2 * TILE_SIZE,
        top: TILE_SIZE,
        width: width - 2 * TILE_SIZE,
        height: height - TILE_SIZE,
      })
      .raw()
      .toBuffer();
    let sum = 0;
    const w = width - 2 * TILE_SIZE;
    for (let y = 0; y < height - TILE_SIZE; y++)
      for (let x = 0; x < w; x++)
        for (let c = 0; c < 3; c++)
          sum += Math.abs(
            decoded.data[(y * decoded.info.width + x) * 3 + c]! - expected[(y * w + x) * 3 + c]!,
          );
    expect(sum / (w * (height - TILE_SIZE) * 3)).toBeLessThan(6);
  });
});
