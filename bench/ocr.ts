/**
 * OCR accuracy and speed (DESIGN.md §11: ≤ 3 s a page on one core; CER on rendered pages with known
 * text; issue target CER ≤ 0.05).
 *
 * Renders leaves with the demo typesetter (their ground truth is the typeset text) and reads them back
 * with the server's OCR engine, under variants: as rendered (Noto Serif TC, a Song/Ming typeface);
 * typeset in LXGW WenKai TC (a regular-script 楷 typeface, closer to hand-cut and written pages); typeset
 * without column rules; with double-line small notes (雙行小注, text of 中庸 set as notes every 14
 * characters); turned 1.5° (skew); speckled with noise and blurred; at 60 % size (smaller characters).
 * CER = edit distance ÷
 * ground-truth length over the body text with whitespace removed (the centre strip and headers are not
 * part of it), and again with variant characters folded (simplified/traditional and the variant table of
 * the search module). For the notes variant, also how many of the notes' small characters the engine
 * marked as notes.
 *
 * Then every real page with a transcription under ../shared/data/ocr-real (and its dev/ set): CER, CER
 * with the transcriptions' variant pairs folded, characters read, columns found against transcribed,
 * characters typed as notes, seconds; the mean and the worst page (issue 14's targets).
 *
 * Environment: BENCH_OCR_LEAVES (default 6; 0 reads the real pages only), BENCH_KEEP=1 (keeps the images
 * in the temp folder).
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { contentWords, pageText, type OcrJson } from '@guji/shared';
import { type DemoBook, loadDemoBooks } from '../apps/server/src/demo/books.ts';
import { CLASSICS_DIR } from '../apps/server/src/demo/demo.ts';
import { loadGlyphs } from '../apps/server/src/demo/fonts.ts';
import { type LayoutChapter, layoutVolume, stripPunctuation } from '../apps/server/src/demo/layout.ts';
import { leafCharacters, renderLeaf } from '../apps/server/src/demo/render.ts';
import { characterErrorRate } from '../apps/server/src/ocr/cer.ts';
import {
  configuredRecogniser,
  RECOGNISERS,
  TUNING,
  VerticalPageEngine,
  type EngineTuning,
} from '../apps/server/src/ocr/engine.ts';
import type { CharLanguageModel } from '../apps/server/src/ocr/language-model.ts';
import { loadLanguageModel, RENDERED_LEAF_TEXTS } from '../apps/server/src/ocr/language-model-loader.ts';
import { foldText } from '../apps/server/src/search/fold.ts';
import {
  type BenchResult,
  type Budget,
  machine,
  printResult,
  removeDir,
  ROOT,
  summarize,
  tempDir,
  writeResult,
} from './lib.ts';

const LEAVES = Number(process.env.BENCH_OCR_LEAVES ?? 6);
const REAL_DIR = path.resolve(ROOT, '../shared/data/ocr-real');
const CER_TARGET = 0.05;
/** Issue 14: on real pages, mean CER ≤ 0.20 and no page above 0.40. */
const REAL_MEAN_TARGET = 0.2;
const REAL_WORST_TARGET = 0.4;
/** A second typeface, regular script (楷), installed for the benchmark only. */
const KAI_FONT = '@fontsource/lxgw-wenkai-tc';
const SECONDS_BUDGET = 3;
const log = (line: string) => console.log(`[ocr] ${line}`);

const clean = (text: string) => text.replace(/\s+/g, '');
/** CER as the engine tests count it; with `fold`, after the search module's variant folding. */
function cer(truth: string, read: string, fold = false): number {
  return fold
    ? characterErrorRate(foldText(clean(truth)), foldText(clean(read)))
    : characterErrorRate(truth, read);
}

/** The typeset leaves a variant starts from. */
interface Typeset {
  png: Buffer;
  unruled: Buffer;
  kai: Buffer;
  notes: Buffer;
}

interface Variant {
  name: string;
  /** Which ground truth applies: the plain leaf's (default) or the leaf with notes. */
  truth?: 'notes';
  make: (leaf: Typeset) => Promise<Buffer>;
}

