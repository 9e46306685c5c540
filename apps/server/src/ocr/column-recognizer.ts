/**
 * The project's own column recogniser (issue 29, training/): a CTC model that reads a whole column crop
 * 48 px wide, top to bottom, over 11,099 classical characters in the forms the pages use. Its characters'
 * places come from the CTC alignment: each character is where its class wins, its box reaching halfway
 * to its neighbours and trimmed to the ink.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import { CROP_WIDTH, columnCrop } from './column-crop.ts';
import { loadOrt } from './onnx.ts';
import type { Box, Grey } from './geometry.ts';

/** Where the model and its charset ship (committed; training/README.md says how they are made). */
export const MODEL_DIR = path.resolve(import.meta.dirname, '../../models');
export const COLUMN_MODEL = path.join(MODEL_DIR, 'column-recogniser.onnx');
export const COLUMN_CHARSET = path.join(MODEL_DIR, 'column-recogniser.charset.txt');

/** The model reads 8 rows of its input per step. */
const STEP = 8;
/** Candidates kept per character for the language model. */
const TOP_K = 5;

/** A character read in a column, in page (upright image) pixels. */
export interface ColumnCharacter {
  char: string;
  confidence: number;
  box: Box;
  /** The recogniser's best characters for it, best first. */
  candidates: Array<{ key: string; p: number }>;
}

/**
 * The contrast stretch the model was trained with (training/synth.py `normalise`): the 2nd and 98th
 * percentiles of a subsample of the crop's pixels become black and white.
 */
export function normalise(grey: Uint8Array): Float32Array {
  const n = grey.length;
  const step = Math.max(1, Math.floor(n / 4096));
  const sample: number[] = [];
  for (let i = 0; i < n; i += step) sample.push(grey[i]! / 255);
  sample.sort((a, b) => a - b);
  const quantile = (q: number) => {
    const at = q * (sample.length - 1);
    const lo = Math.floor(at);
    const hi = Math.min(sample.length - 1, lo + 1);
    return sample[lo]! + (sample[hi]! - sample[lo]!) * (at - lo);
  };
  const lo = quantile(0.02);
  const span = Math.max(0.15, quantile(0.98) - lo);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.min(1, Math.max(0, (grey[i]! / 255 - lo) / span));
  return out;
}

export class ColumnRecognizer {
  private constructor(
    private readonly session: InferenceSession,
    private readonly ort: typeof import('onnxruntime-node'),
    /** Class c (1-based) is charset[c - 1]; class 0 is the CTC blank. */
    private readonly charset: string[],
  ) {}

  static available(): boolean {
    return fs.existsSync(COLUMN_MODEL) && fs.existsSync(COLUMN_CHARSET);
  }

