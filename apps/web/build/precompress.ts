import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** Files worth compressing: text. Images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

export interface Precompressed {
  files: number;
  rawBytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

function* filesUnder(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * Writes `NAME.br` (brotli, quality 11) and `NAME.gz` (gzip, level 9) beside every text file of a
 * built site, so the server sends them as they are to browsers that accept them (@fastify/static's
 * `preCompressed`) instead of compressing on every request or sending raw bytes. A copy that is not
 * smaller than the file is not written. Source maps are left alone: only developers fetch them.
 */
export function precompressDir(dir: string): Precompressed {
  const totals: Precompressed = { files: 0, rawBytes: 0, brotliBytes: 0, gzipBytes: 0 };
  for (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const raw = fs.readFileSync(file);
    if (raw.length < MIN_BYTES) continue;
    const brotli = zlib.brotliCompressSync(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
    const gzip = zlib.gzipSync(raw, { level: 9 });
    totals.files += 1;
    totals.rawBytes += raw.length;
    for (const [suffix, data, key] of [
      ['.br', brotli, 'brotliBytes'],
      ['.gz', gzip, 'gzipBytes'],
    ] as const) {
      if (data.length < raw.length) {
        fs.writeFileSync(file + suffix, data);
        totals[key] += data.length;
      } else {
        fs.rmSync(file + suffix, { force: true });
        totals[key] += raw.length;
      }
    }
  }
  return totals;
}

/** Vite plugin: precompresses the output folder once the bundle is written. */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'guji-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const totals = precompressDir(outDir);
      const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} kB`;
      this.info(
        `precompressed ${totals.files} files: ${kb(totals.rawBytes)} → brotli ${kb(totals.brotliBytes)}, gzip ${kb(totals.gzipBytes)}`,
      );
    },
  };
}