const PAPER = { r: 233, g: 220, b: 192 };
const VARIANTS: Variant[] = [
  { name: 'as rendered', make: (leaf) => Promise.resolve(leaf.png) },
  { name: 'LXGW WenKai TC (楷)', make: (leaf) => Promise.resolve(leaf.kai) },
  { name: 'without column rules', make: (leaf) => Promise.resolve(leaf.unruled) },
  { name: 'double-line notes', truth: 'notes', make: (leaf) => Promise.resolve(leaf.notes) },
  {
    name: 'skewed 1.5°',
    make: (leaf) => sharp(leaf.png).rotate(1.5, { background: PAPER }).png().toBuffer(),
  },
  {
    name: 'noise and blur',
    make: async ({ png }) => {
      const { width = 0, height = 0 } = await sharp(png).metadata();
      const speckles = Buffer.alloc(width * height * 4);
      let seed = 12345;
      const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
      for (let i = 0; i < width * height; i++) {
        const dark = random() < 0.02;
        speckles[i * 4] = speckles[i * 4 + 1] = speckles[i * 4 + 2] = dark ? 40 : 255;
        speckles[i * 4 + 3] = dark ? 200 : 0;
      }
      return sharp(png)
        .composite([{ input: speckles, raw: { width, height, channels: 4 } }])
        .blur(1.2)
        .png()
        .toBuffer();
    },
  },
  {
    name: 'small (60 %)',
    make: async ({ png }) => {
      const { width = 0 } = await sharp(png).metadata();
      return sharp(png)
        .resize(Math.round(width * 0.6))
        .png()
        .toBuffer();
    },
  },
];

/** A typeset leaf with its ground truth, plain and with notes. */
type Leaf = Typeset & { name: string; truth: OcrJson; notesTruth: OcrJson };

/** What the engine read of every leaf under one variant. */
interface VariantRow {
  variant: string;
  cer: number;
  cerFolded: number;
  seconds: number[];
  pages: number;
  perPage: Array<{ page: string; cer: number }>;
  /** Small characters of notes in the ground truth, and how many the engine marked as notes. */
  notes?: { typeset: number; marked: number };
}

/** The real pages read by another recogniser than the configured one. */
type OtherRecogniser = { name: string; pages: RealPage[] };
type LeaveOneWorkOut = Awaited<ReturnType<typeof leaveOneWorkOut>>;
type RealSummary = NonNullable<ReturnType<typeof summarizeReal>>;

/**
 * Inserts double-line notes into chapters: after every 14th character from the 8th on, 5–8 characters
 * of 中庸 (a book not among the pages read), continuing through 中庸 from one call to the next.
 */
function noteInserter(all: DemoBook[]): (chapters: LayoutChapter[]) => LayoutChapter[] {
  // Note text: 中庸, a book not among the pages read, in runs of 5–8 characters.
  const noteSource = [
    ...stripPunctuation(
      all
        .find((b) => b.key === 'zhongyong')!
        .volumes.flatMap((v) => v.chapters.flatMap((c) => c.paragraphs))
        .join(''),
    ),
  ];
  let noteAt = 0;
  return (chapters) =>
    chapters.map((chapter) => ({
      title: chapter.title,
      paragraphs: chapter.paragraphs.map((paragraph) =>
        [...stripPunctuation(paragraph)]
          .map((ch, i) => {
            if (i % 14 !== 7) return ch;
            const n = 5 + (i % 4);
            const note = noteSource.slice(noteAt, noteAt + n).join('');
            noteAt = (noteAt + n) % (noteSource.length - 8);
            return `${ch}〔${note}〕`;
          })
          .join(''),
      ),
    }));
}

