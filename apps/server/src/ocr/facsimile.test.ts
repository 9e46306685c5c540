import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageText } from '@guji/shared';
import { characterErrorRate } from './cer.ts';
import { VerticalPageEngine } from './engine.ts';

const SHARED = path.resolve(import.meta.dirname, '../../../../../shared/data/ocr-real');
const clean = (text: string) => text.replace(/\s+/g, '');

/** A scan holding several pages (sheets.ts, issue 28 part 2), made of real leaves. */
describe('OCR engine on a facsimile sheet', () => {
  let engine: VerticalPageEngine;
  beforeAll(async () => {
    engine = await VerticalPageEngine.create();
  });
  afterAll(async () => engine.close());

  it('reads a facsimile sheet of four reduced leaves leaf by leaf: upper right, upper left, lower right, lower left', async () => {
    // Four real leaves, each trimmed to its frame and reduced to half, on one sheet with a margin round
    // each (as a reprint prints them), in the order a reader takes them.
    const dev = path.join(SHARED, 'dev');
    const names = ['shiji-wyg-001-1b', 'shiji-wyg-001-2a', 'shiji-wyg-001-2b', 'jianmingmulu-wyg-shengyu-2a'];
    const files = names.map((n) =>
      ['.jpg', '.png'].map((e) => path.join(dev, n + e)).find((f) => fs.existsSync(f)),
    );
    if (files.some((f) => !f)) return expect.fail(`the real pages are missing: ${dev}`);
    const [height, gutter, margin] = [800, 80, 100];
    const leaves = await Promise.all(
      files.map(async (f) =>
        sharp(await sharp(f).greyscale().trim({ threshold: 60 }).toBuffer())
          .resize({ height })
          .toBuffer({ resolveWithObject: true }),
      ),
    );
    const w = Math.max(...leaves.map((l) => l.info.width));
    const [right, lower] = [margin + w + gutter, margin + height + gutter];
    const at = [
      [right, margin],
      [margin, margin],
      [right, lower],
      [margin, lower],
    ] as const;
    const file = path.join(os.tmpdir(), `guji-four-up-${process.pid}.png`);
    await sharp({
      create: {
        width: 2 * (margin + w) + gutter,
        height: 2 * (margin + height) + gutter,
        channels: 3,
        background: { r: 255, g: 255, b: 255 },
      },
    })
      .composite(leaves.map((l, i) => ({ input: l.data, left: at[i]![0], top: at[i]![1] })))
      .png()
      .toFile(file);
    try {
      const { ocr: read } = await engine.recognize(file);
      const truth = names.map((n) => clean(fs.readFileSync(path.join(dev, `${n}.gt.txt`), 'utf8')));
      const text = clean(pageText(read));
      // Today about 0.30 in reading order; read as one page (columns of the upper and lower leaves
      // taken together) about 0.95.
      expect(characterErrorRate(truth.join(''), text)).toBeLessThan(0.45);
      // Left leaf before right is far worse: the order is the reader's.
      const swapped = [truth[1], truth[0], truth[3], truth[2]].join('');
      expect(characterErrorRate(swapped, text)).toBeGreaterThan(0.7);
    } finally {
      fs.rmSync(file, { force: true });
    }
  }, 90_000);
});
