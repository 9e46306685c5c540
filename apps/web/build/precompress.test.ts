import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress.ts';

describe('precompressDir', () => {
  let dir = '';
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes brotli and gzip copies of text files that decompress to the same bytes', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-precompress-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    const script = 'export const 書名 = "論語";\n'.repeat(400);
    fs.writeFileSync(path.join(dir, 'assets', 'index-a1.js'), script);
    fs.writeFileSync(path.join(dir, 'assets', 'index-a1.css'), 'body { color: #222; }\n'.repeat(200));

    const totals = precompressDir(dir);

    const js = path.join(dir, 'assets', 'index-a1.js');
    expect(zlib.brotliDecompressSync(fs.readFileSync(`${js}.br`)).toString()).toBe(script);
    expect(zlib.gunzipSync(fs.readFileSync(`${js}.gz`)).toString()).toBe(script);
    expect(fs.existsSync(path.join(dir, 'assets', 'index-a1.css.br'))).toBe(true);
    expect(totals.files).toBe(2);
    expect(totals.brotliBytes).toBeLessThan(totals.rawBytes / 10);
  });

  it('leaves images, source maps and tiny files alone', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-precompress-'));
    fs.writeFileSync(path.join(dir, 'logo.png'), Buffer.alloc(4096, 1));
    fs.writeFileSync(path.join(dir, 'index-a1.js.map'), '{"mappings":""}'.repeat(200));
    fs.writeFileSync(path.join(dir, 'tiny.js'), 'export {};');

    expect(precompressDir(dir).files).toBe(0);
    expect(fs.readdirSync(dir).sort()).toEqual(['index-a1.js.map', 'logo.png', 'tiny.js']);
  });

  it('writes no copy that is not smaller than the file', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-precompress-'));
    // Random bytes do not compress.
    const noise = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 2654435761) % 251));
    fs.writeFileSync(path.join(dir, 'noise.txt'), zlib.brotliCompressSync(noise));
    precompressDir(dir);
    expect(fs.existsSync(path.join(dir, 'noise.txt.br'))).toBe(false);
  });
});