/** The first `count` leaves of a book's first volume, rendered in every typeset form. */
async function typesetBook(
  book: DemoBook,
  count: number,
  withNotes: (chapters: LayoutChapter[]) => LayoutChapter[],
): Promise<Leaf[]> {
  const leaves: Leaf[] = [];
  const volume = book.volumes[0]!;
  const noted = withNotes(volume.chapters);
  const chars = new Set<string>();
  for (const chapters of [volume.chapters, noted])
    for (const leaf of layoutVolume(chapters).leaves.slice(0, count))
      for (const ch of leafCharacters(leaf, book.title, volume.name)) chars.add(ch);
  const glyphs = await loadGlyphs(chars);
  const kaiGlyphs = await loadGlyphs(chars, KAI_FONT);
  // Characters either typeface lacks are left out of every variant, so all read the same text.
  const omitChars = [...glyphs.missing, ...kaiGlyphs.missing];
  const plain = layoutVolume(volume.chapters, { omitChars }).leaves.slice(0, count);
  const notes = layoutVolume(noted, { omitChars }).leaves.slice(0, count);
  for (const [i, leaf] of plain.entries()) {
    const options = {
      bookTitle: book.title,
      volumeName: volume.name,
      glyphs,
      seed: leaf.leafNumber * 31,
    };
    const rendered = await renderLeaf(leaf, options);
    const notesRendered = await renderLeaf(notes[i]!, options);
    leaves.push({
      name: `${book.key}-${leaf.leafNumber}`,
      png: rendered.png,
      unruled: (await renderLeaf(leaf, { ...options, ruled: false })).png,
      kai: (await renderLeaf(leaf, { ...options, glyphs: kaiGlyphs })).png,
      notes: notesRendered.png,
      truth: rendered.ocr,
      notesTruth: notesRendered.ocr,
    });
  }
  return leaves;
}

/** Leaves of 論語, 孟子 and 詩經 with known text, LEAVES in all. */
async function typesetLeaves(): Promise<Leaf[]> {
  log('typesetting leaves with known text…');
  const all = loadDemoBooks(CLASSICS_DIR);
  const books = all.filter((b) => ['lunyu', 'mengzi', 'shijing'].includes(b.key));
  const withNotes = noteInserter(all);
  const leaves: Leaf[] = [];
  for (const book of books)
    leaves.push(...(await typesetBook(book, Math.ceil(LEAVES / books.length), withNotes)));
  return leaves;
}

const noteCount = (json: OcrJson) =>
  json.ocr_res.content.flatMap((line) => line.words).filter((w) => w.type === 'note').length;

/** Every leaf made into the variant and read: CER over the leaves, plain and folded, and seconds a page. */
async function readVariant(
  engine: VerticalPageEngine,
  leaves: Leaf[],
  work: string,
  variant: Variant,
): Promise<VariantRow> {
  const seconds: number[] = [];
  let errors = 0;
  let errorsFolded = 0;
  let total = 0;
  const perPage: Array<{ page: string; cer: number }> = [];
  const notes = { typeset: 0, marked: 0 };
  for (const leaf of leaves) {
    const file = path.join(work, `${leaf.name}-${variant.name.replace(/\W+/g, '_')}.png`);
    fs.writeFileSync(file, await variant.make(leaf));
    const start = performance.now();
    const { ocr: read } = await engine.recognize(file);
    seconds.push((performance.now() - start) / 1000);
    const truthJson = variant.truth === 'notes' ? leaf.notesTruth : leaf.truth;
    notes.typeset += noteCount(truthJson);
    notes.marked += noteCount(read);
    const truth = clean(pageText(truthJson));
    const got = clean(pageText(read));
    const length = [...truth].length;
    errors += cer(truth, got) * length;
    errorsFolded += cer(truth, got, true) * length;
    total += length;
    perPage.push({ page: leaf.name, cer: Math.round(cer(truth, got) * 1000) / 1000 });
  }
  log(`${variant.name}: CER ${(errors / total).toFixed(3)}`);
  return {
    variant: variant.name,
    cer: Math.round((errors / total) * 1000) / 1000,
    cerFolded: Math.round((errorsFolded / total) * 1000) / 1000,
    seconds,
    pages: leaves.length,
    perPage,
    ...(variant.truth === 'notes' ? { notes } : {}),
  };
}

/** The other recognisers on the real pages (issue 29: both side by side), unless BENCH_OCR_BOTH=0. */
async function readWithOthers(languageModel: CharLanguageModel | null): Promise<OtherRecogniser[]> {
  const others: OtherRecogniser[] = [];
  for (const recogniser of RECOGNISERS.filter((r) => r !== configuredRecogniser())) {
    if (process.env.BENCH_OCR_BOTH === '0') break;
    const other = await VerticalPageEngine.create({ languageModel, recogniser });
    try {
      log(`real pages with ${other.name}…`);
      others.push({ name: other.name, pages: await readRealPages(other, true) });
    } finally {
      await other.close();
    }
  }
  return others;
}

