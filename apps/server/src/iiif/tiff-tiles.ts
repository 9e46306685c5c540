import fs from 'node:fs/promises';
import { jpegSegments, tableSegments, type TiledLevel } from './jpeg-restarts.ts';

/**
 * Reads the structure of a tiled pyramidal TIFF (classic or BigTIFF) and hands out single JPEG tiles
 * as standalone JPEG files without decoding them: the tile's compressed data with the file's shared
 * JPEG tables put in front. A IIIF tile request that matches one stored tile is answered this way.
 */
export interface TiffLevel {
  /** The image (sharp "page") index of this level in the file. */
  index: number;
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  /** 7 = JPEG. */
  compression: number;
  /** 1 = grey, 2 = RGB, 6 = YCbCr. */
  photometric: number;
  offsets: number[];
  byteCounts: number[];
  jpegTables: Buffer | undefined;
  /**
   * Tiles of the last column kept a second time at their exact size (iiif/pyramid.ts), by tile index
   * (row × columns + column): sent instead of the padded TIFF tile.
   */
  edges?: Map<number, { offset: number; length: number }>;
}

/** Marks the block after a pyramid's TIFF header that locates its exact edge tiles (iiif/pyramid.ts). */
export const EDGE_MAGIC = 'GUJIEDGE';

const TAG = {
  width: 256,
  height: 257,
  compression: 259,
  photometric: 262,
  tileWidth: 322,
  tileHeight: 323,
  tileOffsets: 324,
  tileByteCounts: 325,
  jpegTables: 347,
} as const;

/** Bytes of one value of each TIFF field type (BYTE, ASCII, SHORT, LONG, RATIONAL, …, LONG8). */
export const TYPE_SIZES: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
  16: 8,
};
const MAX_IFDS = 64;

export class TiffFormatError extends Error {}

/**
 * Reads `length` bytes at `position` of a TIFF (fewer at its end): a local file, or a byte range of an
 * object in an object store (`FileStorage.getRange`). With `into`, a local file is read into that buffer
 * (at its start) where it is large enough; the bytes returned are then a view of it.
 */
export type ByteSource = (position: number, length: number, into?: Buffer) => Promise<Buffer>;

/** A ByteSource over a local file. */
export function fileSource(file: string): ByteSource {
  return async (position, length) => {
    const handle = await fs.open(file, 'r');
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  };
}

/**
 * A ByteSource that reads whole aligned blocks and keeps them while the structure is parsed: the header
 * and the IFDs of a pyramid (a dozen small reads next to each other) then cost a few ranged GETs — one
 * for a pyramid of iiif/pyramid.ts, whose structure lies in its first 16 KB.
 */
function blockSource(source: ByteSource, blockSize = 16 * 1024): ByteSource {
  const blocks = new Map<number, Promise<Buffer>>();
  const block = (index: number) => {
    let data = blocks.get(index);
    if (!data) {
      data = source(index * blockSize, blockSize);
      blocks.set(index, data);
    }
    return data;
  };
  return async (position, length) => {
    const parts: Buffer[] = [];
    for (let at = position; at < position + length;) {
      const index = Math.floor(at / blockSize);
      const data = await block(index);
      const from = at - index * blockSize;
      const to = Math.min(data.length, from + position + length - at);
      if (to <= from) break;
      parts.push(data.subarray(from, to));
      at += to - from;
      if (data.length < blockSize) break;
    }
    return Buffer.concat(parts);
  };
}

