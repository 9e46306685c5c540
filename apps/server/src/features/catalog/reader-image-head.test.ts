import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBook, makeReader, type CreatedBook } from '../../../test/factories.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { inlineScriptHashes } from '../../http/web-app.ts';

const SCRIPT = "(function () { document.getElementById('reader-preview-image'); })();";
const INDEX =
  '<!doctype html><html lang="zh-CN"><head><title>古籍数字图书馆</title><!-- reader-preview-image -->' +
  `<script>${SCRIPT}</script></head><body><div id="root"></div></body></html>`;
const LINK =
  /<link rel="preload" as="image" id="reader-preview-image" data-image-id="(\d+)" fetchpriority="high" imagesrcset="([^"]+)" imagesizes="([^"]+)">/;

describe.each(DIALECTS)('the reader’s first page image in its page on %s', (dialect) => {
  let h: HttpHarness;
  let webDist: string;
  let book: CreatedBook;
  let other: CreatedBook;
  let closed: CreatedBook;
  let reader: string;
  const readerAddress = (at: CreatedBook, page: number, extra = '') =>
    `/Book?catalogId=${at.bookId}&fascicleId=${at.volumeIds[0]}&imageId=${page}${extra}`;

  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-reader-image-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), INDEX);
    h = await createHttpHarness(dialect, { WEB_DIST: webDist });
    book = await makeBook(h, { volumes: [2], pageSize: [900, 1200] });
    other = await makeBook(h, { volumes: [1] });
    closed = await makeBook(h, { isOpen: false, volumes: [1] });
    reader = (await makeReader(h)).cookie;
  });
  afterAll(async () => {
    await h.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('asks a signed-in reader’s browser for the page image before the scripts, at the width it is shown at', async () => {
    const page = book.pageIds[1]!;
    const response = await h.request({ method: 'GET', url: readerAddress(book, page), cookie: reader });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-cache');
    const link = LINK.exec(response.body);
    expect(link, response.body).not.toBeNull();
    expect(link![1]).toBe(String(page));
    // Widths up to the page's own (900 px), each an IIIF request of the page at that width.
    expect(link![2]!.split(', ')).toEqual(
      [400, 600, 800, 900].map((w) => `/iiif/3/${page}/full/${w},/0/default.jpg ${w}w`),
    );
    // Shown fitted: the pane's height times the page's aspect (900 / 1200) on wide screens, the screen's
    // width on a phone.
    expect(link![3]).toBe(
      '(max-width: 767px) 100vw, (max-width: 1279px) calc((100vh - 165.5625px) * 0.7500), ' +
        'calc((100vh - 125.5625px) * 0.7500)',
    );
    // Before the page's script, which shows it; the script is allowed by its hash.
    expect(response.body.indexOf('id="reader-preview-image"')).toBeLessThan(
      response.body.indexOf('<script>'),
    );
    const scriptSrc = /script-src ([^;]+)/.exec(String(response.headers['content-security-policy']))?.[1];
    expect(scriptSrc?.split(' ')).toEqual(["'self'", ...inlineScriptHashes(INDEX)]);
    // Each width answers with the page's image for this reader.
    const image = await h.request({
      method: 'GET',
      url: `/iiif/3/${page}/full/600,/0/default.jpg`,
      cookie: reader,
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
  });

  it('asks for nothing for a visitor, another mode or zoom, a page of another book, or a book not open to read', async () => {
    const page = book.pageIds[0]!;
    const pages: Array<{ url: string; cookie?: string; remoteAddress?: string }> = [
      { url: readerAddress(book, page) },
      { url: readerAddress(book, page, '&mode=text'), cookie: reader },
      { url: readerAddress(book, page, '&zoom=150'), cookie: reader },
      { url: readerAddress(other, page), cookie: reader },
      // (from outside the reading room: loopback is in it by default)
      { url: readerAddress(closed, closed.pageIds[0]!), cookie: reader, remoteAddress: '203.0.113.9' },
      { url: readerAddress(book, 99_999_999), cookie: reader },
      { url: `/Book?catalogId=${book.bookId}`, cookie: reader },
    ];
    for (const { url, cookie, remoteAddress } of pages) {
      const response = await h.request({
        method: 'GET',
        url,
        ...(cookie ? { cookie } : {}),
        ...(remoteAddress ? { remoteAddress } : {}),
      });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).not.toContain('id="reader-preview-image"');
      expect(response.body, url).not.toContain('<!-- reader-preview-image -->');
    }
    // Other pages never carry the slot.
    const home = await h.request({ method: 'GET', url: '/', cookie: reader });
    expect(home.body).not.toContain('<!-- reader-preview-image -->');
    expect(home.headers['cache-control']).toBe('no-cache');
  });
});