  static async load(): Promise<ColumnRecognizer> {
    const ort = await loadOrt();
    const session = await ort.InferenceSession.create(COLUMN_MODEL, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    const charset = fs
      .readFileSync(COLUMN_CHARSET, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    return new ColumnRecognizer(session, ort, charset);
  }

  /** The class probabilities of a column crop, [steps × classes]. */
  async probabilities(crop: Grey): Promise<{ probs: Float32Array; steps: number; classes: number }> {
    const input = normalise(crop.data);
    const output = await this.session.run({
      [this.session.inputNames[0]!]: new this.ort.Tensor('float32', input, [1, 1, crop.height, CROP_WIDTH]),
    });
    const probs = output[this.session.outputNames[0]!]!;
    const [, steps = 0, classes = 0] = probs.dims as number[];
    return { probs: probs.data as Float32Array, steps, classes };
  }

  /** The characters of the column `box` of the upright page `image`, top to bottom. */
  async readColumn(image: Grey, box: Box, threshold: number): Promise<ColumnCharacter[]> {
    const crop = await columnCrop(image, box);
    const { probs, steps, classes } = await this.probabilities(crop);
    const emissions = decodeCtc(probs, steps, classes);
    // Crop rows back to page rows: the crop is the box with its end margins, scaled to the crop width.
    const { top, scale, height: cropHeight } = crop.placement;
    const toPage = (row: number) => top + Math.min(row, cropHeight) / scale;
    const spacing =
      emissions.length > 1
        ? (emissions.at(-1)!.peak - emissions[0]!.peak) / (emissions.length - 1)
        : crop.width / STEP;
    return emissions.map((emission, i) => {
      const before = emissions[i - 1];
      const after = emissions[i + 1];
      const from = before ? (before.peak + emission.peak) / 2 : emission.peak - spacing / 2;
      const to = after ? (emission.peak + after.peak) / 2 : emission.peak + spacing / 2;
      const cell: Box = {
        left: box.left,
        right: box.right,
        top: Math.max(box.top, toPage((from + 0.5) * STEP)),
        bottom: Math.min(box.bottom, toPage((to + 0.5) * STEP)),
      };
      const candidates = emission.candidates.map(({ c, p }) => ({ key: this.charset[c - 1] ?? '〇', p }));
      return {
        char: candidates[0]?.key ?? '〇',
        confidence: candidates[0]?.p ?? 0,
        box: trimToInk(image, cell, threshold),
        candidates,
      };
    });
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}

/**
 * CTC best path: a character where the likeliest class of a run of steps is not the blank (repeats
 * merged). Its candidates are the classes with the highest probability over its steps and the step on
 * either side; `peak` is the step where its class is likeliest.
 */
export function decodeCtc(
  probs: Float32Array,
  steps: number,
  classes: number,
): Array<{ peak: number; candidates: Array<{ c: number; p: number }> }> {
  const best = new Int32Array(steps);
  for (let t = 0; t < steps; t++) {
    let arg = 0;
    let max = -1;
    const row = t * classes;
    for (let c = 0; c < classes; c++) {
      const p = probs[row + c]!;
      if (p > max) {
        max = p;
        arg = c;
      }
    }
    best[t] = arg;
  }
  const out: Array<{ peak: number; candidates: Array<{ c: number; p: number }> }> = [];
  const peakOf = new Float32Array(classes);
  let t = 0;
  while (t < steps) {
    const c = best[t]!;
    if (c === 0) {
      t++;
      continue;
    }
    let end = t;
    while (end + 1 < steps && best[end + 1] === c) end++;
    let peak = t;
    for (let s = t; s <= end; s++) if (probs[s * classes + c]! > probs[peak * classes + c]!) peak = s;
    peakOf.fill(0);
    for (let s = Math.max(0, t - 1); s <= Math.min(steps - 1, end + 1); s++) {
      const row = s * classes;
      for (let k = 1; k < classes; k++) if (probs[row + k]! > peakOf[k]!) peakOf[k] = probs[row + k]!;
    }
    const top: Array<{ c: number; p: number }> = [];
    for (let k = 1; k < classes; k++) {
      const p = peakOf[k]!;
      if (p <= 0 || (top.length === TOP_K && p <= top[TOP_K - 1]!.p)) continue;
      let at = top.length;
      while (at > 0 && top[at - 1]!.p < p) at--;
      top.splice(at, 0, { c: k, p });
      if (top.length > TOP_K) top.pop();
    }
    // The class read comes first even when a neighbour step favours another one.
    const own = top.findIndex((entry) => entry.c === c);
    if (own > 0) top.unshift(...top.splice(own, 1));
    out.push({ peak, candidates: top });
    t = end + 1;
  }
  return out;
}

/** The box narrowed to the rows and columns holding ink (darker than `threshold`), or as it is. */
function trimToInk(image: Grey, box: Box, threshold: number): Box {
  const left = Math.max(0, Math.floor(box.left));
  const right = Math.min(image.width, Math.ceil(box.right));
  const top = Math.max(0, Math.floor(box.top));
  const bottom = Math.min(image.height, Math.ceil(box.bottom));
  let x0 = right;
  let x1 = left - 1;
  let y0 = bottom;
  let y1 = top - 1;
  for (let y = top; y < bottom; y++) {
    const row = y * image.width;
    for (let x = left; x < right; x++) {
      if (image.data[row + x]! >= threshold) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  if (x1 < x0 || y1 < y0) return { left, right, top, bottom };
  return { left: x0, right: x1 + 1, top: y0, bottom: y1 + 1 };
}