/** The table's rows of the engine, the language model and the rendered leaves' variants. */
function variantRows(
  engine: VerticalPageEngine,
  languageModel: CharLanguageModel | null,
  rows: VariantRow[],
): Array<[string, string]> {
  const table: Array<[string, string]> = [
    ['engine', `${engine.name}: ${engine.description}`],
    [
      'language model',
      languageModel
        ? `${languageModel.tokens} characters of text, ${languageModel.size} distinct (without ${RENDERED_LEAF_TEXTS.join(', ')})`
        : 'none',
    ],
  ];
  for (const row of rows) {
    const s = summarize(row.seconds);
    table.push([
      `${row.variant} (${row.pages} leaves)`,
      `CER ${row.cer}, folded ${row.cerFolded}; ${s.p50} s a page (p95 ${s.p95})` +
        (row.notes ? `; ${row.notes.marked} characters marked as notes of ${row.notes.typeset} typeset` : ''),
    ]);
  }
  return table;
}

/** The table's rows of each real page, the other recognisers' and the leave-one-work-out figure. */
function realPageRows(
  real: RealPage[],
  others: OtherRecogniser[],
  lowo: LeaveOneWorkOut | undefined,
): Array<[string, string]> {
  const table: Array<[string, string]> = [];
  for (const page of real)
    table.push([
      `real: ${page.page}`,
      `CER ${page.cer}, folded ${page.cerFolded}; read ${page.read} of ${page.truth} characters; ` +
        `columns ${page.columns} of ${page.columnsTruth}; ${page.notes} typed note; ${page.seconds} s`,
    ]);
  for (const other of others) {
    const summary = summarizeReal(other.pages);
    if (!summary) continue;
    for (const page of other.pages)
      table.push([
        `real (${other.name}): ${page.page}`,
        `CER ${page.cer}, folded ${page.cerFolded}; read ${page.read} of ${page.truth}; columns ${page.columns} of ${page.columnsTruth}`,
      ]);
    table.push([
      `real pages (${other.name})`,
      `mean CER ${summary.meanCer} (folded ${summary.meanFolded}), worst ${summary.worst.cer}; ${summary.seconds.p50} s a page`,
    ]);
  }
  if (lowo) {
    table.push([
      'leave-one-work-out (issue 28)',
      `mean CER ${lowo.mean} with each work's constants chosen without it (plain mean of the same grid's default ${lowo.plain})`,
    ]);
    for (const work of lowo.works)
      table.push([`  held out: ${work.work}`, `CER ${work.cer} with ${JSON.stringify(work.chosen)}`]);
  }
  return table;
}

/** The table's rows summing up the real pages, with the error rate of each confidence band. */
function realSummaryRows(real: RealPage[], realSummary: RealSummary | undefined): Array<[string, string]> {
  const table: Array<[string, string]> = [];
  if (realSummary)
    table.push([
      `real pages (${real.length})`,
      `mean CER ${realSummary.meanCer} (folded ${realSummary.meanFolded}), worst ${realSummary.worst.cer} ` +
        `(${realSummary.worst.page}); ${realSummary.empty} empty; ${realSummary.seconds.p50} s a page (p95 ${realSummary.seconds.p95})`,
    ]);
  else table.push(['real pages', `none found under ${REAL_DIR}`]);
  if (realSummary) {
    const wrong = realSummary.bands.reduce((sum, b) => sum + b.wrong, 0);
    for (const band of realSummary.bands)
      table.push([
        `real pages, confidence ${band.name}`,
        `${band.read} characters, ${band.wrong} wrong (error rate ${
          band.read ? (band.wrong / band.read).toFixed(3) : '–'
        }); ${wrong ? Math.round((band.wrong / wrong) * 100) : 0} % of the wrong characters`,
      ]);
  }
  return table;
}

