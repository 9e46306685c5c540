/** One step of a glyph outline, as fontkit gives it (`glyph.path.commands`): font units, y up. */
export interface OutlineCommand {
  command: string;
  args: number[];
}

export interface TrueTypeGlyph {
  codePoint: number;
  /** Advance width in font units. */
  advance: number;
  commands: OutlineCommand[];
}

export interface TrueTypeFont {
  /** PostScript name (ASCII letters, digits and hyphens). */
  name: string;
  unitsPerEm: number;
  /** Above the baseline, positive. */
  ascent: number;
  /** Below the baseline, negative. */
  descent: number;
  glyphs: TrueTypeGlyph[];
}

interface Point {
  x: number;
  y: number;
  on: boolean;
}

interface EncodedGlyph {
  data: Uint8Array;
  bbox: [number, number, number, number];
  points: number;
  contours: number;
}

/** Bytes written big-endian, as every sfnt table is. */
class Writer {
  private bytes: number[] = [];
  u8(v: number): this {
    this.bytes.push(v & 0xff);
    return this;
  }
  u16(v: number): this {
    return this.u8(v >> 8).u8(v);
  }
  i16(v: number): this {
    return this.u16(v < 0 ? v + 0x10000 : v);
  }
  u32(v: number): this {
    return this.u16(Math.floor(v / 0x10000)).u16(v % 0x10000);
  }
  raw(data: Uint8Array): this {
    for (const b of data) this.bytes.push(b);
    return this;
  }
  pad4(): this {
    while (this.bytes.length % 4) this.bytes.push(0);
    return this;
  }
  get length(): number {
    return this.bytes.length;
  }
  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/**
 * Contours of on- and off-curve points from outline commands. A quadratic curve's control point is an
 * off-curve point; an on-curve point midway between two off-curve ones is left implied, as TrueType
 * writes it. A cubic curve (not in TrueType outlines) is approximated by one quadratic.
 */
function contoursOf(commands: OutlineCommand[]): Point[][] {
  const contours: Point[][] = [];
  let current: Point[] = [];
  const end = () => {
    const first = current[0];
    const last = current[current.length - 1];
    if (current.length > 1 && first && last?.on && last.x === first.x && last.y === first.y) current.pop();
    if (current.length > 0) contours.push(current);
    current = [];
  };
  for (const { command, args } of commands) {
    const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = args;
    if (command === 'moveTo') {
      end();
      current.push({ x: a, y: b, on: true });
    } else if (command === 'lineTo') {
      current.push({ x: a, y: b, on: true });
    } else if (command === 'quadraticCurveTo') {
      current.push({ x: a, y: b, on: false }, { x: c, y: d, on: true });
    } else if (command === 'bezierCurveTo') {
      const from = current[current.length - 1] ?? { x: a, y: b };
      const cx = (3 * (a + c) - from.x - e) / 4;
      const cy = (3 * (b + d) - from.y - f) / 4;
      current.push({ x: cx, y: cy, on: false }, { x: e, y: f, on: true });
    } else if (command === 'closePath') {
      end();
    }
  }
  end();
  return contours.map((points) =>
    points
      .filter((p, i, all) => {
        if (i === 0 || !p.on) return true;
        const prev = all[i - 1]!;
        const next = all[(i + 1) % all.length]!;
        return prev.on || next.on || prev.x + next.x !== 2 * p.x || prev.y + next.y !== 2 * p.y;
      })
      .map((p) => ({ x: Math.round(p.x), y: Math.round(p.y), on: p.on })),
  );
}

/** A simple glyph of the `glyf` table (no instructions), coordinates as deltas in their shortest form. */
function encodeGlyph(commands: OutlineCommand[]): EncodedGlyph {
  const contours = contoursOf(commands);
  const points = contours.flat();
  if (points.length === 0) return { data: new Uint8Array(0), bbox: [0, 0, 0, 0], points: 0, contours: 0 };
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const bbox: EncodedGlyph['bbox'] = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  const w = new Writer().i16(contours.length);
  for (const v of bbox) w.i16(v);
  let count = 0;
  for (const contour of contours) w.u16((count += contour.length) - 1);
  w.u16(0);
  const flags: number[] = [];
  const xBytes = new Writer();
  const yBytes = new Writer();
  let px = 0;
  let py = 0;
  for (const p of points) {
    let flag = p.on ? 1 : 0;
    // X: bit 1 short, bit 4 positive (short) or same (long); Y: bits 2 and 5 likewise.
    for (const [delta, short, same, out] of [
      [p.x - px, 0x02, 0x10, xBytes],
      [p.y - py, 0x04, 0x20, yBytes],
    ] as const) {
      if (delta === 0) flag |= same;
      else if (Math.abs(delta) < 256) {
        flag |= short | (delta > 0 ? same : 0);
        out.u8(Math.abs(delta));
      } else out.i16(delta);
    }
    flags.push(flag);
    px = p.x;
    py = p.y;
  }
  for (const flag of flags) w.u8(flag);
  w.raw(xBytes.done()).raw(yBytes.done());
  while (w.length % 4) w.u8(0);
  return { data: w.done(), bbox, points: points.length, contours: contours.length };
}

function cmapTable(codePoints: number[]): Uint8Array {
  // Format 12 (all planes), for the Unicode platform and Windows' full-repertoire encoding.
  const groups: [number, number, number][] = [];
  codePoints.forEach((cp, i) => {
    const last = groups[groups.length - 1];
    if (last && cp === last[1] + 1 && i + 1 === last[2] + (cp - last[0])) last[1] = cp;
    else groups.push([cp, cp, i + 1]);
  });
  const w = new Writer().u16(0).u16(2);
  w.u16(0)
    .u16(4)
    .u32(4 + 8 * 2);
  w.u16(3)
    .u16(10)
    .u32(4 + 8 * 2);
  w.u16(12)
    .u16(0)
    .u32(16 + 12 * groups.length)
    .u32(0)
    .u32(groups.length);
  for (const [start, end, glyph] of groups) w.u32(start).u32(end).u32(glyph);
  return w.done();
}

function nameTable(name: string): Uint8Array {
  const records: [number, string][] = [
    [1, name],
    [2, 'Regular'],
    [3, name],
    [4, name],
    [6, name],
  ];
  const w = new Writer()
    .u16(0)
    .u16(records.length)
    .u16(6 + 12 * records.length);
  let offset = 0;
  for (const [id, text] of records) {
    w.u16(3)
      .u16(1)
      .u16(0x409)
      .u16(id)
      .u16(text.length * 2)
      .u16(offset);
    offset += text.length * 2;
  }
  for (const [, text] of records) for (const ch of text) w.u16(ch.charCodeAt(0));
  return w.done();
}

function checksum(data: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < data.length; i += 4) {
    sum =
      (sum +
        (((data[i]! << 24) | ((data[i + 1] ?? 0) << 16) | ((data[i + 2] ?? 0) << 8) | (data[i + 3] ?? 0)) >>>
          0)) >>>
      0;
  }
  return sum;
}

