/**
 * Restart segments of baseline JPEG tiles: the pyramid's tiles are stored with a restart marker every
 * 64 pixels of each row of blocks (`addRestartMarkers`, at pyramid time), so that a region of a level can
 * later be put together, without decoding anything, as one small JPEG of only the 64-pixel segments it
 * touches (`assembleRegion`, at request time) and decoded once. A never-seen 512² region then decodes
 * about 576×528 pixels instead of the four whole 512² tiles under it.
 *
 * Only what libtiff writes into a pyramid is handled: baseline sequential Huffman JPEG (SOF0/SOF1), one
 * interleaved scan of every component, 8-bit samples. Anything else is left as it is.
 */

/** Width of a restart segment in pixels: the unit a region is widened to. */
export const SEGMENT_WIDTH = 64;

const MARKER = {
  SOI: 0xd8,
  EOI: 0xd9,
  SOS: 0xda,
  DQT: 0xdb,
  DHT: 0xc4,
  DRI: 0xdd,
  RST0: 0xd0,
} as const;

interface Component {
  id: number;
  h: number;
  v: number;
}

/** A canonical Huffman table: decoding by a 16-bit lookahead, encoding by symbol. */
interface Huffman {
  /** For each 16-bit lookahead, (code length << 8) | symbol; 0 where no code starts so. */
  lookup: Int32Array;
  codes: Uint16Array;
  lengths: Uint8Array;
}

/** What a tile's headers say: the frame, the scan and where its entropy-coded data starts. */
interface JpegLayout {
  width: number;
  height: number;
  components: Component[];
  /** Per scan component, in scan order: the frame component, its DC and AC table numbers. */
  scan: Array<{ component: Component; dc: number; ac: number }>;
  restartInterval: number;
  /** Offset of the first byte after the SOS segment. */
  dataStart: number;
  /** Offset of the SOS marker. */
  sosAt: number;
  /** Offset of the SOF marker. */
  sofAt: number;
  hmax: number;
  vmax: number;
  /** Raw DHT segments' tables by class (0 DC, 1 AC) and number. */
  dht: Map<number, { counts: Uint8Array; symbols: Uint8Array }>;
}

/**
 * The marker segments of a JPEG stream after its SOI, up to its scan (SOS) or its end (EOI): each
 * marker, its offset and its segment's length. A byte where a marker should be yields marker -1 and
 * ends the walk; a stream cut short just ends.
 */
export function* jpegSegments(bytes: Buffer): Generator<{ marker: number; at: number; length: number }> {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) {
      yield { marker: -1, at, length: 0 };
      return;
    }
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    const length = marker === MARKER.EOI ? 0 : bytes.readUInt16BE(at + 2);
    yield { marker, at, length };
    if (marker === MARKER.EOI || marker === MARKER.SOS) return;
    at += 2 + length;
  }
}

