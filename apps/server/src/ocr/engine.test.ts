import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageText, type OcrJson } from '@guji/shared';
import { demoLeaf } from '../../test/demo-leaf.ts';
import { loadGlyphs } from '../demo/fonts.ts';
import { layoutVolume } from '../demo/layout.ts';
import { leafCharacters, renderLeaf } from '../demo/render.ts';
import { characterErrorRate } from './cer.ts';
import { VerticalPageEngine, warningsOf } from './engine.ts';
import { inkMask, otsu } from './binarize.ts';

const clean = (text: string) => text.replace(/\s+/g, '');
const words = (json: OcrJson) => json.ocr_res.content.flatMap((line) => line.words);

describe('OCR engine on a typeset woodblock leaf', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-ocr-'));
  let engine: VerticalPageEngine;
  beforeAll(async () => {
    engine = await VerticalPageEngine.create();
  });
  afterAll(async () => {
    await engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads a full leaf right half first, its centre strip apart, with boxes on the characters', async () => {
    const rendered = await demoLeaf('lunyu', 7);
    const file = path.join(dir, 'leaf.png');
    fs.writeFileSync(file, rendered.png);

    const { ocr: read, warnings } = await engine.recognize(file);
    expect(warnings).toEqual([]);
    expect(read.imginfo).toEqual({ width: rendered.width, height: rendered.height });
    expect(read.ocr_res.content).toHaveLength(rendered.ocr.ocr_res.content.length);
    expect(read.ocr_res.middleSeam).toHaveLength(1);
    // Rendered leaves are read with a CER under 0.12 (bench/ocr measures it properly).
    expect(characterErrorRate(pageText(rendered.ocr), pageText(read))).toBeLessThan(0.12);
    // Each character's box lies on the typeset character's box.
    const truth = rendered.ocr.ocr_res.content[1]!.words[0]!.points;
    const got = read.ocr_res.content[1]!.words[0]!.points;
    const overlap =
      Math.max(0, Math.min(truth.right, got.right) - Math.max(truth.left, got.left)) *
      Math.max(0, Math.min(truth.bottom, got.bottom) - Math.max(truth.top, got.top));
    expect(overlap / ((truth.right - truth.left) * (truth.bottom - truth.top))).toBeGreaterThan(0.5);
  });

  it('finds double-line notes and reads them right line first, typed note', async () => {
    const [leaf] = layoutVolume([
      {
        title: '學而第一',
        paragraphs: [
          '子曰學而時習之〔天命之謂性率性之謂道〕不亦說乎有朋自遠方來不亦樂乎〔修道之謂教〕人不知而不慍不亦君子乎',
        ],
      },
    ]).leaves;
    const glyphs = await loadGlyphs(leafCharacters(leaf!, '論語', '卷一'));
    const rendered = await renderLeaf(leaf!, { bookTitle: '論語', volumeName: '卷一', glyphs, seed: 5 });
    const file = path.join(dir, 'notes.png');
    fs.writeFileSync(file, rendered.png);

    const { ocr: read } = await engine.recognize(file);
    const notes = words(read).filter((w) => w.type === 'note');
    const truthNotes = words(rendered.ocr).filter((w) => w.type === 'note');
    // The notes' characters are typed note, in reading order (right line, then left).
    expect(Math.abs(notes.length - truthNotes.length)).toBeLessThanOrEqual(3);
    expect(
      characterErrorRate(truthNotes.map((w) => w.word).join(''), notes.map((w) => w.word).join('')),
    ).toBeLessThan(0.3);
    // A leaf with blank ruled columns: no column is made of the specks in them.
    expect(read.ocr_res.content.length).toBeLessThanOrEqual(4);
    expect(read.ocr_res.middleSeam).toHaveLength(1);
    expect(characterErrorRate(pageText(rendered.ocr), pageText(read))).toBeLessThan(0.3);
  });

  it('reads with PP-OCRv4 on cut cells when OCR_RECOGNISER says so, and says which it is', async () => {
    const rendered = await demoLeaf('daxue', 11);
    const file = path.join(dir, 'paddle.png');
    fs.writeFileSync(file, rendered.png);
    const paddle = await VerticalPageEngine.create({ recogniser: 'ppocrv4' });
    try {
      expect(paddle.name).toBe('vertical+ppocrv4');
      const { ocr } = await paddle.recognize(file);
      // About 0.44 today: PP-OCRv4 reads modern print, and the cells cut from a line lose what the own
      // recogniser sees of a whole column (bench/ocr compares them).
      expect(characterErrorRate(pageText(rendered.ocr), pageText(ocr))).toBeLessThan(0.5);
    } finally {
      await paddle.close();
    }
    expect(engine.name).toBe('vertical+own');
  });

  it('says so when a page has no text', async () => {
    const file = path.join(dir, 'blank.png');
    await sharp({ create: { width: 800, height: 1100, channels: 3, background: { r: 236, g: 226, b: 200 } } })
      .png()
      .toFile(file);
    const { ocr, warnings } = await engine.recognize(file);
    expect(pageText(ocr)).toBe('');
    expect(warnings.map((w) => w.code)).toEqual(['no-text']);
  });
});