/**
 * A TrueType font of the given glyphs (glyph 0 an empty .notdef, then the glyphs in order), each mapped
 * from its code point: what a PDF embeds to draw, and name in its text layer, exactly the characters it
 * shows. The tables are those a TrueType font needs (head, hhea, maxp, hmtx, loca, glyf, cmap, name,
 * OS/2, post); outlines carry no hinting.
 */
export function buildTrueType(font: TrueTypeFont): Uint8Array {
  const glyphs = [...font.glyphs].sort((a, b) => a.codePoint - b.codePoint);
  const encoded = [encodeGlyph([]), ...glyphs.map((g) => encodeGlyph(g.commands))];
  const advances = [font.unitsPerEm, ...glyphs.map((g) => Math.round(g.advance))];
  const drawn = encoded.filter((g) => g.points > 0);
  const bbox = [
    Math.min(0, ...drawn.map((g) => g.bbox[0])),
    Math.min(0, ...drawn.map((g) => g.bbox[1])),
    Math.max(0, ...drawn.map((g) => g.bbox[2])),
    Math.max(0, ...drawn.map((g) => g.bbox[3])),
  ];
  const numGlyphs = encoded.length;

  const glyf = new Writer();
  const loca = new Writer();
  for (const g of encoded) {
    loca.u32(glyf.length);
    glyf.raw(g.data);
  }
  loca.u32(glyf.length);

  const hmtx = new Writer();
  encoded.forEach((g, i) => hmtx.u16(advances[i]!).i16(g.bbox[0]));

  const head = new Writer().u32(0x00010000).u32(0x00010000).u32(0).u32(0x5f0f3cf5).u16(0x0003);
  head.u16(font.unitsPerEm).u32(0).u32(0).u32(0).u32(0);
  for (const v of bbox) head.i16(v);
  head.u16(0).u16(8).i16(2).i16(1).i16(0);

  const hhea = new Writer().u32(0x00010000).i16(font.ascent).i16(font.descent).i16(0);
  hhea.u16(Math.max(...advances)).i16(Math.min(0, ...drawn.map((g) => g.bbox[0])));
  hhea.i16(Math.min(0, ...encoded.map((g, i) => advances[i]! - g.bbox[2]))).i16(bbox[2]!);
  hhea.i16(1).i16(0).i16(0).i16(0).i16(0).i16(0).i16(0).i16(0).u16(numGlyphs);

  const maxp = new Writer().u32(0x00010000).u16(numGlyphs);
  maxp.u16(Math.max(0, ...encoded.map((g) => g.points))).u16(Math.max(0, ...encoded.map((g) => g.contours)));
  maxp.u16(0).u16(0).u16(2);
  for (let i = 0; i < 8; i++) maxp.u16(0);

  const codePoints = glyphs.map((g) => g.codePoint);
  const os2 = os2Table(font, advances, codePoints, bbox);

  const post = new Writer().u32(0x00030000).u32(0).i16(-100).i16(50).u32(0);
  post.u32(0).u32(0).u32(0).u32(0);

  const tables: [string, Uint8Array][] = (
    [
      ['OS/2', os2],
      ['cmap', cmapTable(codePoints)],
      ['glyf', glyf.done()],
      ['head', head.done()],
      ['hhea', hhea.done()],
      ['hmtx', hmtx.done()],
      ['loca', loca.done()],
      ['maxp', maxp.done()],
      ['name', nameTable(font.name)],
      ['post', post.done()],
    ] as [string, Uint8Array][]
  ).sort(([a], [b]) => (a < b ? -1 : 1));

  return sfnt(tables);
}

