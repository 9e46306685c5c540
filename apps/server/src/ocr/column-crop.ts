/** A line of the page cut for the column recogniser: scaled to its width, with where it lies. */
import sharp from 'sharp';
import type { Box, Grey } from './geometry.ts';

/** Width of the recogniser's input (px). */
export const CROP_WIDTH = 48;

/** A column cut for the recogniser, with where it lies on the page. */
export interface ColumnCrop extends Grey {
  placement: {
    /** The page row of the crop's first row. */
    top: number;
    /** Crop pixels per page pixel. */
    scale: number;
    /** Rows of the crop that hold the page (below them is padding to a multiple of 8). */
    height: number;
  };
}

/** A column's box cut from the page and scaled to the recogniser's width, its height a multiple of 8. */
export async function columnCrop(image: Grey, box: Box): Promise<ColumnCrop> {
  const left = Math.max(0, Math.floor(box.left));
  const top = Math.max(0, Math.floor(box.top));
  const right = Math.min(image.width, Math.ceil(box.right));
  const bottom = Math.min(image.height, Math.ceil(box.bottom));
  const w = Math.max(1, right - left);
  const h = Math.max(1, bottom - top);
  const scaledHeight = Math.max(8, Math.round((h * CROP_WIDTH) / w));
  const outHeight = Math.ceil(scaledHeight / 8) * 8;
  const scaled = await sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), {
    raw: { width: image.width, height: image.height, channels: 1 },
  })
    .extract({ left, top, width: w, height: h })
    .resize(CROP_WIDTH, scaledHeight, { fit: 'fill', kernel: 'lanczos3' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const data = new Uint8Array(CROP_WIDTH * outHeight).fill(255);
  data.set(scaled.subarray(0, CROP_WIDTH * scaledHeight));
  return {
    width: CROP_WIDTH,
    height: outHeight,
    data,
    placement: { top, scale: CROP_WIDTH / w, height: scaledHeight },
  };
}
