import { createHash } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import type { ImagePage } from '../db/schema.ts';
import { THUMBNAIL_REQUEST } from './addresses.ts';
import { MAX_PAGE_PIXELS } from '../lib/image-limits.ts';
import { DiskCache } from './disk-cache.ts';
import { OpenFiles } from './open-files.ts';
import {
  canonicalPath,
  isGridRequest,
  LIMITS,
  parseImageRequest,
  resolveRequest,
  type Format,
  type ImageRequest,
  type Limits,
  type ResolvedRequest,
} from './image-request.ts';
import { BufferPool } from './buffer-pool.ts';
import { assembleRegion } from './jpeg-restarts.ts';
import { RenderGate } from './render-gate.ts';
import { LocalFileStorage, type FileStorage } from '../storage/storage.ts';
import {
  fileSource,
  isStoredExactly,
  readJpegTile,
  readTiffLevels,
  tiledLevel,
  servesJpegTiles,
  type ByteSource,
  type TiffLevel,
} from './tiff-tiles.ts';

/** The tile size of the pyramids and of info.json. */
export const TILE_SIZE = 512;

/**
 * The sizes info.json lists for an image and the tiles' scale factors, smallest size first: one per
 * power of two while the image is still at least 64 px wide, each `ceil(size / scale factor)` — the
 * levels of the page's pyramid (iiif/pyramid.ts), so a listed size is sent as stored.
 */
export function imageSizes(
  width: number,
  height: number,
): { sizes: Array<{ width: number; height: number }>; scaleFactors: number[] } {
  const sizes = [];
  const scaleFactors = [];
  for (let scale = 1; Math.floor(width / scale) >= 64; scale *= 2) {
    sizes.unshift({ width: Math.ceil(width / scale), height: Math.ceil(height / scale) });
    scaleFactors.push(scale);
  }
  return { sizes, scaleFactors };
}

const THUMBNAIL = parseImageRequest(...THUMBNAIL_REQUEST);

/**
 * The least output area an upscaled (`^`) or arbitrarily rotated request may have, by who asks: a
 * visitor without a session 4 Mpx (2000²), a signed-in reader 16 Mpx (4000²). The page's own area
 * raises the figure (never above LIMITS.maxArea): such a request may always be as large as the page.
 */
export const FREE_FORM_AREA = { visitor: 4_000_000, reader: 16_000_000 } as const;

/** The most output pixels an upscaled or arbitrarily rotated request of a page may have. */
export function freeFormMaxArea(page: Pick<ImagePage, 'width' | 'height'>, signedIn: boolean): number {
  const base = signedIn ? FREE_FORM_AREA.reader : FREE_FORM_AREA.visitor;
  return Math.min(LIMITS.maxArea, Math.max(page.width * page.height, base));
}

/**
 * The limits info.json advertises for a page, the same for every client (info.json is cached
 * publicly): maxArea is what anyone may ask for (the visitor's free-form figure), and `^max` scales
 * to it. Signed-in readers may ask explicit upscaled sizes beyond it, which IIIF allows a server.
 */
export function pageLimits(page: Pick<ImagePage, 'width' | 'height'>): Limits {
  return { ...LIMITS, maxArea: freeFormMaxArea(page, false) };
}

const CONTENT_TYPES: Record<Format, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

export interface RenderedImage {
  data: Buffer;
  contentType: string;
  etag: string;
  /**
   * Where the bytes came from: `tile` a stored pyramid tile sent as it is (no decoding), `cache` the
   * disk cache, `render` decoded, scaled and encoded for this request.
   */
  source: 'tile' | 'cache' | 'render';
}

interface Level {
  page: number;
  width: number;
  height: number;
  /** The level's TIFF structure when its tiles can be sent as they are. */
  tiff?: TiffLevel;
}

/** A request that is exactly one stored tile of a pyramid level (or its top-left part at an edge). */
interface TileMatch {
  level: Level & { tiff: TiffLevel };
  column: number;
  row: number;
  width: number;
  height: number;
}

/**
 * Makes IIIF image responses from a page's tiled pyramidal TIFF (or its master while the pyramid is
 * being made): reads the smallest pyramid level that still has enough pixels, crops, scales, mirrors,
 * rotates, converts quality and encodes. Keeps the responses viewers ask for again and again (the
 * tile grid, the listed sizes, the thumbnail) in a disk cache under DATA_DIR bounded in bytes.
 * Pyramids in an object store are read by byte range: their structure once (kept per key), then each
 * stored tile's bytes, which the disk cache then keeps too.
 */
