import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { webPages } from './app.ts';

describe('index.html with the chunks a screen will load', () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-dist-'));
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));
  const html =
    '<html><head><script type="module" src="/assets/index-a.js"></script></head><body></body></html>';

  it('names the reader and what it imports on /Book, and nothing on other pages', () => {
    fs.mkdirSync(path.join(dist, '.vite'), { recursive: true });
    fs.writeFileSync(
      path.join(dist, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': {
          file: 'assets/index-a.js',
          src: 'index.html',
          isEntry: true,
          imports: ['_shared.js'],
        },
        '_shared.js': { file: 'assets/shared-b.js' },
        '_tree.js': { file: 'assets/tree-c.js', imports: ['_shared.js'] },
        'src/features/reader/pages/reader-page.tsx': {
          file: 'assets/reader-page-d.js',
          src: 'src/features/reader/pages/reader-page.tsx',
          imports: ['_shared.js', '_tree.js', 'index.html'],
        },
        '../../node_modules/opencc-js/dist/esm/t2cn.js': { file: 'assets/t2cn-e.js' },
        '../../node_modules/opencc-js/dist/esm/cn2t.js': { file: 'assets/cn2t-f.js' },
      }),
    );
    const pages = webPages(dist, html);
    const preloads = (page: string) =>
      [...page.matchAll(/modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]);
    // The language converters load on first use (简 shows the interface as written; 繁 loads cn2t).
    expect(preloads(pages.reader)).toEqual(['/assets/reader-page-d.js', '/assets/tree-c.js']);
    expect(preloads(pages.other)).toEqual([]);
    expect(pages.reader).toContain('</head><body>');
  });

  it('serves the page as built when there is no manifest', () => {
    fs.rmSync(path.join(dist, '.vite'), { recursive: true, force: true });
    expect(webPages(dist, html)).toEqual({ reader: html, other: html });
  });
});