/** The real pages with transcriptions beside the project (../shared/data/ocr-real; CI has them too). */
const SHARED = path.resolve(import.meta.dirname, '../../../../../shared/data/ocr-real');
const realPages = [SHARED, path.join(SHARED, 'dev')].flatMap((dir) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.gt.txt'))
        .map((f) => {
          const name = f.slice(0, -'.gt.txt'.length);
          const image = ['.png', '.jpg']
            .map((ext) => path.join(dir, name + ext))
            .find((p) => fs.existsSync(p));
          return { name, image: image!, truth: fs.readFileSync(path.join(dir, f), 'utf8') };
        })
        .filter((p) => p.image)
    : [],
);

/** Real scans (apps/server/test/fixtures/ocr-real, Apache-2.0; see its NOTICE.md). */
describe('OCR engine on real scans', () => {
  const fixtures = path.resolve(import.meta.dirname, '../../test/fixtures/ocr-real');
  let engine: VerticalPageEngine;
  beforeAll(async () => {
    engine = await VerticalPageEngine.create();
  });
  afterAll(async () => engine.close());

  it('finds ink on a page of only black and white (Otsu gives 0: ink is what lies below 1)', () => {
    const data = new Uint8Array(100).fill(255);
    data.fill(0, 40, 60);
    const image = { width: 10, height: 10, data };
    const threshold = otsu(image);
    expect(inkMask(image, threshold).reduce((n, v) => n + v, 0)).toBe(20);
  });

  it('reads a pure black-and-white manuscript page: text in about the transcribed columns', async () => {
    const name = 'jianmingmulu-wyg-shengyu-2a';
    const truth = fs.readFileSync(path.join(fixtures, `${name}.gt.txt`), 'utf8');
    const { ocr: read } = await engine.recognize(path.join(fixtures, `${name}.png`));
    expect(Math.abs(read.ocr_res.content.length - truth.trim().split('\n').length)).toBeLessThanOrEqual(1);
    const text = clean(pageText(read));
    expect(text.length).toBeGreaterThan(100);
    // Today about 0.30 (bench/ocr gives every real page's figure).
    expect(characterErrorRate(clean(truth), text)).toBeLessThan(0.4);
  });

  it('reads a Siku manuscript page of double-line notes: small characters typed note, right line first', async () => {
    const name = 'shiji-wyg-001-2a';
    const truth = fs.readFileSync(path.join(fixtures, `${name}.gt.txt`), 'utf8');
    const { ocr: read } = await engine.recognize(path.join(fixtures, `${name}.jpg`));
    expect(Math.abs(read.ocr_res.content.length - truth.trim().split('\n').length)).toBeLessThanOrEqual(1);
    // Nearly every character of this page is a note character (all but one short main-text phrase).
    expect(words(read).filter((w) => w.type === 'note').length).toBeGreaterThan(words(read).length * 0.8);
    // Read right line first: today about 0.21; a page read left line first scores above 0.8.
    expect(characterErrorRate(clean(truth), clean(pageText(read)))).toBeLessThan(0.35);
  });

  it('reads a manuscript with red commentary between its columns: the commentary is not text', async () => {
    const name = 'shitouji-jiaxu-001-1';
    const truth = fs.readFileSync(path.join(fixtures, `${name}.gt.txt`), 'utf8');
    const { ocr: read } = await engine.recognize(path.join(fixtures, `${name}.png`));
    expect(Math.abs(read.ocr_res.content.length - truth.trim().split('\n').length)).toBeLessThanOrEqual(1);
    const text = clean(pageText(read));
    const length = [...clean(truth)].length;
    // Red ink is paper to the engine: about as many characters read as written.
    expect([...text].length).toBeGreaterThan(length * 0.9);
    expect([...text].length).toBeLessThan(length * 1.1);
    // Today about 0.23.
    expect(characterErrorRate(clean(truth), text)).toBeLessThan(0.35);
  });

  it('reads a full opened leaf (two half-leaves with the centre strip between) right half first', async () => {
    // 史記 leaf 2 as it lies opened: 2b on the left, 2a on the right, the centre strip (版心) where
    // their edges meet.
    const dev = path.join(SHARED, 'dev');
    const [right, left] = ['shiji-wyg-001-2a', 'shiji-wyg-001-2b'].map((n) => path.join(dev, `${n}.jpg`));
    if (!fs.existsSync(right!)) return expect.fail(`the real pages are missing: ${dev}`);
    // Each scan trimmed to its leaf (the white scanner margin off), so the halves of the strip meet.
    const [a, b] = await Promise.all(
      [right!, left!].map((f) =>
        sharp(f).greyscale().trim({ threshold: 60 }).toBuffer({ resolveWithObject: true }),
      ),
    );
    const file = path.join(os.tmpdir(), `guji-full-leaf-${process.pid}.png`);
    await sharp({
      create: {
        width: a!.info.width + b!.info.width,
        height: Math.max(a!.info.height, b!.info.height),
        channels: 3,
        background: { r: 255, g: 255, b: 255 },
      },
    })
      .composite([
        { input: b!.data, left: 0, top: 0 },
        { input: a!.data, left: b!.info.width, top: 0 },
      ])
      .png()
      .toFile(file);
    try {
      const { ocr: read } = await engine.recognize(file);
      const truth = ['shiji-wyg-001-2a', 'shiji-wyg-001-2b'].map((n) =>
        fs.readFileSync(path.join(dev, `${n}.gt.txt`), 'utf8'),
      );
      // Both half-leaves' columns, the right one's first.
      const columns = truth.join('\n').trim().split('\n').length;
      expect(Math.abs(read.ocr_res.content.length - columns)).toBeLessThanOrEqual(2);
      const text = clean(pageText(read));
      const half = Math.floor(text.length / 2);
      expect(characterErrorRate(clean(truth[0]!), text.slice(0, half))).toBeLessThan(0.5);
      expect(characterErrorRate(clean(truth[1]!), text.slice(half))).toBeLessThan(0.5);
      // The centre strip is kept apart: in middleSeam, not in the text.
      expect(read.ocr_res.middleSeam.length).toBeGreaterThanOrEqual(1);
    } finally {
      fs.rmSync(file, { force: true });
    }
  }, 60_000);

  // Two engines and two recognitions of a real page: 8–14 s on CI's 2 cores.
  it('chooses among the same characters with the language model as without: it adds, drops or moves none', async () => {
    const name = 'shiji-wyg-001-2a';
    const plain = await VerticalPageEngine.create({ languageModel: null });
    try {
      const { ocr: without } = await plain.recognize(path.join(fixtures, `${name}.jpg`));
      const { ocr: withLm } = await engine.recognize(path.join(fixtures, `${name}.jpg`));
      const boxes = (json: OcrJson) => json.ocr_res.content.map((line) => line.words.map((w) => w.points));
      expect(boxes(withLm)).toEqual(boxes(without));
    } finally {
      await plain.close();
    }
  }, 90_000);
});