export class IiifImageService {
  private readonly levels = new Map<string, Promise<Level[]>>();
  /** Pyramids on local disk stay open between tile reads. */
  private readonly files = new OpenFiles();
  private readonly cacheDir: string;
  private readonly storage: FileStorage;
  readonly cache: DiskCache;
  /** Renders at once and waiting; stored tiles and cache hits never pass through it. */
  readonly gate: RenderGate;
  /** Scratch buffers for renders' tiles and assembled regions. */
  private readonly buffers = new BufferPool();

  constructor(
    dataDir: string,
    options: {
      cacheDir?: string;
      maxCacheBytes?: number | undefined;
      renderConcurrency?: number;
      renderQueue?: number;
      /** Where masters and pyramids are; default local disk under `dataDir`. */
      storage?: FileStorage;
    } = {},
  ) {
    this.storage = options.storage ?? new LocalFileStorage(dataDir);
    this.cacheDir = options.cacheDir ?? path.join(dataDir, 'cache', 'iiif');
    this.cache = new DiskCache(this.cacheDir, options.maxCacheBytes);
    this.gate = new RenderGate(options.renderConcurrency, options.renderQueue);
  }

  /**
   * A request in pixels of a page: `^max` scales to the limits info.json advertises for the page;
   * every other size is judged against the server's limits (and, for free-form output, by the route
   * against the asker's free-form cap). Throws 400 for what cannot be resolved.
   */
  resolve(page: Pick<ImagePage, 'width' | 'height'>, request: ImageRequest): ResolvedRequest {
    const limits = request.size.kind === 'max' ? pageLimits(page) : LIMITS;
    return resolveRequest(request, page.width, page.height, limits);
  }

  /** Whether a request asks for exactly the thumbnail every list and manifest shows of a page. */
  isThumbnail(page: ImagePage, request: ImageRequest): boolean {
    try {
      const canonical = (r: ImageRequest) => canonicalPath(this.resolve(page, r), r, page.width, page.height);
      return canonical(request) === canonical(THUMBNAIL);
    } catch {
      return false;
    }
  }

  /** Whether a response is worth keeping: a tile or listed size of info.json, or the thumbnail. */
  keeps(page: ImagePage, request: ImageRequest, resolved: ResolvedRequest): boolean {
    const { scaleFactors } = imageSizes(page.width, page.height);
    return (
      isGridRequest(resolved, request, page.width, page.height, TILE_SIZE, scaleFactors) ||
      this.isThumbnail(page, request)
    );
  }

  /** The ETag a request will carry, known before any rendering (for If-None-Match). */
  describe(page: ImagePage, request: ImageRequest): { etag: string; cacheFile: string; contentType: string } {
    const resolved = this.resolve(page, request);
    const canonical = canonicalPath(resolved, request, page.width, page.height);
    const source = page.pyramid_key ?? page.master_key;
    const digest = createHash('sha1').update(`${source}|${canonical}`).digest('hex');
    return {
      etag: `"${digest.slice(0, 27)}"`,
      cacheFile: path.join(this.cacheDir, String(page.id), `${digest}.${request.format}`),
      contentType: CONTENT_TYPES[request.format],
    };
  }

  async render(page: ImagePage, request: ImageRequest): Promise<RenderedImage> {
    const resolved = this.resolve(page, request);
    const { etag, cacheFile, contentType } = this.describe(page, request);
    const key = page.pyramid_key ?? page.master_key;
    const file = this.sourceOf(key);
    const levels = await this.levelsOf(key);
    const tile = matchTile(resolved, request, page, levels);
    const keep = this.keeps(page, request, resolved);
    // A whole stored tile is sent as it is: from local disk as fast as a cache file, and nothing to
    // keep; from an object store one ranged GET, kept in the disk cache for the next time.
    const remote = this.storage.kind !== 'local';
    if (tile && isStoredExactly(tile.level.tiff, tile.column, tile.row, tile.width)) {
      const cached = remote ? await this.cache.read(cacheFile) : undefined;
      if (cached) return { data: cached, contentType, etag, source: 'cache' };
      const data = await readJpegTile(file, tile.level.tiff, tile.column, tile.row, tile.height);
      if (data && remote) this.cache.write(cacheFile, data);
      if (data) return { data, contentType, etag, source: 'tile' };
    }
    const cached = keep ? await this.cache.read(cacheFile) : undefined;
    if (cached) return { data: cached, contentType, etag, source: 'cache' };
    // A tile at the right edge of an older pyramid (made before iiif/pyramid.ts kept exact edge tiles)
    // is stored padded: decode only that tile (one 512² JPEG, as cheap as a file read, so it does not
    // wait for renders) and cut it to size.
    const stored = tile && (await readJpegTile(file, tile.level.tiff, tile.column, tile.row, tile.height));
    const data = stored
      ? await sharp(stored)
          .extract({ left: 0, top: 0, width: tile.width, height: tile.height })
          .jpeg({ quality: 85, optimiseCoding: false })
          .toBuffer()
      : // Anything else decodes and encodes: at most a few at once, so that file reads stay quick.
        await this.gate.run(async () => this.draw(key, file, levels, page, request, resolved));
    // The client need not wait for the cache write; a failed write only means rendering again later.
    if (keep) this.cache.write(cacheFile, data);
    return { data, contentType, etag, source: 'render' };
  }

