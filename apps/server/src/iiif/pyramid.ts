import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { MAX_PAGE_PIXELS } from '../lib/image-limits.ts';
import { imageSizes, TILE_SIZE } from './image.service.ts';
import { EDGE_MAGIC, type EdgeIndex } from './tiff-tiles.ts';

/**
 * The page pyramid: a classic tiled TIFF, one image per scale factor that info.json advertises, 512²
 * JPEG tiles. Each level is `ceil(size / scale factor)` on both axes — the size the IIIF Image API gives
 * a tile at the right or bottom edge (`ceil(region / scale factor)`) — and goes down to the smallest
 * listed size, so every tile of the advertised grid is one stored tile sent as it is.
 *
 * A TIFF tile is always the full 512 px wide; the tiles of a level's last column are narrower on the
 * grid. Those are stored a second time, as JPEGs of their exact size, after the levels; an index of
 * them (JSON) is named by a 16-byte block right after the TIFF header, which TIFF readers skip (no IFD
 * points at it). The file stays a standard pyramidal TIFF that libvips, IIPImage and others read.
 */

/** JPEG quality of the stored tiles. */
const QUALITY = 88;

export interface PyramidLevel {
  width: number;
  height: number;
  /** The IIIF scale factor: a level pixel stands for scale × scale pixels of the page. */
  scale: number;
  /**
   * The level's TIFF tiles: 512², or the level's own size rounded up to a multiple of 16 (TIFF's rule)
   * on an axis where it is smaller: libvips refuses to read a small level under much larger tiles.
   */
  tileWidth: number;
  tileHeight: number;
}

/** The levels of a page's pyramid: one per scale factor of info.json, each `ceil(size / scale)`. */
export function pyramidLevels(width: number, height: number): PyramidLevel[] {
  const tileOf = (size: number) => Math.min(TILE_SIZE, Math.ceil(size / 16) * 16);
  return imageSizes(width, height).scaleFactors.map((scale) => {
    const level = { width: Math.ceil(width / scale), height: Math.ceil(height / scale) };
    return { ...level, scale, tileWidth: tileOf(level.width), tileHeight: tileOf(level.height) };
  });
}

/** Makes the pyramid of a page master (see above); written beside, then renamed into place. */
export async function makePyramid(masterFile: string, pyramidFile: string): Promise<void> {
  const meta = await sharp(masterFile, { limitInputPixels: MAX_PAGE_PIXELS }).metadata();
  // Each level is made from the level before (a quarter of the pixels to decode), the first from the
  // master. Measured on real pages: faster than scaling every level from a JPEG master, even with
  // libjpeg's scaled decoding.
  const parts: LevelPart[] = [];
  let previous: Buffer | undefined;
  for (const level of pyramidLevels(meta.width, meta.height)) {
    let image = sharp(previous ?? masterFile, { limitInputPixels: MAX_PAGE_PIXELS });
    if (level.scale > 1) image = image.resize(level.width, level.height, { fit: 'fill' });
    const tiff = await image
      .flatten({ background: '#ffffff' })
      .tiff({
        tile: true,
        compression: 'jpeg',
        quality: QUALITY,
        tileWidth: level.tileWidth,
        tileHeight: level.tileHeight,
      })
      .toBuffer();
    parts.push({ ifd: readSingleIfd(tiff), tiff, edges: await edgeTiles(tiff, level) });
    previous = tiff;
  }
  await fs.mkdir(path.dirname(pyramidFile), { recursive: true });
  const temp = `${pyramidFile}.${process.pid}.tmp`;
  await fs.writeFile(temp, composePyramid(parts));
  await fs.rename(temp, pyramidFile);
}

/**
 * The last column's tiles of a level, narrower than a TIFF tile, as JPEGs of their exact size: cut
 * from the level's own tiles (only those are decoded) and encoded again at the same quality on the same
 * 8-pixel blocks, which changes next to nothing.
 */
async function edgeTiles(levelTiff: Buffer, level: PyramidLevel): Promise<EdgeTile[]> {
  const left = Math.floor(level.width / level.tileWidth) * level.tileWidth;
  const width = level.width - left;
  if (width === 0) return [];
  const strip = await sharp(levelTiff)
    .extract({ left, top: 0, width, height: level.height })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { channels } = strip.info;
  const column = left / level.tileWidth;
  const tiles: EdgeTile[] = [];
  for (let row = 0; row * level.tileHeight < level.height; row++) {
    const top = row * level.tileHeight;
    const height = Math.min(level.tileHeight, level.height - top);
    const pixels = strip.data.subarray(top * width * channels, (top + height) * width * channels);
    const jpeg = await sharp(pixels, { raw: { width, height, channels } })
      .jpeg({ quality: QUALITY })
      .toBuffer();
    tiles.push({ column, row, data: jpeg });
  }
  return tiles;
}

interface EdgeTile {
  column: number;
  row: number;
  data: Buffer;
}

interface IfdEntry {
  tag: number;
  type: number;
  count: number;
  /** The value's bytes, little-endian. */
  value: Buffer;
}

interface LevelPart {
  ifd: IfdEntry[];
  /** The single-level TIFF the entries' tiles are in. */
  tiff: Buffer;
  edges: EdgeTile[];
}

