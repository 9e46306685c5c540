/**
 * The first stages of the OCR pipeline (docs/architecture.md): a page image read as grey with red ink
 * removed (`loadPage`), then turned upright (`uprightPage`); `mapBox` takes a box of the upright image
 * back to the original.
 */
import sharp from 'sharp';
import { MAX_PAGE_PIXELS } from '../lib/image-limits.ts';
import { estimateSkew, inkMask, otsu } from './binarize.ts';
import type { Box, Grey } from './geometry.ts';

/** Stage 1's output: the page's size, and the page as grey (WORKING_SIDE on its longer side at most). */
export interface PageImage {
  width: number;
  height: number;
  grey: Grey;
}

/** Stage 2's output: the page turned upright. */
export interface UprightPage {
  /** The upright grey image every later stage works on. */
  image: Grey;
  /** Otsu's threshold of the grey image: darker pixels are ink. */
  threshold: number;
  /** Degrees the page was turned by. */
  skew: number;
  /** A point of the upright image in the original image. */
  toOriginal: (x: number, y: number) => [number, number];
}

/** Below this many degrees the page is read as it is (turning it would only blur it). */
const MIN_SKEW = 0.2;
/**
 * Pages are read at most this many pixels on their longer side: the detector sees 1,600 and the
 * recogniser 48 across a column, and larger masters (5,000 px and more) only cost time.
 */
export const WORKING_SIDE = 2400;

/**
 * Reads a page image as grey: the brightest channel of each pixel, so black ink stays dark and red
 * commentary (a second colour between the columns) turns into paper.
 */
export async function loadPage(file: string): Promise<PageImage> {
  // Pages are checked against the upload cap when they arrive; this bounds older masters too.
  const image = sharp(file, { limitInputPixels: MAX_PAGE_PIXELS });
  const meta = await image.metadata();
  const rotated = (meta.orientation ?? 1) >= 5;
  const width = (rotated ? meta.height : meta.width) ?? 0;
  const height = (rotated ? meta.width : meta.height) ?? 0;
  // Read at WORKING_SIDE at most (decoded and scaled in one pass).
  const zoom = Math.max(1, Math.max(width, height) / WORKING_SIDE);
  const pipeline = image.rotate().removeAlpha().toColourspace('srgb');
  if (zoom > 1) pipeline.resize(Math.round(width / zoom), Math.round(height / zoom), { fit: 'fill' });
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  const channels = info.channels;
  const grey = new Uint8Array(info.width * info.height);
  for (let i = 0, p = 0; i < grey.length; i++, p += channels) {
    grey[i] = channels >= 3 ? Math.max(data[p]!, data[p + 1]!, data[p + 2]!) : data[p]!;
  }
  return { width, height, grey: { width: info.width, height: info.height, data: grey } };
}

/** The page turned so that its columns stand vertical (the skew that sharpens the ink's x-profile most). */
export async function uprightPage(page: PageImage): Promise<UprightPage> {
  const grey = page.grey;
  const { width, height } = grey;
  const sx = page.width / width;
  const sy = page.height / height;
  const threshold = otsu(grey);
  const skew = estimateSkew(inkMask(grey, threshold), width, height);
  if (Math.abs(skew) < MIN_SKEW)
    return { image: grey, threshold, skew: 0, toOriginal: (x, y) => [x * sx, y * sy] };
  const rotated = await sharp(Buffer.from(grey.data), { raw: { width, height, channels: 1 } })
    .rotate(skew, { background: { r: 255, g: 255, b: 255 } })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const w2 = rotated.info.width;
  const h2 = rotated.info.height;
  const image: Grey = {
    width: w2,
    height: h2,
    data: new Uint8Array(rotated.data.buffer, rotated.data.byteOffset, w2 * h2),
  };
  // The upright image is the original turned clockwise by `skew` (negative: anticlockwise) about its
  // centre, on a larger canvas; boxes found on it are turned back.
  const a = (skew * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const toOriginal = (x: number, y: number): [number, number] => {
    const dx = x - w2 / 2;
    const dy = y - h2 / 2;
    return [(width / 2 + dx * cos + dy * sin) * sx, (height / 2 - dx * sin + dy * cos) * sy];
  };
  return { image, threshold, skew, toOriginal };
}

/** A box of the upright image as the box round it in the original image, clamped to the image. */
export function mapBox(
  box: Box,
  toOriginal: (x: number, y: number) => [number, number],
  width: number,
  height: number,
) {
  const corners = [
    toOriginal(box.left, box.top),
    toOriginal(box.right, box.top),
    toOriginal(box.left, box.bottom),
    toOriginal(box.right, box.bottom),
  ];
  const clamp = (v: number, max: number) => Math.min(max, Math.max(0, Math.round(v)));
  return {
    left: clamp(Math.min(...corners.map((c) => c[0])), width),
    top: clamp(Math.min(...corners.map((c) => c[1])), height),
    right: clamp(Math.max(...corners.map((c) => c[0])), width),
    bottom: clamp(Math.max(...corners.map((c) => c[1])), height),
  };
}