  /**
   * Decodes, crops, scales, mirrors, rotates, converts and encodes the answer to a request. The level's
   * part under the region is put together from the restart segments of its tiles (jpeg-restarts.ts)
   * and decoded as one small JPEG; a pyramid without them is read through libvips as a whole level.
   */
  private async draw(
    key: string,
    source: ByteSource,
    levels: Level[],
    page: ImagePage,
    request: ImageRequest,
    resolved: ResolvedRequest,
  ): Promise<Buffer> {
    const { region, width, height } = resolved;
    // The smallest level whose pixels still cover the output without upscaling.
    const scale = Math.min(width / region.w, height / region.h);
    const level = [...levels].reverse().find((l) => l.width / page.width >= scale * 0.999) ?? levels[0]!;
    const fx = level.width / page.width;
    const fy = level.height / page.height;
    const left = Math.min(level.width - 1, Math.floor(region.x * fx));
    const top = Math.min(level.height - 1, Math.floor(region.y * fy));
    const extract = {
      left,
      top,
      width: Math.max(1, Math.min(level.width - left, Math.round(region.w * fx))),
      height: Math.max(1, Math.min(level.height - top, Math.round(region.h * fy))),
    };
    // The tiles and the assembled JPEG go into buffers lent for this render (buffer-pool.ts).
    const buffers = this.buffers.lender();
    try {
      const assembled =
        level.tiff && (await assembleRegion(tiledLevel(source, level.tiff), extract, buffers.take));
      let image = (
        assembled
          ? sharp(assembled.jpeg, { limitInputPixels: MAX_PAGE_PIXELS }).extract({
              ...extract,
              left: extract.left - assembled.left,
              top: extract.top - assembled.top,
            })
          : sharp(await this.inputOf(key), { page: level.page, limitInputPixels: MAX_PAGE_PIXELS }).extract(
              extract,
            )
      ).resize(width, height, { fit: 'fill' });
      if (request.rotation.mirror) image = image.flop();
      if (request.rotation.degrees !== 0) {
        const background = request.format === 'jpg' ? '#ffffff' : { r: 255, g: 255, b: 255, alpha: 0 };
        image = sharp(await image.png().toBuffer()).rotate(request.rotation.degrees, { background });
      }
      if (request.quality === 'gray') image = image.grayscale();
      if (request.quality === 'bitonal') image = image.grayscale().threshold(128);
      switch (request.format) {
        case 'jpg':
          // Huffman optimisation costs about a third of the encode time for ~10% smaller tiles.
          image = image.flatten({ background: '#ffffff' }).jpeg({ quality: 85, optimiseCoding: false });
          break;
        case 'png':
          image = image.png({ compressionLevel: 6 });
          break;
        case 'webp':
          image = image.webp({ quality: 85 });
          break;
      }
      return await image.toBuffer();
    } finally {
      buffers.giveBack();
    }
  }

  /** Forgets cached responses and the pyramid structure of a page (its image changed). */
  async invalidate(pageId: number): Promise<void> {
    // A page's pyramids are `<page id>.tif`, and `<page id>.<build>.tif` once rebuilt.
    for (const key of this.levels.keys())
      if (path.posix.basename(key).split('.')[0] === String(pageId)) this.forget(key);
    await this.cache.removeFolder(String(pageId));
  }

  /** Forgets what is kept of one stored pyramid or master: its structure and its open file. */
  forget(key: string): void {
    this.levels.delete(key);
    const local = this.storage.localPath(key);
    if (local) this.files.forget(local);
  }

  /** Closes the pyramid files kept open (the process is shutting down). */
  close(): void {
    this.files.close();
  }

  /** Byte ranges of a stored file: read from disk directly, or ranged GETs from an object store. */
  private sourceOf(key: string): ByteSource {
    const local = this.storage.localPath(key);
    return local ? this.files.source(local) : storedFileSource(this.storage, key);
  }

