/** The OCR engine's interface, and the default engine for vertical pages: its stages in order. */
import type { OcrJson, OcrLine, OcrWarning, OcrWord } from '@guji/shared';
import { ColumnRecognizer } from './column-recognizer.ts';
import { cutCells } from './cells.ts';
import { decodeCells, traditionalForms, type Candidate } from './decode.ts';
import { DETECTOR, TextDetector } from './detector.ts';
import type { CharLanguageModel } from './language-model.ts';
import { loadLanguageModel } from './language-model-loader.ts';
import { columnWidthOf, layoutFromBoxes, type BoxLayout, type LayoutColumn } from './layout.ts';
import { LineRecognizer } from './line-recognizer.ts';
import { loadPage, mapBox, uprightPage } from './page-image.ts';
import { cropGrey, sheetsOf } from './sheets.ts';
import type { Box, Grey } from './geometry.ts';
import { safeTraditional } from './traditional.ts';

/** What an engine read on a page: the spec's OCR JSON, and what it noticed about its own result. */
export interface PageReading {
  ocr: OcrJson;
  warnings: OcrWarning[];
}

/** An OCR engine behind one interface (DESIGN.md §5): a page image in, the spec's OCR JSON out. */
export interface OcrEngine {
  /** e.g. `vertical+own`: stored with every result it makes. */
  readonly name: string;
  /** What runs, for /api/health and job logs. */
  readonly description: string;
  recognize(file: string): Promise<PageReading>;
  close(): Promise<void>;
}

/** The recognisers the engine can run (`OCR_RECOGNISER`). */
export const RECOGNISERS = ['own', 'ppocrv4'] as const;
export type RecogniserName = (typeof RECOGNISERS)[number];
/** The one chosen when `OCR_RECOGNISER` is not set: the better on the real pages (bench/ocr). */
export const DEFAULT_RECOGNISER: RecogniserName = 'own';

/** The engine's constants that bench/ocr tunes (and chooses leave-one-work-out). */
export interface EngineTuning {
  /** Weight of the language model's ln P against the recogniser's ln p. */
  lmWeight: number;
  /** The detector's squeeze of the page's height (DETECTOR.squeeze). */
  squeeze: number;
}
export const TUNING: EngineTuning = { lmWeight: 0.5, squeeze: DETECTOR.squeeze };
/** Cost (in ln p) of reading a character in another traditional form than OpenCC's first choice. */
const ALT_FORM_COST = 0.2;
/** PP-OCRv4: below this probability of its likeliest character a cell holds no character. */
const NO_CHARACTER = 0.01;

/** A character read on the upright page, before the language model chooses among its candidates. */
interface Read {
  char: string;
  confidence: number;
  box: Box;
  /** Readings to choose among, with the recogniser's probability; scored for the language model. */
  cells: Array<Candidate & { p: number }>;
}

/** Reads one detected line (a run of a column, a line of a note) of the upright page. */
interface LineReader {
  read(image: Grey, threshold: number, box: Box): Promise<Read[]>;
  release(): Promise<void>;
}

/** The project's column recogniser: the whole line at once, characters in the page's own forms. */
class OwnReader implements LineReader {
  constructor(private readonly recognizer: ColumnRecognizer) {}
  async read(image: Grey, threshold: number, box: Box): Promise<Read[]> {
    const chars = await this.recognizer.readColumn(image, box, threshold);
    return chars.map((char) => ({
      char: char.char,
      confidence: char.confidence,
      box: char.box,
      cells: char.candidates.map(({ key, p }) => ({ char: key, score: Math.log(Math.max(p, 1e-6)), p })),
    }));
  }
  release() {
    return this.recognizer.release();
  }
}

/**
 * PP-OCRv4's line recogniser: the line cut into character cells, the cells laid side by side upright,
 * its mostly simplified readings offered in their traditional forms.
 */