describe('OCR engine on every real page of ../shared/data/ocr-real', () => {
  let engine: VerticalPageEngine;
  beforeAll(async () => {
    engine = await VerticalPageEngine.create();
  });
  afterAll(async () => engine.close());

  it('has the real pages to read', () => {
    expect(realPages.length).toBeGreaterThanOrEqual(13);
  });

  it.each(realPages.map((p) => [p.name, p] as const))(
    '%s: about the transcribed columns, most of the characters, no empty page',
    async (_name, page) => {
      const { ocr } = await engine.recognize(page.image);
      const columns = page.truth.trim().split('\n').length;
      expect(Math.abs(ocr.ocr_res.content.length - columns)).toBeLessThanOrEqual(
        KNOWN_COLUMN_SLACK[page.name] ?? 1,
      );
      const read = [...clean(pageText(ocr))].length;
      expect(read).toBeGreaterThan([...clean(page.truth)].length * 0.8);
    },
    60_000,
  );

  it('flags the leaf it misreads (text under a large seal) for the proofreader, not the pages it reads well', async () => {
    const sealed = realPages.find((p) => p.name === 'shiji-wyg-001-1a')!;
    expect((await engine.recognize(sealed.image)).warnings.map((w) => w.code)).toContain('low-confidence');
    const clean = realPages.find((p) => p.name === 'zongmu-dianben-001-1a')!;
    expect((await engine.recognize(clean.image)).warnings).toEqual([]);
  }, 60_000);

  it('types the double-line notes of the Siku note pages note', async () => {
    for (const name of ['shiji-wyg-001-1b', 'shiji-wyg-001-2a', 'shiji-wyg-001-2b']) {
      const page = realPages.find((p) => p.name === name)!;
      const { ocr } = await engine.recognize(page.image);
      const all = words(ocr);
      // Nearly all their characters are notes (1b: every column; 2a, 2b: all but a few main phrases).
      expect(all.filter((w) => w.type === 'note').length, name).toBeGreaterThan(all.length * 0.7);
    }
  }, 120_000);

  it('reads a low-resolution scan (600 px wide) and a photograph of the page on a dark background', async () => {
    const page = realPages.find((p) => p.name === 'zongmu-dianben-001-1a')!;
    const file = path.join(os.tmpdir(), `guji-small-${process.pid}.png`);
    await sharp(page.image).resize(600).png().toFile(file);
    try {
      const { ocr } = await engine.recognize(file);
      expect([...clean(pageText(ocr))].length).toBeGreaterThan([...clean(page.truth)].length * 0.6);
    } finally {
      fs.rmSync(file, { force: true });
    }
    const photo = realPages.find((p) => p.name === 'shiji-gangling-mulu-p1')!;
    const { ocr } = await engine.recognize(photo.image);
    expect([...clean(pageText(ocr))].length).toBeGreaterThan([...clean(photo.truth)].length * 0.8);
  }, 60_000);
});