/** The budgets of the rendered leaves (when read) and of the real pages (when found). */
function ocrBudgets(rows: VariantRow[], realSummary: RealSummary | undefined): Budget[] {
  const clean0 = rows[0];
  const renderedSeconds = summarize(rows.flatMap((r) => r.seconds));
  return [
    ...(clean0
      ? [
          {
            what: 'OCR CER on rendered pages (as rendered)',
            budget: `≤ ${CER_TARGET}`,
            measured: `${clean0.cer} (folded ${clean0.cerFolded})`,
            met: clean0.cer <= CER_TARGET,
          },
          {
            what: 'OCR seconds a page, one core',
            budget: `≤ ${SECONDS_BUDGET} s`,
            measured: `p50 ${renderedSeconds.p50} s`,
            met: renderedSeconds.p95 <= SECONDS_BUDGET,
          },
        ]
      : []),
    ...(realSummary
      ? [
          {
            what: 'OCR on real pages: mean CER (issue 14)',
            budget: `≤ ${REAL_MEAN_TARGET}`,
            measured: `${realSummary.meanCer} (folded ${realSummary.meanFolded})`,
            met: realSummary.meanCer <= REAL_MEAN_TARGET,
          },
          {
            what: 'OCR on real pages: worst page CER, no empty page (issue 14)',
            budget: `≤ ${REAL_WORST_TARGET}, 0 empty`,
            measured: `${realSummary.worst.cer} (${realSummary.worst.page}), ${realSummary.empty} empty`,
            met: realSummary.worst.cer <= REAL_WORST_TARGET && realSummary.empty === 0,
          },
          {
            what: 'OCR on real pages: seconds a page, one core (issue 14)',
            budget: 'median ≤ 3 s, p95 ≤ 6 s',
            measured: `median ${realSummary.seconds.p50} s, p95 ${realSummary.seconds.p95} s`,
            met: realSummary.seconds.p50 <= 3 && realSummary.seconds.p95 <= 6,
          },
        ]
      : []),
  ];
}

/** Runs the OCR benchmark: rendered leaves under every variant, then the real pages. */
export async function runOcr(): Promise<BenchResult> {
  const started = new Date();
  const t0 = performance.now();
  const work = tempDir('guji-bench-ocr-');
  // The language model is built without the books the rendered leaves are typeset from (論語, 孟子, 詩經,
  // and 中庸 for the notes), so it cannot have learnt the very text it helps to read; BENCH_OCR_LM=0 reads
  // without a language model.
  const languageModel =
    process.env.BENCH_OCR_LM === '0' ? null : (loadLanguageModel({ exclude: RENDERED_LEAF_TEXTS }) ?? null);
  const engine = await VerticalPageEngine.create({ languageModel });
  try {
    const leaves = await typesetLeaves();
    log(`${leaves.length} leaves; ${VARIANTS.length} variants; engine ${engine.name}`);
    const rows: VariantRow[] = [];
    // BENCH_OCR_LEAVES=0: the real pages only.
    for (const variant of leaves.length > 0 ? VARIANTS : [])
      rows.push(await readVariant(engine, leaves, work, variant));

    const real = await readRealPages(engine);
    // The other recogniser on the same pages, and the leave-one-work-out figure (issue 28) when asked for.
    const others = await readWithOthers(languageModel);
    const lowo = process.env.BENCH_OCR_LOWO === '1' ? await leaveOneWorkOut(languageModel) : undefined;

    const table = [...variantRows(engine, languageModel, rows), ...realPageRows(real, others, lowo)];
    const realSummary = summarizeReal(real);
    table.push(...realSummaryRows(real, realSummary));
    const budgets = ocrBudgets(rows, realSummary);
    return {
      name: 'ocr',
      startedAt: started.toISOString(),
      seconds: (performance.now() - t0) / 1000,
      machine: machine(),
      budgets,
      table,
      data: { rows, real, others, lowo },
    };
  } finally {
    await engine.close();
    if (process.env.BENCH_KEEP !== '1') removeDir(work);
  }
}

interface RealPage {
  page: string;
  cer: number;
  cerFolded: number;
  truth: number;
  read: number;
  columns: number;
  columnsTruth: number;
  notes: number;
  seconds: number;
  /** Characters read and how many of them are wrong, per confidence band (spec §9 colours). */
  bands: Band[];
  /** The engine's warnings (codes) for the page. */
  warnings: string[];
}