class PaddleReader implements LineReader {
  constructor(
    private readonly recognizer: LineRecognizer,
    private readonly toTraditional: (char: string) => string,
  ) {}
  async read(image: Grey, threshold: number, box: Box): Promise<Read[]> {
    const cells = cutCells(image, threshold, box);
    const { chars } = await this.recognizer.readColumn(image, cells, threshold);
    const out: Read[] = [];
    chars.forEach((char, i) => {
      // A cell in which the recogniser sees no Han character (the line's blank wins) is a speck.
      if ((char.candidates[0]?.p ?? 0) < NO_CHARACTER) return;
      out.push({
        char: this.toTraditional(char.char),
        confidence: char.confidence,
        box: cells[i]!,
        cells: char.candidates.flatMap(({ key, p }) => {
          const first = this.toTraditional(key);
          const forms = [first, ...[key, ...traditionalForms(key)].filter((f) => f !== first)];
          return [...new Set(forms)].map((form, k) => ({
            char: form,
            score: Math.log(Math.max(p, 1e-6)) - (k === 0 ? 0 : ALT_FORM_COST),
            p,
          }));
        }),
      });
    });
    return out;
  }
  release() {
    return this.recognizer.release();
  }
}

/**
 * The default pipeline of DESIGN.md §5 for vertical pages, in stages (docs/architecture.md):
 * 1. `loadPage`: grey, red ink removed; 2. `uprightPage`: deskewed; 3. `TextDetector`: PP-OCRv4's DB text
 * detector finds the text lines; 3b. `sheetsOf`: a sheet of several pages (a facsimile's 2 × 2 reduced
 * leaves) cut into its pages, each detected again; 4. `layoutFromBoxes`: registers, columns right to left, runs of main
 * text and double-line notes, centre strip and margins; 5. a `LineReader` reads each line (the project's
 * column recogniser, or PP-OCRv4's on cut cells), five candidates a character; 6. a character model of
 * classical Chinese chooses the page's reading among them (language-model.ts); 7. the spec's OCR JSON,
 * boxes in original-image pixels.
 */
export class VerticalPageEngine implements OcrEngine {
  static describe(recogniser = configuredRecogniser()): { engine: string; description: string } {
    return {
      engine: `vertical+${recogniser}`,
      description:
        recogniser === 'own'
          ? '文字检测（PP-OCRv4 DB）+ 竖排版面（分栏、版心、双行小注）+ 本馆古籍字列识别模型 + 古籍字符语言模型择字'
          : '文字检测（PP-OCRv4 DB）+ 竖排版面（分栏、版心、双行小注）+ PP-OCRv4 单字识别 + 古籍字符语言模型择字',
    };
  }

  readonly name: string;
  readonly description: string;

  private constructor(
    private readonly detector: TextDetector,
    private readonly reader: LineReader,
    recogniser: RecogniserName,
    /** The character model of classical Chinese that chooses among the candidates (none: top-1). */
    private readonly lm: CharLanguageModel | undefined,
    private readonly tuning: EngineTuning,
  ) {
    ({ engine: this.name, description: this.description } = VerticalPageEngine.describe(recogniser));
  }

  /**
   * Loads the detector and the recogniser (one instance per worker, single-threaded) and the language
   * model (`languageModel`: another one, or null for none; by default built from the texts at hand,
   * language-model-loader.ts, once per machine).
   */
  static async create(
    options: {
      languageModel?: CharLanguageModel | null;
      recogniser?: RecogniserName;
      /** Other values of the engine's tuned constants (bench/ocr's leave-one-work-out choice). */
      tuning?: Partial<EngineTuning>;
    } = {},
  ): Promise<VerticalPageEngine> {
    const recogniser = options.recogniser ?? configuredRecogniser();
    const detector = await TextDetector.load();
    const reader: LineReader =
      recogniser === 'own'
        ? new OwnReader(await ColumnRecognizer.load())
        : new PaddleReader(await LineRecognizer.load(), safeTraditional());
    const lm =
      options.languageModel === undefined ? loadLanguageModel() : (options.languageModel ?? undefined);
    return new VerticalPageEngine(detector, reader, recogniser, lm, { ...TUNING, ...options.tuning });
  }