/** Reads every image (level) of a TIFF file; tiles, offsets and JPEG tables included. */
export async function readTiffLevels(input: string | ByteSource): Promise<TiffLevel[]> {
  const source = blockSource(typeof input === 'string' ? fileSource(input) : input);
  const read = async (position: number, length: number) => {
    const buffer = await source(position, length);
    if (buffer.length !== length) throw new TiffFormatError('TIFF 文件不完整');
    return buffer;
  };
  const header = await read(0, 16);
  const order = header.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') throw new TiffFormatError('不是 TIFF 文件');
  const le = order === 'II';
  const u16 = (b: Buffer, o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (b: Buffer, o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const u64 = (b: Buffer, o: number) => Number(le ? b.readBigUInt64LE(o) : b.readBigUInt64BE(o));
  const magic = u16(header, 2);
  if (magic !== 42 && magic !== 43) throw new TiffFormatError('不是 TIFF 文件');
  const big = magic === 43;
  const countSize = big ? 8 : 2;
  const entrySize = big ? 20 : 12;
  const inlineSize = big ? 8 : 4;
  let next = big ? u64(header, 8) : u32(header, 4);

  const levels: TiffLevel[] = [];
  for (let index = 0; next !== 0 && index < MAX_IFDS; index++) {
    const countBuffer = await read(next, countSize);
    const count = big ? u64(countBuffer, 0) : u16(countBuffer, 0);
    const table = await read(next + countSize, count * entrySize + inlineSize);
    const values = new Map<number, number[]>();
    const bytes = new Map<number, Buffer>();
    for (let i = 0; i < count; i++) {
      const at = i * entrySize;
      const tag = u16(table, at);
      const type = u16(table, at + 2);
      const n = big ? u64(table, at + 4) : u32(table, at + 4);
      const size = (TYPE_SIZES[type] ?? 1) * n;
      const valueAt = at + (big ? 12 : 8);
      const data =
        size <= inlineSize
          ? table.subarray(valueAt, valueAt + size)
          : await read(big ? u64(table, valueAt) : u32(table, valueAt), size);
      if (tag === TAG.jpegTables) {
        bytes.set(tag, Buffer.from(data));
        continue;
      }
      if (!Object.values(TAG).includes(tag as never)) continue;
      const list: number[] = [];
      for (let k = 0; k < n; k++) {
        if (type === 3) list.push(u16(data, k * 2));
        else if (type === 4) list.push(u32(data, k * 4));
        else if (type === 16) list.push(u64(data, k * 8));
        else if (type === 1) list.push(data[k]!);
      }
      values.set(tag, list);
    }
    next = big ? u64(table, count * entrySize) : u32(table, count * entrySize);
    const one = (tag: number) => values.get(tag)?.[0] ?? 0;
    levels.push({
      index,
      width: one(TAG.width),
      height: one(TAG.height),
      tileWidth: one(TAG.tileWidth),
      tileHeight: one(TAG.tileHeight),
      compression: one(TAG.compression),
      photometric: one(TAG.photometric),
      offsets: values.get(TAG.tileOffsets) ?? [],
      byteCounts: values.get(TAG.tileByteCounts) ?? [],
      jpegTables: bytes.get(TAG.jpegTables),
    });
  }
  if (levels.length === 0 || levels[0]!.width === 0) throw new TiffFormatError('TIFF 文件没有图像');
  // A damaged edge index costs only the exact edge tiles: those are then cut from the padded TIFF tiles.
  if (!big && u32(header, 4) >= 24) await readEdges(read, levels).catch(() => undefined);
  return levels;
}

/**
 * Attaches a pyramid's exact edge tiles to its levels, when the file has them: the block after the
 * header names the index, which holds the number of levels, then for each level its number, its count
 * of tiles and each tile's column, row, offset and length (little-endian 32-bit, iiif/pyramid.ts).
 */
async function readEdges(read: (position: number, length: number) => Promise<Buffer>, levels: TiffLevel[]) {
  const block = await read(8, 16);
  if (block.toString('latin1', 0, 8) !== EDGE_MAGIC) return;
  const index = await read(block.readUInt32LE(8), block.readUInt32LE(12));
  let at = 0;
  const u32 = () => {
    if (at + 4 > index.length) throw new TiffFormatError('金字塔边缘图块索引不完整');
    const value = index.readUInt32LE(at);
    at += 4;
    return value;
  };
  for (let n = u32(); n > 0; n--) {
    const target = levels[u32()];
    const count = u32();
    const edges = new Map<number, { offset: number; length: number }>();
    for (let k = 0; k < count; k++) {
      const [column, row, offset, length] = [u32(), u32(), u32(), u32()];
      if (target?.tileWidth) edges.set(row * tilesAcross(target) + column, { offset, length });
    }
    if (target && edges.size) target.edges = edges;
  }
}

/** How many tiles a row of the level has. */
export function tilesAcross(level: TiffLevel): number {
  return Math.ceil(level.width / level.tileWidth);
}

/** A level's TIFF tiles as the region assembler (jpeg-restarts.ts) reads them, through `source`. */
export function tiledLevel(source: ByteSource, level: TiffLevel): TiledLevel {
  return {
    across: tilesAcross(level),
    down: Math.ceil(level.height / level.tileHeight),
    tileWidth: level.tileWidth,
    tileHeight: level.tileHeight,
    tables: level.jpegTables,
    row: (row, first, last, take) => readTiffTileRow(source, level, row, first, last, take),
  };
}

/** Whether the level's tiles are JPEG streams a browser decodes as they are. */
export function servesJpegTiles(level: TiffLevel): boolean {
  return (
    level.compression === 7 &&
    (level.photometric === 6 || level.photometric === 1) &&
    level.tileWidth > 0 &&
    level.tileHeight > 0 &&
    level.offsets.length === tilesAcross(level) * Math.ceil(level.height / level.tileHeight)
  );
}

const SOI = 0xd8;

/** Whether the stored tile (column, row) is sent as it is for a tile `width` pixels wide. */
export function isStoredExactly(level: TiffLevel, column: number, row: number, width: number): boolean {
  return width === level.tileWidth || Boolean(level.edges?.has(row * tilesAcross(level) + column));
}

/**
 * The stored tile (column, row) of a level as a standalone JPEG: its exact copy when the pyramid keeps
 * one (a last-column tile, iiif/pyramid.ts), else the TIFF tile. A tile at the bottom edge is stored
 * padded to the full tile height; `height` (the image rows it really holds) is written into the frame
 * header, so decoders stop after those rows. Returns undefined for a tile that is not there.
 */
export async function readJpegTile(
  input: string | ByteSource,
  level: TiffLevel,
  column: number,
  row: number,
  height: number,
): Promise<Buffer | undefined> {
  const index = row * tilesAcross(level) + column;
  const source = typeof input === 'string' ? fileSource(input) : input;
  const edge = level.edges?.get(index);
  if (edge) {
    const exact = await source(edge.offset, edge.length);
    return exact.length === edge.length ? exact : undefined;
  }
  const tile = await readTiffTile(source, level, column, row);
  if (!tile) return undefined;
  const tables = level.jpegTables;
  const jpeg =
    tables && tables.length > 4 && tables[0] === 0xff && tables[1] === SOI
      ? // SOI + the tables (without their SOI and EOI) + the tile's own markers and data (without SOI).
        Buffer.concat([tables.subarray(0, 2), tableSegments(tables), tile.subarray(2)])
      : tile;
  return setFrameHeight(jpeg, height) ? jpeg : undefined;
}

/**
 * The TIFF tile (column, row) of a level as it is stored: a JPEG stream that needs the file's
 * JPEGTables, padded to the full tile size at the right and bottom edges. Undefined if it is not there.
 */
export async function readTiffTile(
  source: ByteSource,
  level: TiffLevel,
  column: number,
  row: number,
): Promise<Buffer | undefined> {
  const index = row * tilesAcross(level) + column;
  const offset = level.offsets[index];
  const length = level.byteCounts[index];
  if (offset === undefined || !length) return undefined;
  const tile = await source(offset, length);
  if (tile.length !== length || tile[0] !== 0xff || tile[1] !== SOI) return undefined;
  return tile;
}

/** Bytes between a row's tiles that readTiffTileRow still reads through rather than reading each tile apart. */
const ROW_GAP_BYTES = 4096;

/**
 * The TIFF tiles `first`…`last` of a row of a level, as readTiffTile gives them: in one read where they
 * lie one after another in the file (as in our pyramids, with at most a byte of padding between), else
 * one read each. `take` lends the buffer the row is read into (a local file).
 */
export async function readTiffTileRow(
  source: ByteSource,
  level: TiffLevel,
  row: number,
  first: number,
  last: number,
  take?: (size: number) => Buffer,
): Promise<Array<Buffer | undefined>> {
  const at = row * tilesAcross(level);
  const offsets = level.offsets.slice(at + first, at + last + 1);
  const counts = level.byteCounts.slice(at + first, at + last + 1);
  const together =
    offsets.length === last - first + 1 &&
    counts.every((n) => n > 0) &&
    offsets.every(
      (o, k) =>
        k === 0 ||
        (o >= offsets[k - 1]! + counts[k - 1]! && o - offsets[k - 1]! - counts[k - 1]! <= ROW_GAP_BYTES),
    );
  if (!together) return Promise.all(offsets.map((_, k) => readTiffTile(source, level, first + k, row)));
  const start = offsets[0]!;
  const length = offsets.at(-1)! + counts.at(-1)! - start;
  const bytes = await source(start, length, take?.(length));
  if (bytes.length !== length) return offsets.map(() => undefined);
  return offsets.map((offset, k) => {
    const tile = bytes.subarray(offset - start, offset - start + counts[k]!);
    return tile[0] === 0xff && tile[1] === SOI ? tile : undefined;
  });
}

/** Writes `height` into the JPEG's frame header (SOF0–SOF2); false when there is none to be found. */
function setFrameHeight(jpeg: Buffer, height: number): boolean {
  for (const { marker, at } of jpegSegments(jpeg)) {
    if (marker >= 0xc0 && marker <= 0xc2) {
      if (at + 9 > jpeg.length) return false;
      if (height < jpeg.readUInt16BE(at + 5)) jpeg.writeUInt16BE(height, at + 5);
      return true;
    }
  }
  // None before the scan (or the stream's end).
  return false;
}
