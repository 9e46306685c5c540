/**
 * Where an image file's image ends (issue 30 item 3): bytes after it (a second file appended, padding,
 * anything) are no part of the page and are never stored. Read from the structure of the format, a
 * few bytes at a time, so a file on disk is never loaded whole to find it.
 */
import fs from 'node:fs/promises';
import type { SniffedImage } from './image-sniff.ts';

/** Random access to a file's bytes (on disk or in memory). */
export interface ByteSource {
  size: number;
  read(at: number, length: number): Promise<Buffer>;
}

export const bufferSource = (data: Buffer): ByteSource => ({
  size: data.length,
  read: (at, length) => Promise.resolve(data.subarray(at, Math.min(data.length, at + length))),
});

/** The bytes of a file through an open handle (the caller closes it). */
export const fileSource = (handle: fs.FileHandle, size: number): ByteSource => ({
  size,
  async read(at, length) {
    const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - at)));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
    return buffer.subarray(0, bytesRead);
  },
});

/** How far the entropy-coded data of a JPEG scan is read at a time (bytes). */
const SCAN_WINDOW = 64 * 1024;

/**
 * The offset just after the image's last byte, or undefined where the format does not say (TIFF: its
 * parts are placed anywhere by offsets) or the structure is broken (the decoder then refuses the file).
 */
export async function imageEnd(kind: SniffedImage, source: ByteSource): Promise<number | undefined> {
  switch (kind) {
    case 'png':
      return pngEnd(source);
    case 'jpeg':
      return jpegEnd(source);
    case 'bmp': {
      // BITMAPFILEHEADER: the file's size at offset 2.
      const size = (await source.read(2, 4)).readUInt32LE(0);
      return size > 0 && size <= source.size ? size : undefined;
    }
    case 'webp': {
      // RIFF: the size of what follows the first 8 bytes, padded to even.
      const size = (await source.read(4, 4)).readUInt32LE(0);
      const end = 8 + size + (size % 2);
      return end <= source.size ? end : undefined;
    }
    case 'tiff':
      return undefined;
  }
}

/** PNG: chunks of length, type, data and CRC after the signature, up to the IEND chunk. */
async function pngEnd(source: ByteSource): Promise<number | undefined> {
  let at = 8;
  while (at + 12 <= source.size) {
    const head = await source.read(at, 8);
    const length = head.readUInt32BE(0);
    const end = at + 12 + length;
    if (end > source.size) return undefined;
    if (head.toString('latin1', 4, 8) === 'IEND') return end;
    at = end;
  }
  return undefined;
}

/**
 * JPEG: segments with a length after each marker; after a start of scan, entropy-coded data in which
 * 0xFF is followed by 0x00 (a stuffed byte) or a restart marker, until the next marker; the end of
 * image marker ends it.
 */
async function jpegEnd(source: ByteSource): Promise<number | undefined> {
  let at = 2;
  while (at + 2 <= source.size) {
    const mark = await source.read(at, 2);
    if (mark[0] !== 0xff) return undefined;
    const marker = mark[1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) return at + 2;
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (at + 4 > source.size) return undefined;
    const length = (await source.read(at + 2, 2)).readUInt16BE(0);
    at += 2 + length;
    if (marker !== 0xda) continue;
    // The scan's data: up to the next 0xFF that is neither stuffing nor a restart marker.
    const next = await scanEnd(source, at);
    if (next === undefined) return undefined;
    at = next;
  }
  return undefined;
}

async function scanEnd(source: ByteSource, from: number): Promise<number | undefined> {
  for (let at = from; at < source.size; at += SCAN_WINDOW) {
    // One byte more than the window, so a 0xFF at its end is seen with the byte after it.
    const window = await source.read(at, SCAN_WINDOW + 1);
    for (let i = window.indexOf(0xff); i !== -1 && i + 1 < window.length; i = window.indexOf(0xff, i + 1)) {
      const b = window[i + 1]!;
      if (b !== 0x00 && !(b >= 0xd0 && b <= 0xd7) && b !== 0xff) return at + i;
    }
  }
  return undefined;
}

/** The image of a file held in memory: its bytes up to the image's end (all of them where none is known). */
export async function imageOnly(data: Buffer, kind: SniffedImage | undefined): Promise<Buffer> {
  const end = kind ? await imageEnd(kind, bufferSource(data)) : undefined;
  return end === undefined ? data : data.subarray(0, end);
}