  async recognize(file: string): Promise<PageReading> {
    const page = await loadPage(file);
    const upright = await uprightPage(page);
    const layout = await this.layoutOf(upright.image, upright.threshold);
    const lines: Array<{ column: LayoutColumn; chars: Read[] }> = [];
    for (const column of layout.columns)
      lines.push({ column, chars: await this.reader.read(upright.image, upright.threshold, column.box) });
    // The language model reads the body (main text and notes) in reading order.
    const body = lines.filter((l) => l.column.kind === 'text' || l.column.kind === 'note');
    if (this.lm) {
      const text = body.flatMap((l) => l.chars);
      const choice = decodeCells(
        text.map((char) => char.cells),
        this.lm,
        this.tuning.lmWeight,
      );
      text.forEach((char, i) => {
        const picked = char.cells[choice[i]!];
        if (!picked) return;
        char.char = picked.char;
        // The confidence stays the recogniser's probability of the character taken (docs/benchmarks.md:
        // it is calibrated as it is; the model's posterior told errors apart worse).
        char.confidence = picked.p;
      });
    }
    const word = (char: Read, kind: LayoutColumn['kind']): OcrWord => {
      const points = mapBox(char.box, upright.toOriginal, page.width, page.height);
      return {
        word: char.char,
        type: kind === 'note' ? 'note' : 'text',
        confidence: Math.round(char.confidence * 1000) / 1000,
        points,
        fontSize: Math.round(Math.min(points.right - points.left, points.bottom - points.top)),
      };
    };
    // One line of the JSON per column of the page (slot): its runs of main text and notes in order.
    const regions = { content: [] as OcrLine[], middleSeam: [] as OcrLine[], others: [] as OcrLine[] };
    let current: { slot: number; region: keyof typeof regions; line: OcrLine } | undefined;
    for (const { column, chars } of lines) {
      if (chars.length === 0) continue;
      const region = column.kind === 'centre' ? 'middleSeam' : column.kind === 'other' ? 'others' : 'content';
      if (!current || current.slot !== column.slot || current.region !== region) {
        current = { slot: column.slot, region, line: { words: [] } };
        regions[region].push(current.line);
      }
      current.line.words.push(...chars.map((char) => word(char, column.kind)));
    }
    const ocr: OcrJson = {
      imginfo: { width: page.width, height: page.height },
      ocr_res: { header: [], footer: [], ...regions },
    };
    return { ocr, warnings: warningsOf(layout, lines) };
  }

  /**
   * Stages 3 and 4: the detector's boxes and the layout built from them; a sheet of several pages is
   * split into its pages (sheets.ts), each detected again at its own scale and laid out on its own.
   */
  private async layoutOf(image: Grey, threshold: number): Promise<BoxLayout> {
    // Two passes of the detector: squeezed along the columns (it joins each column's characters), and
    // as the page is (it keeps a note's two lines apart).
    const detect = async (part: Grey) => ({
      boxes: await this.detector.detect(part, DETECTOR.height, this.tuning.squeeze),
      fine: await this.detector.detect(part, DETECTOR.fineHeight, 1),
    });
    const boxes = await this.detector.detect(image, DETECTOR.height, this.tuning.squeeze);
    const mask: Grey = { ...image, data: image.data.map((v) => (v < threshold ? 1 : 0)) };
    const sheets = sheetsOf(boxes, mask, columnWidthOf(boxes));
    if (sheets.length === 1) {
      const fine = await this.detector.detect(image, DETECTOR.fineHeight, 1);
      return layoutFromBoxes(boxes, image, threshold, fine);
    }
    const layouts: BoxLayout[] = [];
    for (const sheet of sheets) {
      const part = cropGrey(image, sheet);
      const found = await detect(part);
      const layout = layoutFromBoxes(found.boxes, part, threshold, found.fine);
      const [dx, dy] = [Math.round(sheet.left), Math.round(sheet.top)];
      const slots = layouts.reduce((sum, l) => sum + l.slots, 0);
      layouts.push({
        ...layout,
        columns: layout.columns.map((c) => ({
          ...c,
          box: {
            left: c.box.left + dx,
            right: c.box.right + dx,
            top: c.box.top + dy,
            bottom: c.box.bottom + dy,
          },
          slot: c.slot < 0 ? c.slot : c.slot + slots,
        })),
      });
    }
    const expected = layouts.map((l) => l.expectedColumns);
    return {
      columns: layouts.flatMap((l) => l.columns),
      columnWidth: layouts[0]!.columnWidth,
      slots: layouts.reduce((sum, l) => sum + l.slots, 0),
      detected: layouts.reduce((sum, l) => sum + l.detected, 0),
      ...(expected.every((e) => e !== undefined)
        ? { expectedColumns: expected.reduce((a, b) => a + b, 0) }
        : {}),
    };
  }

