import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { MAX_PAGE_PIXELS } from '../lib/image-limits.ts';
import { imageSizes, TILE_SIZE } from './image.service.ts';
import { addRestartMarkers, hasRestartSegments, SEGMENT_WIDTH } from './jpeg-restarts.ts';
import { EDGE_MAGIC, readTiffLevels, readTiffTile, TYPE_SIZES, type ByteSource } from './tiff-tiles.ts';

/**
 * The page pyramid: a classic tiled TIFF, one image per scale factor that info.json advertises, 512²
 * JPEG tiles. Each level is `ceil(size / scale factor)` on both axes — the size the IIIF Image API gives
 * a tile at the right or bottom edge (`ceil(region / scale factor)`) — and goes down to the smallest
 * listed size, so every tile of the advertised grid is one stored tile sent as it is.
 *
 * A TIFF tile is always the full 512 px wide; the tiles of a level's last column are narrower on the
 * grid. Those are stored a second time, as JPEGs of their exact size, after the levels; an index of
 * them is named by a 16-byte block right after the TIFF header, which TIFF readers skip (no directory
 * points at it). The file stays a standard pyramidal TIFF that libvips, IIPImage and others read.
 *
 * Each TIFF tile carries a JPEG restart marker every 64 pixels of its rows of blocks (jpeg-restarts.ts,
 * lossless, ~3 % larger), so that a region is later decoded from only the 64-pixel segments it touches.
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

/**
 * Whether a stored pyramid is of the kind makePyramid makes now: a level for every scale factor, each
 * `ceil(size / scale)`; exact edge tiles where the first level's last column is narrower; restart segments
 * in its full-width tiles. False for anything else (libvips' own pyramids, those made before the restart
 * segments, a file that is not a TIFF): `npm run cli -- pyramids` makes those again.
 */
export async function isCurrentPyramid(source: ByteSource): Promise<boolean> {
  const levels = await readTiffLevels(source).catch(() => []);
  const top = levels[0];
  if (!top) return false;
  const expected = pyramidLevels(top.width, top.height);
  if (
    levels.length !== expected.length ||
    levels.some((level, k) => level.width !== expected[k]!.width || level.height !== expected[k]!.height)
  )
    return false;
  if (top.width % top.tileWidth !== 0 && !top.edges) return false;
  if (top.tileWidth % SEGMENT_WIDTH !== 0) return true;
  const tile = await readTiffTile(source, top, 0, 0);
  return tile !== undefined && hasRestartSegments(top.jpegTables, tile);
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
    const ifd = readSingleIfd(tiff);
    parts.push({ ifd, tiles: await segmentedTiles(tiff, ifd), edges: await edgeTiles(tiff, level) });
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
  /** The level's tiles in TIFF order, as they are to be stored. */
  tiles: Buffer[];
  edges: EdgeTile[];
}

const TAG = { newSubfileType: 254, tileOffsets: 324, tileByteCounts: 325, jpegTables: 347 } as const;

/** Pause for other work (requests, when jobs run in the web process) after this much transcoding. */
const TRANSCODE_SLICE_MS = 10;

/**
 * The tiles of a single-level TIFF, each with restart markers added where it can have them (a tile
 * that cannot stays as it was). Yields to the event loop between slices of work.
 */