/** Walks a JPEG's marker segments up to the scan; undefined for what this module does not handle. */
function readLayout(headers: Buffer[], tile: Buffer): JpegLayout | undefined {
  const dht = new Map<number, { counts: Uint8Array; symbols: Uint8Array }>();
  let frame: Pick<JpegLayout, 'width' | 'height' | 'components' | 'sofAt'> | undefined;
  let restartInterval = 0;
  const walk = (bytes: Buffer, isTile: boolean): JpegLayout | undefined | 'end' => {
    if (bytes[0] !== 0xff || bytes[1] !== MARKER.SOI) return undefined;
    for (const { marker, at, length } of jpegSegments(bytes)) {
      if (marker === -1) return undefined;
      if (marker === MARKER.EOI) return 'end';
      const body = bytes.subarray(at + 4, at + 2 + length);
      if (body.length !== length - 2) return undefined;
      if (marker === MARKER.DHT) {
        for (let p = 0; p < body.length;) {
          const cls = body[p]! >> 4;
          const id = body[p]! & 15;
          const counts = body.subarray(p + 1, p + 17);
          const total = counts.reduce((sum, n) => sum + n, 0);
          dht.set(cls * 4 + id, { counts, symbols: body.subarray(p + 17, p + 17 + total) });
          p += 17 + total;
        }
      } else if (marker === MARKER.DRI) {
        restartInterval = body.readUInt16BE(0);
      } else if (
        marker >= 0xc0 &&
        marker <= 0xcf &&
        marker !== MARKER.DHT &&
        marker !== 0xc8 &&
        marker !== 0xcc
      ) {
        // Only baseline and extended sequential Huffman frames, 8-bit.
        if ((marker !== 0xc0 && marker !== 0xc1) || body[0] !== 8 || !isTile) return undefined;
        const count = body[5]!;
        const components = Array.from({ length: count }, (_, k) => ({
          id: body[6 + k * 3]!,
          h: body[7 + k * 3]! >> 4,
          v: body[7 + k * 3]! & 15,
        }));
        frame = { height: body.readUInt16BE(1), width: body.readUInt16BE(3), components, sofAt: at };
      } else if (marker === MARKER.SOS) {
        if (!isTile || !frame) return undefined;
        const count = body[0]!;
        const scan = [];
        for (let k = 0; k < count; k++) {
          const component = frame.components.find((c) => c.id === body[1 + k * 2]);
          if (!component) return undefined;
          scan.push({ component, dc: body[2 + k * 2]! >> 4, ac: body[2 + k * 2]! & 15 });
        }
        // One interleaved scan of every component, the whole spectrum.
        if (count !== frame.components.length || body[1 + count * 2] !== 0 || body[2 + count * 2] !== 63)
          return undefined;
        const hmax = Math.max(...frame.components.map((c) => c.h));
        const vmax = Math.max(...frame.components.map((c) => c.v));
        return { ...frame, scan, restartInterval, dataStart: at + 2 + length, sosAt: at, dht, hmax, vmax };
      }
    }
    // Tables without their closing EOI are still tables; a tile must reach its scan.
    return isTile ? undefined : 'end';
  };
  for (const header of headers) if (walk(header, false) === undefined) return undefined;
  const layout = walk(tile, true);
  return typeof layout === 'object' ? layout : undefined;
}

const huffmanCache = new Map<string, Huffman>();

/** Builds (or reuses: a pyramid's tiles share their tables) the decode and encode tables of a DHT table. */
function huffmanOf(table: { counts: Uint8Array; symbols: Uint8Array }): Huffman | undefined {
  const key = Buffer.concat([table.counts, table.symbols]).toString('latin1');
  const known = huffmanCache.get(key);
  if (known) return known;
  const lookup = new Int32Array(1 << 16);
  const codes = new Uint16Array(256);
  const lengths = new Uint8Array(256);
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    for (let n = 0; n < table.counts[length - 1]!; n++) {
      const symbol = table.symbols[k++]!;
      if (code >= 1 << length) return undefined;
      codes[symbol] = code;
      lengths[symbol] = length;
      const from = code << (16 - length);
      lookup.fill((length << 8) | symbol, from, from + (1 << (16 - length)));
      code++;
    }
    code <<= 1;
  }
  const huffman = { lookup, codes, lengths };
  if (huffmanCache.size > 64) huffmanCache.clear();
  huffmanCache.set(key, huffman);
  return huffman;
}

/** Reads an entropy-coded segment bit by bit, taking out the 0x00 stuffed after each 0xFF. */
class BitReader {
  private bits = 0;
  private count = 0;
  constructor(
    private readonly data: Buffer,
    private at: number,
  ) {}

  private fill(): void {
    while (this.count <= 24) {
      let byte = 0;
      const data = this.data;
      if (this.at < data.length) {
        byte = data[this.at]!;
        if (byte === 0xff) {
          const next = data[this.at + 1];
          // A marker ends the data: zeros are fed from here, and the caller finds too few MCUs.
          if (next === 0x00) this.at += 2;
          else byte = 0;
        } else this.at += 1;
      }
      this.bits = ((this.bits << 8) | byte) >>> 0;
      this.count += 8;
    }
  }

