import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageText } from '@guji/shared';
import { loadDemoBooks } from '../demo/books.ts';
import { CLASSICS_DIR } from '../demo/demo.ts';
import { loadGlyphs } from '../demo/fonts.ts';
import { layoutVolume } from '../demo/layout.ts';
import { leafCharacters, renderLeaf } from '../demo/render.ts';
import { characterErrorRate } from './cer.ts';
import { VerticalPageEngine } from './engine.ts';

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

  it('reads the columns right to left, with boxes on the characters and the centre strip apart', async () => {
    const book = loadDemoBooks(CLASSICS_DIR).find((b) => b.key === 'lunyu')!;
    const volume = book.volumes[0]!;
    const leaf = layoutVolume(volume.chapters).leaves[0]!;
    const glyphs = await loadGlyphs(leafCharacters(leaf, book.title, volume.name));
    const rendered = await renderLeaf(leaf, {
      bookTitle: book.title,
      volumeName: volume.name,
      glyphs,
      seed: 7,
    });
    const file = path.join(dir, 'leaf.png');
    fs.writeFileSync(file, rendered.png);

    const read = await engine.recognize(file);
    expect(read.imginfo).toEqual({ width: rendered.width, height: rendered.height });
    expect(read.ocr_res.content).toHaveLength(rendered.ocr.ocr_res.content.length);
    expect(read.ocr_res.middleSeam).toHaveLength(1);
    // Rendered pages are read with a CER well under 0.3 (bench/ocr measures it properly).
    expect(characterErrorRate(pageText(rendered.ocr), pageText(read))).toBeLessThan(0.3);
    // Each character's box lies on the typeset character's box.
    const truth = rendered.ocr.ocr_res.content[1]!.words[0]!.points;
    const got = read.ocr_res.content[1]!.words[0]!.points;
    const overlap =
      Math.max(0, Math.min(truth.right, got.right) - Math.max(truth.left, got.left)) *
      Math.max(0, Math.min(truth.bottom, got.bottom) - Math.max(truth.top, got.top));
    expect(overlap / ((truth.right - truth.left) * (truth.bottom - truth.top))).toBeGreaterThan(0.5);
  });
});