/**
 * Pages whose column count is off by more than one, each with the difference allowed and why (kept
 * visible here rather than dropped). The 乾隆藏 page's transcription leaves out its 音釋 block (the
 * heading and three columns of glosses) and a two-character block mark, which the engine reads as the
 * text they are (+5), and its 莎訶 column of small characters is not yet found (−1). On the 史記 1a leaf
 * the detector finds no text under the large 文淵閣寶 seal: 史記卷一 and 欽定四庫全書 beside it are
 * missed (−2; the recogniser cannot read through the seal either: a model trained with seals over its
 * columns is the way, training/README.md).
 */
const KNOWN_COLUMN_SLACK: Record<string, number> = {
  'jinguangming-qianlongzang-v032p0101': 5,
  'shiji-wyg-001-1a': 2,
};

describe("the engine's warnings for the proofreader", () => {
  const line = (kind: 'text' | 'note', height: number, chars: number, confidence = 0.9) => ({
    column: { box: { left: 0, right: 100, top: 0, bottom: height }, kind, slot: 0 },
    chars: new Array<{ confidence: number }>(chars).fill({ confidence }),
  });
  const layout = (slots: number, expectedColumns?: number) => ({
    columns: [],
    columnWidth: 100,
    slots,
    detected: 12,
    ...(expectedColumns !== undefined ? { expectedColumns } : {}),
  });

  it('says nothing of a page read in full, in the columns its rules hold', () => {
    expect(warningsOf(layout(8, 8), [line('text', 2000, 19), line('note', 1000, 20)])).toEqual([]);
  });

  it('says when the lines found have room for far more characters than were read', () => {
    const [warning] = warningsOf(layout(2, 2), [line('text', 2000, 3), line('text', 2000, 4)]);
    expect(warning).toEqual({
      code: 'little-text',
      message: '版面找到了文字区域，但只识别出 7 个字（按行长约应有 40 字），可能有漏识，请核对。',
    });
  });

  it("says when half the page's characters or more are red (confidence ≤ 0.5, spec §9)", () => {
    expect(warningsOf(layout(2, 2), [line('text', 1000, 10, 0.5), line('text', 1000, 11, 0.9)])).toEqual([]);
    expect(warningsOf(layout(2, 2), [line('text', 1000, 10, 0.5), line('text', 1000, 10, 0.9)])).toEqual([
      {
        code: 'low-confidence',
        message: '本页识别出的 20 个字中有 10 个置信度低（红色），多半有误，请逐字核对。',
      },
    ]);
  });

  it("says when a ruled page's columns and the columns read differ by more than two", () => {
    const lines = [line('text', 1000, 10)];
    expect(warningsOf(layout(10, 8), lines)).toEqual([]);
    expect(warningsOf(layout(4, 8), lines)).toEqual([
      { code: 'columns', message: '界栏约有 8 行，识别结果分为 4 行，行序可能有误，请核对。' },
    ]);
  });
});