  peek16(): number {
    if (this.count < 16) this.fill();
    return (this.bits >>> (this.count - 16)) & 0xffff;
  }

  skip(n: number): void {
    this.count -= n;
  }

  read(n: number): number {
    if (n === 0) return 0;
    if (this.count < n) this.fill();
    this.count -= n;
    return (this.bits >>> this.count) & ((1 << n) - 1);
  }
}

/** Writes entropy-coded data, stuffing 0x00 after each 0xFF, with restart markers between segments. */
class BitWriter {
  private bits = 0;
  private count = 0;
  private out: Buffer;
  length = 0;
  constructor(capacity: number) {
    this.out = Buffer.allocUnsafe(capacity);
  }

  private byte(value: number): void {
    if (this.length + 2 > this.out.length) {
      const bigger = Buffer.allocUnsafe(this.out.length * 2);
      this.out.copy(bigger, 0, 0, this.length);
      this.out = bigger;
    }
    this.out[this.length++] = value;
  }

  /** Appends the low `n` bits of `value` (n ≤ 24). */
  write(value: number, n: number): void {
    this.bits = (this.bits << n) | (value & ((1 << n) - 1));
    this.count += n;
    while (this.count >= 8) {
      this.count -= 8;
      const byte = (this.bits >>> this.count) & 0xff;
      this.byte(byte);
      if (byte === 0xff) this.byte(0x00);
    }
    this.bits &= (1 << this.count) - 1;
  }

  /** Pads the last byte with 1-bits (as the standard asks before a marker). */
  align(): void {
    if (this.count > 0) this.write(0x7f, 8 - this.count);
  }

  marker(code: number): void {
    this.byte(0xff);
    this.byte(code);
  }

  result(): Buffer {
    return this.out.subarray(0, this.length);
  }
}

/** The magnitude category of a DC difference (JPEG's SSSS). */
function category(value: number): number {
  let magnitude = value < 0 ? -value : value;
  let size = 0;
  while (magnitude > 0) {
    size++;
    magnitude >>= 1;
  }
  return size;
}

/**
 * Re-encodes a baseline JPEG tile of a TIFF (`tables`: the file's JPEGTables, or none) with a restart
 * marker every SEGMENT_WIDTH pixels of each row of MCUs: losslessly (the same coefficients, Huffman
 * codes and tables; only each segment's first DC difference changes, as the predictor restarts at 0).
 * Returns undefined, and the tile stays as it is, where the tile is of a kind not handled here or its
 * width is not a whole number of segments.
 */
