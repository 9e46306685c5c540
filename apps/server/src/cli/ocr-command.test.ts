import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ocrCommand } from './ocr-command.ts';

/** `npm run cli -- ocr`: the jobs' engine on files, on a real bilevel scan (test/fixtures/ocr-real). */
describe('the ocr command', () => {
  const page = path.resolve(
    import.meta.dirname,
    '../../test/fixtures/ocr-real/jianmingmulu-wyg-shengyu-2a.png',
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-ocr-cli-'));
  const errors: string[] = [];
  beforeAll(() => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation((message: string) => errors.push(message));
  });
  afterAll(() => {
    vi.restoreAllMocks();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads every page of a bilevel CCITT TIFF, as libraries scan, into text files: one line per column', async () => {
    const leaf = await sharp(page).png().toBuffer();
    const tiff = path.join(dir, 'scan.tif');
    await sharp([leaf, leaf], { join: { animated: true } })
      .removeAlpha()
      .extractChannel(0)
      .toColourspace('b-w')
      .tiff({ compression: 'ccittfax4', bitdepth: 1 })
      .toFile(tiff);
    const out = path.join(dir, 'out');
    expect(await ocrCommand([tiff, '--out', out], dir)).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual(['scan-1.txt', 'scan-2.txt']);
    for (const name of ['scan-1.txt', 'scan-2.txt']) {
      const lines = fs.readFileSync(path.join(out, name), 'utf8').trim().split('\n');
      // The leaf has 8 transcribed columns.
      expect(lines.length).toBeGreaterThanOrEqual(7);
      expect(lines.length).toBeLessThanOrEqual(9);
      expect(lines.join('')).toMatch(/^\p{Script=Han}+$/u);
    }
  });

  it('writes ALTO on request; refuses an unknown format and a missing file', async () => {
    const out = path.join(dir, 'alto');
    expect(await ocrCommand([page, '--format', 'alto', '--out', out], dir)).toBe(0);
    const alto = fs.readFileSync(path.join(out, 'jianmingmulu-wyg-shengyu-2a.alto.xml'), 'utf8');
    expect(alto).toContain('<alto');
    expect(alto).toMatch(/<String [^>]*CONTENT="\p{Script=Han}"/u);

    expect(await ocrCommand([page, '--format', 'pdf'], dir)).toBe(2);
    expect(errors.at(-1)).toContain('未知的格式：pdf');
    expect(await ocrCommand([path.join(dir, 'none.png')], dir)).toBe(1);
    expect(errors.at(-1)).toContain('找不到文件');
  });
});