  /** What sharp decodes: the file's path on local disk, or its bytes fetched from an object store. */
  private async inputOf(key: string): Promise<string | Buffer> {
    const local = this.storage.localPath(key);
    if (local) return local;
    const data = await this.storage.get(key);
    if (!data) throw new Error(`Stored file missing: ${key}`);
    return data;
  }

  private levelsOf(key: string): Promise<Level[]> {
    let levels = this.levels.get(key);
    if (!levels) {
      levels = readLevels(key, this.sourceOf(key), () => this.inputOf(key));
      levels.catch(() => this.levels.delete(key));
      this.levels.set(key, levels);
      if (this.levels.size > 5000) this.levels.delete(this.levels.keys().next().value!);
    }
    return levels;
  }
}

/** Byte ranges of a stored file, local or in an object store (each read opens the file anew). */
export function storedFileSource(storage: FileStorage, key: string): ByteSource {
  const local = storage.localPath(key);
  if (local) return fileSource(local);
  return async (position, length) => {
    const data = await storage.getRange(key, position, length);
    if (!data) throw new Error(`Stored file missing: ${key}`);
    return data;
  };
}

/**
 * The stored tile a request asks for, if it asks for exactly one: format jpg, quality default or
 * color, no rotation or mirroring, the region aligned to the tile grid of the level whose scale
 * factor (a power of two) it uses, and the size that level holds for it. Pyramids made by
 * iiif/pyramid.ts hold `ceil(size / scale)` at each level, the size IIIF gives an edge tile; older
 * ones (libvips) hold `floor`, so a client asking for the ceiling at an odd edge gets a rendered answer.
 */
function matchTile(
  resolved: ResolvedRequest,
  request: ImageRequest,
  page: ImagePage,
  levels: Level[],
): TileMatch | undefined {
  if (request.format !== 'jpg' || (request.quality !== 'default' && request.quality !== 'color')) return;
  if (request.rotation.degrees !== 0 || request.rotation.mirror) return;
  const { region, width, height } = resolved;
  for (const level of levels) {
    const tiff = level.tiff;
    if (!tiff) continue;
    const scale = 2 ** Math.round(Math.log2(page.width / level.width));
    const round = levelRounding(page, level, scale);
    if (!round) continue;
    const spanX = tiff.tileWidth * scale;
    const spanY = tiff.tileHeight * scale;
    if (region.x % spanX !== 0 || region.y % spanY !== 0) continue;
    const column = region.x / spanX;
    const row = region.y / spanY;
    const tileWidth = Math.min(tiff.tileWidth, level.width - column * tiff.tileWidth);
    const tileHeight = Math.min(tiff.tileHeight, level.height - row * tiff.tileHeight);
    if (tileWidth <= 0 || tileHeight <= 0 || width !== tileWidth || height !== tileHeight) continue;
    // At the right and bottom edges a level pixel stands for the full-resolution pixels that remain.
    const coversX =
      region.w === tileWidth * scale ||
      (region.x + region.w === page.width && round(region.w / scale) === tileWidth);
    const coversY =
      region.h === tileHeight * scale ||
      (region.y + region.h === page.height && round(region.h / scale) === tileHeight);
    if (!coversX || !coversY) continue;
    return { level: { ...level, tiff }, column, row, width, height };
  }
  return undefined;
}

/** How a level's size was rounded from the page's at this scale factor; undefined if it is no such level. */
function levelRounding(page: ImagePage, level: Level, scale: number): ((x: number) => number) | undefined {
  for (const round of [Math.ceil, Math.floor])
    if (round(page.width / scale) === level.width && round(page.height / scale) === level.height)
      return round;
  return undefined;
}

async function readLevels(
  key: string,
  source: ByteSource,
  input: () => Promise<string | Buffer>,
): Promise<Level[]> {
  if (/\.tiff?$/i.test(key)) {
    try {
      const tiff = await readTiffLevels(source);
      return tiff.map((t) => ({
        page: t.index,
        width: t.width,
        height: t.height,
        ...(servesJpegTiles(t) ? { tiff: t } : {}),
      }));
    } catch {
      // Not a TIFF we can read ourselves: sharp reads it below.
    }
  }
  const file = await input();
  const meta = await sharp(file).metadata();
  const levels: Level[] = [{ page: 0, width: meta.width, height: meta.height }];
  if (meta.format === 'tiff') {
    for (let page = 1; page < (meta.pages ?? 1); page++) {
      const m = await sharp(file, { page }).metadata();
      levels.push({ page, width: m.width, height: m.height });
    }
  }
  return levels;
}