export function addRestartMarkers(tables: Buffer | undefined, tile: Buffer): Buffer | undefined {
  const layout = readLayout(tables ? [tables] : [], tile);
  if (!layout || layout.restartInterval !== 0) return undefined;
  const mcuWidth = 8 * layout.hmax;
  const mcuHeight = 8 * layout.vmax;
  if (SEGMENT_WIDTH % mcuWidth !== 0 || layout.width % SEGMENT_WIDTH !== 0) return undefined;
  const interval = SEGMENT_WIDTH / mcuWidth;
  const mcus = (layout.width / mcuWidth) * Math.ceil(layout.height / mcuHeight);
  const blocks: Array<{ dc: Huffman; ac: Huffman; component: number }> = [];
  for (const [index, { component, dc, ac }] of layout.scan.entries()) {
    const dcTable = layout.dht.get(dc);
    const acTable = layout.dht.get(4 + ac);
    const dcHuffman = dcTable && huffmanOf(dcTable);
    const acHuffman = acTable && huffmanOf(acTable);
    if (!dcHuffman || !acHuffman) return undefined;
    for (let n = 0; n < component.h * component.v; n++)
      blocks.push({ dc: dcHuffman, ac: acHuffman, component: index });
  }
  const reader = new BitReader(tile, layout.dataStart);
  const writer = new BitWriter(tile.length + (mcus / interval) * 4 + 1024);
  const predictor = new Int32Array(layout.scan.length);
  const written = new Int32Array(layout.scan.length);
  for (let mcu = 0; mcu < mcus; mcu++) {
    if (mcu > 0 && mcu % interval === 0) {
      writer.align();
      writer.marker(MARKER.RST0 + ((mcu / interval - 1) & 7));
      written.fill(0);
    }
    for (let n = 0; n < blocks.length; n++) {
      const block = blocks[n]!;
      // DC: decode the difference, re-encode it against the restarted predictor.
      let entry = block.dc.lookup[reader.peek16()]!;
      if (entry === 0) return undefined;
      reader.skip(entry >> 8);
      let size = entry & 0xff;
      let bits = reader.read(size);
      const difference = size === 0 ? 0 : bits < 1 << (size - 1) ? bits - (1 << size) + 1 : bits;
      const value = predictor[block.component]! + difference;
      predictor[block.component] = value;
      const out = value - written[block.component]!;
      written[block.component] = value;
      const outSize = category(out);
      if (block.dc.lengths[outSize] === 0) return undefined;
      writer.write(block.dc.codes[outSize]!, block.dc.lengths[outSize]!);
      if (outSize > 0) writer.write(out < 0 ? out + (1 << outSize) - 1 : out, outSize);
      // AC: copied code by code.
      for (let k = 1; k < 64;) {
        const peek = reader.peek16();
        entry = block.ac.lookup[peek]!;
        if (entry === 0) return undefined;
        const length = entry >> 8;
        const symbol = entry & 0xff;
        reader.skip(length);
        size = symbol & 15;
        if (size === 0) {
          writer.write(peek >>> (16 - length), length);
          if (symbol !== 0xf0) break; // end of block
          k += 16;
          continue;
        }
        bits = reader.read(size);
        // The code and its extra bits in one write where they fit (BitWriter takes up to 24 bits).
        if (length + size <= 24) writer.write(((peek >>> (16 - length)) << size) | bits, length + size);
        else {
          writer.write(peek >>> (16 - length), length);
          writer.write(bits, size);
        }
        k += (symbol >> 4) + 1;
      }
    }
  }
  writer.align();
  const data = writer.result();
  const dri = Buffer.from([0xff, MARKER.DRI, 0, 4, interval >> 8, interval & 0xff]);
  const headerEnd = layout.dataStart;
  return Buffer.concat([
    tile.subarray(0, layout.sosAt),
    dri,
    tile.subarray(layout.sosAt, headerEnd),
    data,
    Buffer.from([0xff, MARKER.EOI]),
  ]);
}

/** Whether a tile's restart segments are SEGMENT_WIDTH wide, across a whole number of them. */
function isSegmented(layout: JpegLayout): boolean {
  return layout.restartInterval * 8 * layout.hmax === SEGMENT_WIDTH && layout.width % SEGMENT_WIDTH === 0;
}

/** Whether a tile (with the file's JPEGTables) has restart segments as addRestartMarkers writes them. */
export function hasRestartSegments(tables: Buffer | undefined, tile: Buffer): boolean {
  const layout = readLayout(tables ? [tables] : [], tile);
  return layout !== undefined && isSegmented(layout);
}

/**
 * The most tiles a region is put together from. Splitting and copying segments is JavaScript on the event
 * loop (a whole 3446×5171 level, 77 tiles: ~20 ms); a larger region is left to libvips, which reads the
 * level in its own threads.
 */
export const MAX_ASSEMBLED_TILES = 16;

