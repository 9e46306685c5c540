/**
 * OCR accuracy and speed (DESIGN.md §11: ≤ 3 s a page on one core; CER on rendered pages with known
 * text; issue target CER ≤ 0.05).
 *
 * Renders leaves with the demo typesetter (their ground truth is the typeset text) and reads them back
 * with the server's OCR engine, under variants: as rendered; typeset without column rules; turned 1.5°
 * (skew); speckled with noise and blurred; at 60 % size (smaller characters). Also the real manuscript
 * page of ../shared/data/ocr-real with its transcription. CER = edit distance ÷ ground-truth length over
 * the body text with whitespace removed (the centre strip and headers are not part of it), and again
 * with variant characters folded (simplified/traditional and the variant table of the search module).
 *
 * Not measured, because the typesetter cannot make them yet: other fonts (it has Noto Serif TC only) and
 * double-line small notes.
 *
 * Environment: BENCH_OCR_LEAVES (default 6), BENCH_KEEP=1 (keeps the images in the temp folder).
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { pageText, type OcrJson } from '@guji/shared';
import { loadDemoBooks } from '../apps/server/src/demo/books.ts';
import { CLASSICS_DIR } from '../apps/server/src/demo/demo.ts';
import { loadGlyphs } from '../apps/server/src/demo/fonts.ts';
import { layoutVolume } from '../apps/server/src/demo/layout.ts';
import { leafCharacters, renderLeaf } from '../apps/server/src/demo/render.ts';
import { characterErrorRate } from '../apps/server/src/ocr/cer.ts';
import { VerticalPageEngine } from '../apps/server/src/ocr/engine.ts';
import { foldText } from '../apps/server/src/search/fold.ts';
import {
  type BenchResult,
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
const SECONDS_BUDGET = 3;
const log = (line: string) => console.log(`[ocr] ${line}`);

const clean = (text: string) => text.replace(/\s+/g, '');
/** CER as the engine tests count it; with `fold`, after the search module's variant folding. */
function cer(truth: string, read: string, fold = false): number {
  return fold
    ? characterErrorRate(foldText(clean(truth)), foldText(clean(read)))
    : characterErrorRate(truth, read);
}

interface Variant {
  name: string;
  make: (png: Buffer, unruled: Buffer) => Promise<Buffer>;
}

