/** A page image made ready to read: grey without red ink, turned upright, its layout analysed. */
import sharp from 'sharp';
import { MAX_PAGE_PIXELS } from '../features/import/ingest.service.ts';
import { estimateSkew, inkMask, otsu } from './binarize.ts';
import type { Box, Grey, Layout } from './segment-common.ts';
import { analyse } from './segment.ts';

export interface PreparedPage {
  /** The original image's size. */
  width: number;
  height: number;
  /** The upright grey image the layout was found on. */
  image: Grey;
  /** Otsu's threshold of the grey image: darker pixels are ink. */
  threshold: number;
  /** A point of the upright image in the original image. */
  toOriginal: (x: number, y: number) => [number, number];
  layout: Omit<Layout, 'skew'>;
}

/**
 * Reads a page image as grey (the brightest channel, so red commentary turns into paper), deskews it and
 * finds its columns and character cells.
 */
export async function preparePage(file: string): Promise<PreparedPage> {
  // Pages are checked against the upload cap when they arrive; this bounds older masters too.
  const { data, info } = await sharp(file, { limitInputPixels: MAX_PAGE_PIXELS })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const width = info.width;
  const height = info.height;
  const channels = info.channels;
  // Grey as the brightest channel: black ink stays dark, red commentary turns into paper.
  const grey = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < grey.length; i++, p += channels) {
    grey[i] = channels >= 3 ? Math.max(data[p]!, data[p + 1]!, data[p + 2]!) : data[p]!;
  }
  let image: Grey = { width, height, data: grey };
  const threshold = otsu(image);
  const skew = estimateSkew(inkMask(image, threshold), width, height);
  let toOriginal = (x: number, y: number): [number, number] => [x, y];
  if (Math.abs(skew) >= 0.2) {
    const rotated = await sharp(Buffer.from(grey), { raw: { width, height, channels: 1 } })
      .rotate(skew, { background: { r: 255, g: 255, b: 255 } })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const w2 = rotated.info.width;
    const h2 = rotated.info.height;
    image = {
      width: w2,
      height: h2,
      data: new Uint8Array(rotated.data.buffer, rotated.data.byteOffset, w2 * h2),
    };
    // The upright image is the original turned clockwise by `skew` (negative: anticlockwise) about
    // its centre, on a larger canvas; boxes found on it are turned back.
    const a = (skew * Math.PI) / 180;
    const cos = Math.cos(a);
    const sin = Math.sin(a);
    toOriginal = (x, y) => {
      const dx = x - w2 / 2;
      const dy = y - h2 / 2;
      return [width / 2 + dx * cos + dy * sin, height / 2 - dx * sin + dy * cos];
    };
  }
  // Ruled lines are found on the image as it is (they are thin); character cells, and the columns of
  // an unruled page, on a median-filtered copy where specks of dirt or noise are gone.
  const filtered = await sharp(Buffer.from(image.data), {
    raw: { width: image.width, height: image.height, channels: 1 },
  })
    .median(3)
    .extractChannel(0)
    .raw()
    .toBuffer();
  const clean = inkMask(
    { ...image, data: new Uint8Array(filtered.buffer, filtered.byteOffset, image.width * image.height) },
    threshold,
  );
  let layout = analyse(inkMask(image, threshold), image.width, image.height, clean);
  if (!layout.ruled) {
    // An unruled page's columns are found on the cleaner mask, unless filtering left it no columns
    // (near-bilevel reprints whose strokes the median thins away): then the plain mask's stand.
    const cleaner = analyse(clean, image.width, image.height);
    if (cleaner.columns.length > 0) layout = cleaner;
  }
  return { width, height, image, threshold, toOriginal, layout };
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