/** A rectangle of a level in its pixels. */
export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The tiles of one pyramid level as assembleRegion needs them. */
export interface TiledLevel {
  /** Width of the level in tiles and the tiles' size in pixels (as stored: a whole tile, padded at the edges). */
  across: number;
  down: number;
  tileWidth: number;
  tileHeight: number;
  /** The file's JPEGTables. */
  tables: Buffer | undefined;
  /**
   * Reads the stored tiles `first`…`last` of a row (undefined for one that is not there), into a buffer
   * `take` lends where the source can.
   */
  row: (
    row: number,
    first: number,
    last: number,
    take?: (size: number) => Buffer,
  ) => Promise<Array<Buffer | undefined>>;
}

/** A tile split at its restart markers. */
interface Segments {
  layout: JpegLayout;
  tile: Buffer;
  /** Start and end offsets of each segment's data, in MCU order. */
  starts: Int32Array;
  ends: Int32Array;
}

function splitSegments(tables: Buffer | undefined, tile: Buffer): Segments | undefined {
  const layout = readLayout(tables ? [tables] : [], tile);
  if (!layout || !isSegmented(layout)) return undefined;
  const count = (layout.width / SEGMENT_WIDTH) * Math.ceil(layout.height / (8 * layout.vmax));
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  let n = 0;
  let start = layout.dataStart;
  for (let at = tile.indexOf(0xff, start); at !== -1; at = tile.indexOf(0xff, at + 2)) {
    const next = tile[at + 1]!;
    if (next === 0x00) continue;
    const isRestart = next >= MARKER.RST0 && next <= MARKER.RST0 + 7;
    if (!isRestart && next !== MARKER.EOI) return undefined;
    if (n >= count) return undefined;
    starts[n] = start;
    ends[n++] = at;
    if (!isRestart) break;
    start = at + 2;
  }
  return n === count ? { layout, tile, starts, ends } : undefined;
}

/**
 * One JPEG holding the part of a level that covers `rect`, made by copying restart segments of the
 * tiles it touches (none decoded): widened to whole segments across and whole MCU rows down. Returns
 * the JPEG and where its top-left pixel lies in the level, or undefined where a tile has no restart
 * segments (a pyramid made before them) or the region spans more than MAX_ASSEMBLED_TILES tiles — the
 * caller then reads the level as before. The tiles and
 * the JPEG are written into buffers `take` lends (the JPEG is a view of one): valid until given back.
 */
