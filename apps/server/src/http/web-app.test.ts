import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHarness, type HttpHarness } from '../../test/http.ts';
import { inlineScriptHashes, webPages } from './web-app.ts';

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

describe('the reader’s early page image (index.html’s inline script)', () => {
  const script = "(function () { document.documentElement.dataset.x = '1'; })();";
  const index =
    '<!doctype html><html lang="zh-CN"><head><title>古籍数字图书馆</title></head><body><div id="root"></div>' +
    `<script>${script}</script><script type="module" src="/assets/index-a.js"></script></body></html>`;

  it('names each inline script by the hash a browser computes, and no script with a source', () => {
    const hash = createHash('sha256').update(script).digest('base64');
    expect(inlineScriptHashes(index)).toEqual([`'sha256-${hash}'`]);
    expect(
      inlineScriptHashes('<script src="/a.js"></script><script type="module" src="/b.js"></script>'),
    ).toEqual([]);
  });
});

/** The built site as the server sends it: precompressed files, caching, page fallback. */
describe('serving the built web app', () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-web-'));
  const script = 'export const title = "古籍数字图书馆";\n'.repeat(300);
  let h: HttpHarness;
  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<html><head></head><body></body></html>');
    const file = path.join(dist, 'assets', 'index-a1.js');
    fs.writeFileSync(file, script);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(script));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(script));
    h = await createHttpHarness('sqlite', { WEB_DIST: dist });
  });
  afterAll(async () => {
    await h.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends the brotli copy to a browser that accepts it, cached for good', async () => {
    const response = await h.request({
      method: 'GET',
      url: '/assets/index-a1.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['vary']).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe(script);
  });

  it('sends gzip to a client that takes only gzip, and the file itself to one that takes neither', async () => {
    const gzip = await h.request({
      method: 'GET',
      url: '/assets/index-a1.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(script);

    const plain = await h.request({ method: 'GET', url: '/assets/index-a1.js', headers: {} });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('still answers a page path with index.html and an unknown API path with a Chinese 404', async () => {
    const page = await h.request({ method: 'GET', url: '/Book?catalogId=1' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const api = await h.request({ method: 'GET', url: '/api/no-such-thing' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ message: '接口不存在：GET /api/no-such-thing' });
  });
});