const TYPE_SIZES: Record<number, number> = {
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
};
const TAG = { newSubfileType: 254, tileOffsets: 324, tileByteCounts: 325 } as const;
/** Tags that point into their own file (other IFDs, strips, EXIF): not carried into the pyramid. */
const POINTER_TAGS = new Set([273, 279, 330, 513, 514, 34665, 34853, 40965]);

/** The entries of the first image of a little-endian classic TIFF (what sharp writes for one level). */
function readSingleIfd(tiff: Buffer): IfdEntry[] {
  if (tiff.toString('latin1', 0, 2) !== 'II' || tiff.readUInt16LE(2) !== 42)
    throw new Error('libvips wrote a TIFF this writer does not read (expected classic little-endian)');
  const at = tiff.readUInt32LE(4);
  const count = tiff.readUInt16LE(at);
  const entries: IfdEntry[] = [];
  for (let i = 0; i < count; i++) {
    const entry = at + 2 + i * 12;
    const type = tiff.readUInt16LE(entry + 2);
    const n = tiff.readUInt32LE(entry + 4);
    const size = (TYPE_SIZES[type] ?? 1) * n;
    const from = size <= 4 ? entry + 8 : tiff.readUInt32LE(entry + 8);
    entries.push({ tag: tiff.readUInt16LE(entry), type, count: n, value: tiff.subarray(from, from + size) });
  }
  return entries;
}

/** Numbers of a LONG or SHORT entry. */
function numbers(entry: IfdEntry | undefined): number[] {
  if (!entry) return [];
  const step = entry.type === 3 ? 2 : 4;
  return Array.from({ length: entry.count }, (_, k) =>
    step === 2 ? entry.value.readUInt16LE(k * 2) : entry.value.readUInt32LE(k * 4),
  );
}

function longs(tag: number, values: number[]): IfdEntry {
  const value = Buffer.alloc(values.length * 4);
  values.forEach((v, k) => value.writeUInt32LE(v, k * 4));
  return { tag, type: 4, count: values.length, value };
}

/** Writes the levels as one TIFF: header, the edge block, each level's tiles and directory, the edge tiles. */
function composePyramid(parts: LevelPart[]): Buffer {
  const chunks: Buffer[] = [];
  let size = 0;
  /** Appends at the next even offset (TIFF values and directories start on a word boundary). */
  const append = (data: Buffer) => {
    if (size % 2) {
      chunks.push(Buffer.alloc(1));
      size += 1;
    }
    const at = size;
    chunks.push(data);
    size += data.length;
    if (size > 0xffff_ffff) throw new Error('页面金字塔超过 4 GB');
    return at;
  };
  // Header: byte order, 42, the first directory; then the edge block: magic, index offset and length.
  const header = Buffer.alloc(8 + 16);
  header.write('II', 0, 'latin1');
  header.writeUInt16LE(42, 2);
  header.write(EDGE_MAGIC, 8, 'latin1');
  append(header);
  const directories: Array<{ at: number; buffer: Buffer }> = [];
  parts.forEach((part, level) => {
    const byTag = new Map(part.ifd.map((e) => [e.tag, e]));
    const offsets = numbers(byTag.get(TAG.tileOffsets));
    const counts = numbers(byTag.get(TAG.tileByteCounts));
    const moved = offsets.map((offset, k) => append(part.tiff.subarray(offset, offset + counts[k]!)));
    const entries = part.ifd
      .filter((e) => !POINTER_TAGS.has(e.tag) && e.tag !== TAG.newSubfileType && e.tag !== TAG.tileOffsets)
      .concat(longs(TAG.newSubfileType, [level === 0 ? 0 : 1]), longs(TAG.tileOffsets, moved))
      .sort((a, b) => a.tag - b.tag);
    const buffer = directory(entries, append);
    directories.push({ at: append(buffer), buffer });
  });
  header.writeUInt32LE(directories[0]!.at, 4);
  // Each directory ends with the offset of the next level's (0 after the last).
  directories.forEach(({ buffer }, level) => {
    buffer.writeUInt32LE(directories[level + 1]?.at ?? 0, buffer.length - 4);
  });
  const index: EdgeIndex = { version: 1, levels: [] };
  parts.forEach((part, level) => {
    const tiles = part.edges.map((t): [number, number, number, number] => [
      t.column,
      t.row,
      append(t.data),
      t.data.length,
    ]);
    if (tiles.length) index.levels.push({ level, tiles });
  });
  const json = Buffer.from(JSON.stringify(index));
  header.writeUInt32LE(append(json), 16);
  header.writeUInt32LE(json.length, 20);
  return Buffer.concat(chunks, size);
}

/** A directory: its entries, values over 4 bytes appended elsewhere, and room for the next offset. */
function directory(entries: IfdEntry[], append: (data: Buffer) => number): Buffer {
  const buffer = Buffer.alloc(2 + entries.length * 12 + 4);
  buffer.writeUInt16LE(entries.length, 0);
  entries.forEach((entry, i) => {
    const at = 2 + i * 12;
    buffer.writeUInt16LE(entry.tag, at);
    buffer.writeUInt16LE(entry.type, at + 2);
    buffer.writeUInt32LE(entry.count, at + 4);
    if (entry.value.length <= 4) entry.value.copy(buffer, at + 8);
    else buffer.writeUInt32LE(append(Buffer.from(entry.value)), at + 8);
  });
  return buffer;
}