export async function assembleRegion(
  level: TiledLevel,
  rect: Rect,
  take: (size: number) => Buffer = (size) => Buffer.allocUnsafe(size),
): Promise<{ jpeg: Buffer; left: number; top: number; width: number; height: number } | undefined> {
  const { tileWidth, tileHeight } = level;
  if (tileWidth % SEGMENT_WIDTH !== 0 || tileHeight % 16 !== 0) return undefined;
  const columns = [
    Math.floor(rect.left / tileWidth),
    Math.floor((rect.left + rect.width - 1) / tileWidth),
  ] as const;
  const rows = [
    Math.floor(rect.top / tileHeight),
    Math.floor((rect.top + rect.height - 1) / tileHeight),
  ] as const;
  if (columns[0] < 0 || rows[0] < 0 || columns[1] >= level.across || rows[1] >= level.down) return undefined;
  if ((columns[1] - columns[0] + 1) * (rows[1] - rows[0] + 1) > MAX_ASSEMBLED_TILES) return undefined;
  // The rows of tiles under the region, each in one read where its tiles lie together in the file.
  const read = await Promise.all(
    Array.from({ length: rows[1] - rows[0] + 1 }, (_, k) =>
      level.row(rows[0] + k, columns[0], columns[1], take),
    ),
  );
  // Every tile split at its markers, each coded as the first (its segments go into one scan).
  const tiles: Segments[][] = [];
  let probe: Segments | undefined;
  for (const row of read) {
    const split: Segments[] = [];
    for (const tile of row) {
      const segments = tile && splitSegments(level.tables, tile);
      probe ??= segments;
      if (!segments || !probe || !sameCoding(segments.layout, probe.layout)) return undefined;
      split.push(segments);
    }
    tiles.push(split);
  }
  if (!probe) return undefined;
  const mcuHeight = 8 * probe.layout.vmax;
  if (tileHeight % mcuHeight !== 0 || probe.layout.width !== tileWidth || probe.layout.height !== tileHeight)
    return undefined;
  const left = Math.floor(rect.left / SEGMENT_WIDTH) * SEGMENT_WIDTH;
  const top = Math.floor(rect.top / mcuHeight) * mcuHeight;
  const right = Math.ceil((rect.left + rect.width) / SEGMENT_WIDTH) * SEGMENT_WIDTH;
  // Within the tiles read: their width is whole segments and their height whole rows of blocks.
  const bottom = Math.ceil((rect.top + rect.height) / mcuHeight) * mcuHeight;
  const width = right - left;
  const height = bottom - top;
  if (width > 0xffff || height > 0xffff) return undefined;

  // Which segment of which tile each piece of the scan is, in the order the scan holds them.
  const perRow = tileWidth / SEGMENT_WIDTH;
  const pieces: Array<{ tile: Segments; k: number }> = [];
  let size = 0;
  for (let y = top; y < bottom; y += mcuHeight) {
    const row = Math.floor(y / tileHeight);
    const mcuRow = (y - row * tileHeight) / mcuHeight;
    for (let x = left; x < right; x += SEGMENT_WIDTH) {
      const column = Math.floor(x / tileWidth);
      const tile = tiles[row - rows[0]]![column - columns[0]]!;
      const k = mcuRow * perRow + (x - column * tileWidth) / SEGMENT_WIDTH;
      pieces.push({ tile, k });
      size += tile.ends[k]! - tile.starts[k]! + 2;
    }
  }
  const header = headerOf(probe, level.tables, width, height);
  const jpeg = take(header.length + size);
  header.copy(jpeg, 0);
  let at = header.length;
  pieces.forEach(({ tile, k }, n) => {
    if (n > 0) {
      jpeg[at++] = 0xff;
      jpeg[at++] = MARKER.RST0 + ((n - 1) & 7);
    }
    at += tile.tile.copy(jpeg, at, tile.starts[k], tile.ends[k]);
  });
  jpeg[at++] = 0xff;
  jpeg[at++] = MARKER.EOI;
  return { jpeg: jpeg.subarray(0, at), left, top, width, height };
}

/** Whether two tiles are coded alike (so that their segments can follow one another in one scan). */
function sameCoding(a: JpegLayout, b: JpegLayout): boolean {
  return (
    a.width === b.width &&
    a.height === b.height &&
    a.restartInterval === b.restartInterval &&
    a.sosAt - a.sofAt === b.sosAt - b.sofAt &&
    a.components.every(
      (c, k) => c.id === b.components[k]?.id && c.h === b.components[k].h && c.v === b.components[k].v,
    ) &&
    a.scan.every((s, k) => s.dc === b.scan[k]?.dc && s.ac === b.scan[k].ac)
  );
}

/** A TIFF's JPEGTables without their SOI and EOI: the segments to put after a tile's own SOI. */
export function tableSegments(tables: Buffer): Buffer {
  return tables.subarray(2, tables.at(-2) === 0xff && tables.at(-1) === MARKER.EOI ? -2 : undefined);
}

/**
 * The assembled JPEG's headers: SOI, the file's tables, then the tile's own segments from SOI up to the
 * scan (with the frame's size set to the assembled one), DRI included.
 */
function headerOf(segments: Segments, tables: Buffer | undefined, width: number, height: number): Buffer {
  const { tile, layout } = segments;
  const tableBody = tables && tables.length > 4 ? tableSegments(tables) : Buffer.alloc(0);
  const own = Buffer.from(tile.subarray(2, layout.dataStart));
  const sof = layout.sofAt - 2;
  own.writeUInt16BE(height, sof + 5);
  own.writeUInt16BE(width, sof + 7);
  return Buffer.concat([Buffer.from([0xff, MARKER.SOI]), tableBody, own]);
}