const PAPER = { r: 233, g: 220, b: 192 };
const VARIANTS: Variant[] = [
  { name: 'as rendered', make: (png) => Promise.resolve(png) },
  { name: 'without column rules', make: (_png, unruled) => Promise.resolve(unruled) },
  {
    name: 'skewed 1.5°',
    make: (png) => sharp(png).rotate(1.5, { background: PAPER }).png().toBuffer(),
  },
  {
    name: 'noise and blur',
    make: async (png) => {
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
    make: async (png) => {
      const { width = 0 } = await sharp(png).metadata();
      return sharp(png)
        .resize(Math.round(width * 0.6))
        .png()
        .toBuffer();
    },
  },
];

export async function runOcr(): Promise<BenchResult> {
  const started = new Date();
  const t0 = performance.now();
  const work = tempDir('guji-bench-ocr-');
  const engine = await VerticalPageEngine.create();
  try {
    log('typesetting leaves with known text…');
    const books = loadDemoBooks(CLASSICS_DIR).filter((b) => ['lunyu', 'mengzi', 'shijing'].includes(b.key));
    const leaves: Array<{ name: string; png: Buffer; unruled: Buffer; truth: OcrJson }> = [];
    for (const book of books) {
      const volume = book.volumes[0]!;
      const layout = layoutVolume(volume.chapters);
      const chosen = layout.leaves.slice(0, Math.ceil(LEAVES / books.length));
      const chars = new Set<string>();
      for (const leaf of chosen)
        for (const ch of leafCharacters(leaf, book.title, volume.name)) chars.add(ch);
      const glyphs = await loadGlyphs(chars);
      const final =
        glyphs.missing.length > 0 ? layoutVolume(volume.chapters, { omitChars: glyphs.missing }) : layout;
      for (const leaf of final.leaves.slice(0, chosen.length)) {
        const options = {
          bookTitle: book.title,
          volumeName: volume.name,
          glyphs,
          seed: leaf.leafNumber * 31,
        };
        const rendered = await renderLeaf(leaf, options);
        const unruled = await renderLeaf(leaf, { ...options, ruled: false });
        leaves.push({
          name: `${book.key}-${leaf.leafNumber}`,
          png: rendered.png,
          unruled: unruled.png,
          truth: rendered.ocr,
        });
      }
    }
    log(`${leaves.length} leaves; ${VARIANTS.length} variants; engine ${engine.name}`);

    const rows: Array<{
      variant: string;
      cer: number;
      cerFolded: number;
      seconds: number[];
      pages: number;
      perPage: Array<{ page: string; cer: number }>;
    }> = [];
    for (const variant of VARIANTS) {
      const seconds: number[] = [];
      let errors = 0;
      let errorsFolded = 0;
      let total = 0;
      const perPage: Array<{ page: string; cer: number }> = [];
      for (const leaf of leaves) {
        const file = path.join(work, `${leaf.name}-${variant.name.replace(/\W+/g, '_')}.png`);
        fs.writeFileSync(file, await variant.make(leaf.png, leaf.unruled));
        const start = performance.now();
        const read = await engine.recognize(file);
        seconds.push((performance.now() - start) / 1000);
        const truth = clean(pageText(leaf.truth));
        const got = clean(pageText(read));
        const length = [...truth].length;
        errors += cer(truth, got) * length;
        errorsFolded += cer(truth, got, true) * length;
        total += length;
        perPage.push({ page: leaf.name, cer: Math.round(cer(truth, got) * 1000) / 1000 });
      }
      rows.push({
        variant: variant.name,
        cer: Math.round((errors / total) * 1000) / 1000,
        cerFolded: Math.round((errorsFolded / total) * 1000) / 1000,
        seconds,
        pages: leaves.length,
        perPage,
      });
      log(`${variant.name}: CER ${(errors / total).toFixed(3)}`);
    }

    let real: { cer: number; cerFolded: number; seconds: number } | undefined;
    const realPng = path.join(REAL_DIR, 'shitouji-jiaxu-001-1.png');
    if (fs.existsSync(realPng)) {
      const truth = fs.readFileSync(path.join(REAL_DIR, 'shitouji-jiaxu-001-1.gt.txt'), 'utf8');
      const start = performance.now();
      const read = await engine.recognize(realPng);
      const seconds = (performance.now() - start) / 1000;
      real = {
        cer: Math.round(cer(truth, pageText(read)) * 1000) / 1000,
        cerFolded: Math.round(cer(truth, pageText(read), true) * 1000) / 1000,
        seconds: Math.round(seconds * 100) / 100,
      };
    }

    const table: Array<[string, string]> = [['engine', `${engine.name}: ${engine.description}`]];
    for (const row of rows) {
      const s = summarize(row.seconds);
      table.push([
        `${row.variant} (${row.pages} leaves)`,
        `CER ${row.cer}, folded ${row.cerFolded}; ${s.p50} s a page (p95 ${s.p95})`,
      ]);
    }
    table.push([
      'real manuscript page (石頭記 甲戌本)',
      real ? `CER ${real.cer}, folded ${real.cerFolded}; ${real.seconds} s` : 'not found',
    ]);
    const clean0 = rows[0]!;
    return {
      name: 'ocr',
      startedAt: started.toISOString(),
      seconds: (performance.now() - t0) / 1000,
      machine: machine(),
      budgets: [
        {
          what: 'OCR CER on rendered pages (as rendered)',
          budget: `≤ ${CER_TARGET}`,
          measured: `${clean0.cer} (folded ${clean0.cerFolded})`,
          met: clean0.cer <= CER_TARGET,
        },
        {
          what: 'OCR seconds a page, one core',
          budget: `≤ ${SECONDS_BUDGET} s`,
          measured: `p50 ${summarize(rows.flatMap((r) => r.seconds)).p50} s`,
          met: summarize(rows.flatMap((r) => r.seconds)).p95 <= SECONDS_BUDGET,
        },
      ],
      table,
      data: { rows, real },
    };
  } finally {
    await engine.close();
    if (process.env.BENCH_KEEP !== '1') removeDir(work);
  }
}

if (import.meta.main) {
  const result = await runOcr();
  printResult(result);
  console.log(`\nresults: ${writeResult(result)}`);
}