/** Spec §9: confidence ≤ 0.5 is shown red, up to 0.7 yellow, above that as plain text. */
const BANDS = [
  { name: 'red (≤ 0.5)', upTo: 0.5 },
  { name: 'yellow (0.5–0.7]', upTo: 0.7 },
  { name: 'plain (> 0.7)', upTo: Infinity },
] as const;
interface Band {
  name: string;
  read: number;
  wrong: number;
}

/**
 * Which characters read are wrong, by a minimal edit alignment with the transcription (variant pairs
 * folded): a character is right when the alignment matches it with the same character, wrong when it
 * substitutes or is inserted. Counted per confidence band.
 */
function confidenceBands(truth: string, words: Array<{ word: string; confidence: number }>): Band[] {
  const t = [...realFold(truth)];
  const h = words.map((w) => realFold(w.word));
  const n = t.length;
  const m = h.length;
  const cost = new Int32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = 0; i <= n; i++) cost[at(i, 0)] = i;
  for (let j = 0; j <= m; j++) cost[at(0, j)] = j;
  for (let i = 1; i <= n; i++)
    for (let j = 1; j <= m; j++)
      cost[at(i, j)] = Math.min(
        cost[at(i - 1, j)]! + 1,
        cost[at(i, j - 1)]! + 1,
        cost[at(i - 1, j - 1)]! + (t[i - 1] === h[j - 1] ? 0 : 1),
      );
  const right = new Array<boolean>(m).fill(false);
  for (let i = n, j = m; j > 0;) {
    if (i > 0 && cost[at(i, j)] === cost[at(i - 1, j - 1)]! + (t[i - 1] === h[j - 1] ? 0 : 1)) {
      right[j - 1] = t[i - 1] === h[j - 1];
      i--;
      j--;
    } else if (i > 0 && cost[at(i, j)] === cost[at(i - 1, j)]! + 1) i--;
    else j--;
  }
  const bands = BANDS.map((b) => ({ name: b.name, read: 0, wrong: 0 }));
  words.forEach((w, j) => {
    const band = bands[BANDS.findIndex((b) => w.confidence <= b.upTo)]!;
    band.read++;
    if (!right[j]) band.wrong++;
  });
  return bands;
}

/**
 * Variant pairs the transcriptions of ../shared/data/ocr-real/dev fold when scoring (its README: forms
 * the scan's resolution cannot tell apart); each maps to the first of its group.
 */
const REAL_FOLD_GROUPS =
  '為爲 眾衆 黃黄 說説 內内 陰隂 德徳 隱隠 錄録 別别 真眞 修脩 華花 青靑 既旣 即卽 決决 減减 弊獘 疏踈 略畧 蓋葢盖 穎頴 祇祗 稟禀 世丗 壽夀 溫温 注註 幷并 高髙 顏顔 懷懐 兗兖 敕勅 並竝 事亊 玄𤣥 弘𢎞';
const REAL_FOLD = new Map(
  REAL_FOLD_GROUPS.split(' ').flatMap((group) => {
    const [first, ...rest] = [...group];
    return rest.map((c) => [c, first!] as const);
  }),
);
const realFold = (text: string) => [...text].map((c) => REAL_FOLD.get(c) ?? c).join('');

/**
 * Every real page with a transcription: ../shared/data/ocr-real/*.gt.txt and dev/*.gt.txt (the image
 * beside it, .png or .jpg). Pages are read one after another, on one core.
 */