  async close(): Promise<void> {
    await Promise.all([this.detector.release(), this.reader.release()]);
  }
}

/** A page with this many characters' room in its text lines or more may be checked for little read. */
const WARN_MIN_ROOM = 10;
/** Read fewer than this share of the characters the text lines have room for: text was missed. */
const WARN_LITTLE = 0.4;
/** The detector's columns and the layout's differ by more than this many: the order may be wrong. */
const WARN_COLUMNS = 2;
/**
 * Spec §9 shows a character at confidence ≤ 0.5 red; on the real pages about two in three of them are
 * wrong (docs/benchmarks.md). A page with at least this share of its characters red is mostly misread.
 */
const RED = 0.5;
const WARN_RED_SHARE = 0.5;

/**
 * What the engine noticed about its result (issue 28 part 5), for the proofreader: no text found; text
 * regions found but little read (fewer characters than WARN_LITTLE of the room in the lines, a
 * character being about as tall as its line is wide); a ruled page's columns and the columns read
 * disagreeing by more than WARN_COLUMNS.
 */
export function warningsOf(
  layout: BoxLayout,
  lines: Array<{ column: LayoutColumn; chars: Array<{ confidence: number }> }>,
): OcrWarning[] {
  const warnings: OcrWarning[] = [];
  if (layout.detected === 0)
    return [{ code: 'no-text', message: '未在图像中找到文字区域，请确认图像是否为书页。' }];
  const body = lines.filter((l) => l.column.kind === 'text' || l.column.kind === 'note');
  const room = Math.round(
    body.reduce(
      (sum, l) =>
        sum + (l.column.box.bottom - l.column.box.top) / Math.max(1, l.column.box.right - l.column.box.left),
      0,
    ),
  );
  const read = body.reduce((sum, l) => sum + l.chars.length, 0);
  if (room >= WARN_MIN_ROOM && read < room * WARN_LITTLE)
    warnings.push({
      code: 'little-text',
      message: `版面找到了文字区域，但只识别出 ${read} 个字（按行长约应有 ${room} 字），可能有漏识，请核对。`,
    });
  const red = body.reduce((sum, l) => sum + l.chars.filter((c) => c.confidence <= RED).length, 0);
  if (read > 0 && red >= read * WARN_RED_SHARE)
    warnings.push({
      code: 'low-confidence',
      message: `本页识别出的 ${read} 个字中有 ${red} 个置信度低（红色），多半有误，请逐字核对。`,
    });
  if (layout.expectedColumns !== undefined && Math.abs(layout.expectedColumns - layout.slots) > WARN_COLUMNS)
    warnings.push({
      code: 'columns',
      message: `界栏约有 ${layout.expectedColumns} 行，识别结果分为 ${layout.slots} 行，行序可能有误，请核对。`,
    });
  return warnings;
}

/** `OCR_RECOGNISER` (own or ppocrv4; checked with the rest of the configuration at start). */
export function configuredRecogniser(): RecogniserName {
  const value = process.env.OCR_RECOGNISER;
  return (RECOGNISERS as readonly string[]).includes(value ?? '')
    ? (value as RecogniserName)
    : DEFAULT_RECOGNISER;
}
