/** Writes small BMP files for tests (BITMAPINFOHEADER; palette, BI_RGB or BI_BITFIELDS). */
export function makeBmp(options: {
  width: number;
  height: number;
  bpp: 1 | 4 | 8 | 16 | 24 | 32;
  /** The raw value of each pixel: a palette index, a 16/32-bit value, or 0xRRGGBB for 24 bits. */
  pixel: (x: number, y: number) => number;
  /** BGRA palette entries as 0xRRGGBB. */
  palette?: number[];
  masks?: [number, number, number];
  topDown?: boolean;
  compression?: number;
  trailing?: Buffer;
}): Buffer {
  const { width, height, bpp } = options;
  const stride = Math.floor((bpp * width + 31) / 32) * 4;
  const palette = options.palette ?? [];
  const masks = options.masks ? 12 : 0;
  const offset = 54 + masks + palette.length * 4;
  const rows = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const row = (options.topDown ? y : height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      const v = options.pixel(x, y);
      if (bpp <= 8) {
        const bit = x * bpp;
        rows[row + (bit >> 3)]! |= v << (8 - bpp - (bit & 7));
      } else if (bpp === 16) rows.writeUInt16LE(v, row + x * 2);
      else if (bpp === 24) {
        rows[row + x * 3] = v & 0xff;
        rows[row + x * 3 + 1] = (v >> 8) & 0xff;
        rows[row + x * 3 + 2] = (v >> 16) & 0xff;
      } else rows.writeUInt32LE(v >>> 0, row + x * 4);
    }
  }
  const header = Buffer.alloc(offset);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(offset + rows.length, 2);
  header.writeUInt32LE(offset, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(width, 18);
  header.writeInt32LE(options.topDown ? -height : height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(bpp, 28);
  header.writeUInt32LE(options.compression ?? (options.masks ? 3 : 0), 30);
  header.writeUInt32LE(rows.length, 34);
  header.writeUInt32LE(palette.length, 46);
  if (options.masks) options.masks.forEach((m, i) => header.writeUInt32LE(m >>> 0, 54 + i * 4));
  palette.forEach((rgb, i) => {
    const at = 54 + masks + i * 4;
    header[at] = rgb & 0xff;
    header[at + 1] = (rgb >> 8) & 0xff;
    header[at + 2] = (rgb >> 16) & 0xff;
  });
  return Buffer.concat([header, rows, options.trailing ?? Buffer.alloc(0)]);
}