async function readRealPages(engine: VerticalPageEngine, quiet = false): Promise<RealPage[]> {
  const pages: RealPage[] = [];
  for (const dir of [REAL_DIR, path.join(REAL_DIR, 'dev')]) {
    if (!fs.existsSync(dir)) continue;
    for (const gt of fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.gt.txt'))
      .sort()) {
      const name = gt.slice(0, -'.gt.txt'.length);
      const image = ['.png', '.jpg', '.jpeg', '.tif']
        .map((ext) => path.join(dir, name + ext))
        .find((f) => fs.existsSync(f));
      if (!image) continue;
      const truthText = fs.readFileSync(path.join(dir, gt), 'utf8');
      const start = performance.now();
      const { ocr: read, warnings } = await engine.recognize(image);
      const seconds = (performance.now() - start) / 1000;
      const truth = clean(truthText);
      const got = clean(pageText(read));
      const page: RealPage = {
        page: name,
        cer: Math.round(characterErrorRate(truth, got) * 1000) / 1000,
        cerFolded: Math.round(cer(realFold(truth), realFold(got), true) * 1000) / 1000,
        truth: [...truth].length,
        read: [...got].length,
        columns: read.ocr_res.content.length,
        columnsTruth: truthText.split('\n').filter((l) => l.trim() !== '').length,
        notes: read.ocr_res.content.flatMap((l) => l.words).filter((w) => w.type === 'note').length,
        seconds: Math.round(seconds * 100) / 100,
        bands: confidenceBands(truth, contentWords(read)),
        warnings: warnings.map((w) => w.code),
      };
      pages.push(page);
      if (!quiet) log(`real ${name}: CER ${page.cer} (folded ${page.cerFolded}), ${page.seconds} s`);
    }
  }
  return pages;
}

/** A real page's work: its name's first two parts (史記's 目錄 leaves are 史記 too). */
export const workOf = (page: string) => page.split('-').slice(0, 2).join('-');

/** The tuned constants' values tried (issue 28 part 4): each work's chosen without its own pages. */
const GRID: Array<Partial<EngineTuning>> = [0.25, 0.5, 1].flatMap((lmWeight) =>
  [0.4, 0.5, 0.6].map((squeeze) => ({ lmWeight, squeeze })),
);

/**
 * Leave-one-work-out: every real page read under each setting of GRID; for each work, the setting with
 * the lowest mean CER on the other works' pages is the one its pages are scored with. The mean of those
 * scores is what a work never seen in tuning can expect; beside it, the plain mean under the defaults.
 */
async function leaveOneWorkOut(languageModel: CharLanguageModel | null) {
  const runs: Array<{ tuning: Partial<EngineTuning>; pages: RealPage[] }> = [];
  for (const tuning of GRID) {
    const engine = await VerticalPageEngine.create({ languageModel, tuning });
    try {
      log(`leave-one-work-out: ${JSON.stringify(tuning)}…`);
      runs.push({ tuning, pages: await readRealPages(engine, true) });
    } finally {
      await engine.close();
    }
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  const round = (v: number) => Math.round(v * 1000) / 1000;
  const works = [...new Set(runs[0]!.pages.map((p) => workOf(p.page)))];
  const held = works.map((work) => {
    const score = (run: (typeof runs)[number], inWork: boolean) =>
      mean(run.pages.filter((p) => (workOf(p.page) === work) === inWork).map((p) => p.cer));
    const best = runs.reduce((a, b) => (score(b, false) < score(a, false) ? b : a));
    const pages = best.pages.filter((p) => workOf(p.page) === work);
    return {
      work,
      chosen: best.tuning,
      cer: round(mean(pages.map((p) => p.cer))),
      pages: pages.map((p) => p.cer),
    };
  });
  const defaults = runs.find(
    (r) => r.tuning.lmWeight === TUNING.lmWeight && r.tuning.squeeze === TUNING.squeeze,
  )!;
  return {
    mean: round(mean(held.flatMap((w) => w.pages))),
    plain: round(mean(defaults.pages.map((p) => p.cer))),
    works: held,
  };
}

function summarizeReal(pages: RealPage[]) {
  if (pages.length === 0) return undefined;
  const mean = (values: number[]) =>
    Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 1000) / 1000;
  return {
    meanCer: mean(pages.map((p) => p.cer)),
    meanFolded: mean(pages.map((p) => p.cerFolded)),
    worst: pages.reduce((a, b) => (b.cer > a.cer ? b : a)),
    empty: pages.filter((p) => p.read === 0).length,
    seconds: summarize(pages.map((p) => p.seconds)),
    bands: BANDS.map((band, i) => ({
      name: band.name,
      read: pages.reduce((sum, p) => sum + p.bands[i]!.read, 0),
      wrong: pages.reduce((sum, p) => sum + p.bands[i]!.wrong, 0),
    })),
  };
}

if (import.meta.main) {
  const result = await runOcr();
  printResult(result);
  console.log(`\nresults: ${writeResult(result)}`);
}
