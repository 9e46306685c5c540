import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHarness, type HttpHarness } from '../test/http.ts';

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