async function segmentedTiles(tiff: Buffer, ifd: IfdEntry[]): Promise<Buffer[]> {
  const byTag = new Map(ifd.map((e) => [e.tag, e]));
  const offsets = numbers(byTag.get(TAG.tileOffsets));
  const counts = numbers(byTag.get(TAG.tileByteCounts));
  const tables = byTag.get(TAG.jpegTables)?.value;
  const tiles: Buffer[] = [];
  let slice = performance.now();
  for (const [k, offset] of offsets.entries()) {
    const tile = tiff.subarray(offset, offset + counts[k]!);
    tiles.push(addRestartMarkers(tables, tile) ?? tile);
    if (performance.now() - slice > TRANSCODE_SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
  return tiles;
}
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

/**
 * Writes the levels as one TIFF, its structure first (as a cloud-optimised GeoTIFF does): the header and
 * edge block, every level's directory with its values, the edge index, then the tiles of every level and
 * the exact edge tiles. Opening a page's pyramid then reads one block from its start, from disk or an
 * object store.
 */
function composePyramid(parts: LevelPart[]): Buffer {
  let cursor = 0;
  /** Reserves `size` bytes at the next even offset (TIFF values and directories start on a word). */
  const reserve = (size: number) => {
    cursor += cursor % 2;
    const at = cursor;
    cursor += size;
    if (cursor > 0xffff_ffff) throw new Error('页面金字塔超过 4 GB');
    return at;
  };
  reserve(HEADER_SIZE);
  const directories = parts.map((part, level) => {
    const entries = part.ifd
      .filter((e) => !POINTER_TAGS.has(e.tag) && e.tag !== TAG.newSubfileType)
      .concat(longs(TAG.newSubfileType, [level === 0 ? 0 : 1]))
      .map((e) =>
        e.tag === TAG.tileOffsets
          ? longs(TAG.tileOffsets, new Array<number>(e.count).fill(0))
          : e.tag === TAG.tileByteCounts
            ? longs(
                TAG.tileByteCounts,
                part.tiles.map((tile) => tile.length),
              )
            : e,
      )
      .sort((a, b) => a.tag - b.tag);
    const at = reserve(2 + entries.length * 12 + 4);
    const valuesAt = entries.map((e) => (e.value.length > 4 ? reserve(e.value.length) : undefined));
    return { entries, at, valuesAt };
  });
  const index = { at: reserve(edgeIndexSize(parts)), size: edgeIndexSize(parts) };
  const tilesAt = parts.map((part) => part.tiles.map((tile) => reserve(tile.length)));
  const edgesAt = parts.map((part) => part.edges.map((tile) => reserve(tile.data.length)));

  const file = Buffer.alloc(cursor);
  file.write('II', 0, 'latin1');
  file.writeUInt16LE(42, 2);
  file.writeUInt32LE(directories[0]!.at, 4);
  file.write(EDGE_MAGIC, 8, 'latin1');
  file.writeUInt32LE(index.at, 16);
  file.writeUInt32LE(index.size, 20);
  directories.forEach(({ entries, at, valuesAt }, level) => {
    file.writeUInt16LE(entries.length, at);
    entries.forEach((entry, i) => {
      const value =
        entry.tag === TAG.tileOffsets ? longs(TAG.tileOffsets, tilesAt[level]!).value : entry.value;
      const slot = at + 2 + i * 12;
      file.writeUInt16LE(entry.tag, slot);
      file.writeUInt16LE(entry.type, slot + 2);
      file.writeUInt32LE(entry.count, slot + 4);
      const out = valuesAt[i];
      if (out === undefined) value.copy(file, slot + 8);
      else {
        file.writeUInt32LE(out, slot + 8);
        value.copy(file, out);
      }
    });
    // Each directory ends with the offset of the next level's (0 after the last).
    file.writeUInt32LE(directories[level + 1]?.at ?? 0, at + 2 + entries.length * 12);
  });
  parts.forEach((part, level) => {
    part.tiles.forEach((tile, k) => tile.copy(file, tilesAt[level]![k]));
    part.edges.forEach((tile, k) => tile.data.copy(file, edgesAt[level]![k]));
  });
  writeEdgeIndex(file, index.at, parts, edgesAt);
  return file;
}

/** The 8-byte header, then the edge block: the magic, the edge index's offset and length. */
const HEADER_SIZE = 8 + 16;

/** Bytes of the edge index: levels, then per level its number, count and 16 bytes a tile. */
function edgeIndexSize(parts: LevelPart[]): number {
  return 4 + parts.reduce((sum, part) => sum + 8 + part.edges.length * 16, 0);
}

/** The edge index (tiff-tiles.ts reads it): per level, each exact tile's column, row, offset and length. */
function writeEdgeIndex(file: Buffer, at: number, parts: LevelPart[], edgesAt: number[][]): void {
  let cursor = at;
  const u32 = (value: number) => {
    file.writeUInt32LE(value, cursor);
    cursor += 4;
  };
  u32(parts.length);
  parts.forEach((part, level) => {
    u32(level);
    u32(part.edges.length);
    part.edges.forEach((tile, k) => {
      u32(tile.column);
      u32(tile.row);
      u32(edgesAt[level]![k]!);
      u32(tile.data.length);
    });
  });
}
