/**
 * A small, strict BMP decoder (sharp/libvips cannot read BMP), so a BMP avatar is re-encoded like
 * any other instead of being stored as sent (issue 13 item 14). It reads the common Windows bitmaps:
 * BITMAPINFOHEADER and its V2–V5 extensions, uncompressed (BI_RGB) 1-, 4-, 8-bit palette, 16-, 24- and
 * 32-bit images, and BI_BITFIELDS 16- and 32-bit ones; bottom-up or top-down. Every offset and size is
 * checked against the data before it is read; anything else (RLE, embedded JPEG/PNG, OS/2 headers,
 * palette indexes past the palette) is refused. Bytes after the pixel rows are ignored, never copied.
 */

export interface DecodedBmp {
  width: number;
  height: number;
  /** RGB, 3 bytes a pixel, rows top to bottom. */
  pixels: Buffer;
}

const BI_RGB = 0;
const BI_BITFIELDS = 3;
const HEADER_SIZES = new Set([40, 52, 56, 108, 124]);

/** How one colour channel sits in a pixel: its mask's shift and width, scaled to 0–255. */
function channel(mask: number): ((pixel: number) => number) | undefined {
  if (mask === 0) return undefined;
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  let bits = 0;
  while (shift + bits < 32 && ((mask >>> (shift + bits)) & 1) === 1) bits++;
  // The mask must be one run of ones, at most 16 bits wide.
  // (JavaScript shifts by 32 as by 0, hence the first test.)
  if (bits > 16 || (shift + bits < 32 && mask >>> (shift + bits) !== 0)) return undefined;
  const max = 2 ** bits - 1;
  return (pixel) => Math.round((((pixel & mask) >>> shift) * 255) / max);
}

/** Decodes a BMP, or returns undefined when it is malformed, unsupported or over `maxPixels`. */
export function decodeBmp(data: Buffer, maxPixels: number): DecodedBmp | undefined {
  if (data.length < 54 || data[0] !== 0x42 || data[1] !== 0x4d) return undefined;
  const pixelOffset = data.readUInt32LE(10);
  const headerSize = data.readUInt32LE(14);
  if (!HEADER_SIZES.has(headerSize) || data.length < 14 + headerSize) return undefined;
  const width = data.readInt32LE(18);
  const rawHeight = data.readInt32LE(22);
  const planes = data.readUInt16LE(26);
  const bpp = data.readUInt16LE(28);
  const compression = data.readUInt32LE(30);
  const colorsUsed = data.readUInt32LE(46);
  const topDown = rawHeight < 0;
  const height = Math.abs(rawHeight);
  if (planes !== 1 || width <= 0 || height <= 0 || width * height > maxPixels) return undefined;
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) return undefined;
  if (compression === BI_BITFIELDS ? bpp !== 16 && bpp !== 32 : compression !== BI_RGB) return undefined;

  // Masks: in the header from V2 on, else (BITMAPINFOHEADER with BI_BITFIELDS) right after it.
  let masks: [number, number, number] | undefined;
  let tableStart = 14 + headerSize;
  if (compression === BI_BITFIELDS) {
    if (headerSize === 40) tableStart += 12;
    if (data.length < 66) return undefined;
    masks = [data.readUInt32LE(54), data.readUInt32LE(58), data.readUInt32LE(62)];
  } else if (bpp === 16) masks = [0x7c00, 0x03e0, 0x001f];

  let palette: Buffer | undefined;
  if (bpp <= 8) {
    const entries = colorsUsed === 0 ? 2 ** bpp : colorsUsed;
    if (entries > 2 ** bpp || tableStart + entries * 4 > data.length) return undefined;
    palette = data.subarray(tableStart, tableStart + entries * 4);
  }

  const stride = Math.floor((bpp * width + 31) / 32) * 4;
  if (pixelOffset < tableStart || pixelOffset + stride * height > data.length) return undefined;

  const [red, green, blue] = masks ? masks.map(channel) : [];
  if (masks && (!red || !green || !blue)) return undefined;

  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const row = pixelOffset + (topDown ? y : height - 1 - y) * stride;
    let out = y * width * 3;
    for (let x = 0; x < width; x++, out += 3) {
      if (palette) {
        const bit = x * bpp;
        const byte = data[row + (bit >> 3)]!;
        const index = (byte >> (8 - bpp - (bit & 7))) & (2 ** bpp - 1);
        if (index * 4 >= palette.length) return undefined;
        pixels[out] = palette[index * 4 + 2]!;
        pixels[out + 1] = palette[index * 4 + 1]!;
        pixels[out + 2] = palette[index * 4]!;
      } else if (bpp === 24 || (bpp === 32 && !masks)) {
        const at = row + x * (bpp / 8);
        pixels[out] = data[at + 2]!;
        pixels[out + 1] = data[at + 1]!;
        pixels[out + 2] = data[at]!;
      } else {
        const value = bpp === 16 ? data.readUInt16LE(row + x * 2) : data.readUInt32LE(row + x * 4);
        pixels[out] = red!(value);
        pixels[out + 1] = green!(value);
        pixels[out + 2] = blue!(value);
      }
    }
  }
  return { width, height, pixels };
}