/** The OS/2 table: average width, weight, sizes of sub- and superscripts, the code point range, metrics. */
function os2Table(font: TrueTypeFont, advances: number[], codePoints: number[], bbox: number[]): Uint8Array {
  const os2 = new Writer().u16(4).i16(Math.round(advances.reduce((a, b) => a + b, 0) / advances.length));
  os2.u16(400).u16(5).u16(0);
  // Sub- and superscript sizes and offsets, strikeout, family class, PANOSE, Unicode ranges, vendor.
  for (const v of [650, 700, 0, 140, 650, 700, 0, 480, 50, 250, 0]) os2.i16(v);
  for (let i = 0; i < 10; i++) os2.u8(0);
  os2.u32(0).u32(0).u32(0).u32(0).u32(0);
  os2
    .u16(0x40)
    .u16(Math.min(0xffff, codePoints[0] ?? 0))
    .u16(Math.min(0xffff, codePoints.at(-1) ?? 0));
  os2.i16(font.ascent).i16(font.descent).i16(0).u16(Math.max(0, bbox[3]!)).u16(Math.max(0, -bbox[1]!));
  os2
    .u32(0)
    .u32(0)
    .i16(Math.round(font.ascent / 2))
    .i16(Math.round(font.ascent * 0.7));
  os2.u16(0).u16(32).u16(0);

  return os2.done();
}

/** The font file: the table directory (tables in tag order), the tables, and head's checksum adjustment. */
function sfnt(tables: [string, Uint8Array][]): Uint8Array {
  const n = tables.length;
  const entrySelector = Math.floor(Math.log2(n));
  const out = new Writer()
    .u32(0x00010000)
    .u16(n)
    .u16(16 << entrySelector)
    .u16(entrySelector);
  out.u16(n * 16 - (16 << entrySelector));
  let offset = 12 + 16 * n;
  for (const [tag, data] of tables) {
    for (const ch of tag) out.u8(ch.charCodeAt(0));
    out.u32(checksum(data)).u32(offset).u32(data.length);
    offset += Math.ceil(data.length / 4) * 4;
  }
  let headAt = 0;
  for (const [tag, data] of tables) {
    if (tag === 'head') headAt = out.length;
    out.raw(data).pad4();
  }
  const bytes = out.done();
  const adjustment = (0xb1b0afba - checksum(bytes)) >>> 0;
  new DataView(bytes.buffer).setUint32(headAt + 8, adjustment);
  return bytes;
}
