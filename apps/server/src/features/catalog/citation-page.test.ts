import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { makeBook, makeStaff, type CreatedBook } from '../../../test/factories.ts';
import { citedByAddress } from './citation-page.ts';

const ORIGIN = 'https://guji.example.org';
const INDEX =
  '<!doctype html><html lang="zh-CN"><head><title>古籍数字图书馆</title></head><body></body></html>';

/** The citation tags of a served page: name → contents, in order. */
function tagsOf(html: string): Array<[string, string]> {
  return [...html.matchAll(/<meta data-citation name="([^"]+)" content="([^"]*)">/g)].map((m) => [
    m[1]!,
    m[2]!,
  ]);
}

describe('the address a page cites', () => {
  it('reads the book page and the reader, and nothing else', () => {
    expect(citedByAddress('/SearchPage/7?fascicleId=3')).toEqual({ catalogId: 7, query: {} });
    expect(citedByAddress('/Book?catalogId=7&fascicleId=3&imageId=9&hl=x')).toEqual({
      catalogId: 7,
      query: { fascicleId: 3, imageId: 9 },
    });
    expect(citedByAddress('/Book?catalogId=7&imageId=abc')).toEqual({ catalogId: 7, query: {} });
    for (const other of ['/Book', '/Book?catalogId=0', '/SearchPage/0', '/SearchPage/7/x', '/home', '/'])
      expect(citedByAddress(other)).toBeNull();
  });
});

describe.each(DIALECTS)('citation tags in served pages on %s', (dialect) => {
  let h: HttpHarness;
  let book: CreatedBook;
  let closed: CreatedBook;
  let hidden: CreatedBook;
  let staff: string;
  let webDist: string;
  const page = async (url: string, cookie?: string) => {
    const response = await h.request({ method: 'GET', url, ...(cookie ? { cookie } : {}) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    return response.body;
  };

  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-citation-web-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), INDEX);
    h = await createHttpHarness(dialect, { PUBLIC_ORIGIN: ORIGIN, WEB_DIST: webDist });
    book = await makeBook(h, {
      title: '論語集注',
      author: '朱熹',
      publishDynasty: '宋',
      coverageDynasty: '清同治十年金陵書局刻本',
      callNumber: 'A-1',
      volumes: [3, 2],
    });
    closed = await makeBook(h, { title: '孟子集注', isOpen: false, volumes: [2] });
    hidden = await makeBook(h, { title: '秘本', isVisible: false, volumes: [1] });
    staff = (await makeStaff(h, ['catalogAdmin'])).cookie;
  });
  afterAll(async () => {
    await h.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('gives a book page Highwire and Dublin Core tags and links to the three exports', async () => {
    const html = await page(`/SearchPage/${book.bookId}`);
    const url = `${ORIGIN}/SearchPage/${book.bookId}`;
    expect(tagsOf(html)).toEqual([
      ['citation_title', '論語集注'],
      ['citation_author', '朱熹'],
      ['citation_publication_date', '宋'],
      ['prism.edition', '清同治十年金陵書局刻本'],
      ['citation_language', 'zh'],
      ['citation_public_url', url],
      ['DC.title', '論語集注'],
      ['DC.creator', '朱熹'],
      ['DC.date', '宋'],
      ['DC.type', 'book'],
      ['DC.description', '索书号：A-1'],
      ['DC.language', 'zh'],
      ['DC.identifier', url],
      ['DC.identifier', 'A-1'],
    ]);
    expect(html).toContain('<link data-citation rel="schema.DC" href="http://purl.org/dc/elements/1.1/">');
    const api = `${ORIGIN}/api/books/${book.bookId}/citation`;
    expect(html).toContain(
      `<link data-citation rel="alternate" type="application/x-research-info-systems" title="引用（RIS）" href="${api}/ris">`,
    );
    expect(html).toContain(`type="application/x-bibtex" title="引用（BibTeX）" href="${api}/bibtex">`);
    expect(html).toContain(
      `type="application/vnd.citationstyles.csl+json" title="引用（CSL-JSON）" href="${api}/csl-json">`,
    );
    // In the head, before it closes; the page is otherwise the one built.
    expect(html.indexOf('citation_title')).toBeLessThan(html.indexOf('</head>'));
    expect(html.replace(/<(meta|link) data-citation[^>]*>/g, '')).toBe(INDEX);
  });

  it('gives the reader its volume, page and the page’s permalink', async () => {
    const [volumeId] = book.volumeIds;
    const pageId = book.pageIds[2]!;
    const html = await page(`/Book?catalogId=${book.bookId}&fascicleId=${volumeId}&imageId=${pageId}`);
    const tags = new Map(tagsOf(html));
    expect(tags.get('citation_volume')).toBe('卷一');
    expect(tags.get('citation_firstpage')).toBe('3');
    expect(tags.get('citation_public_url')).toBe(
      `${ORIGIN}/Book?catalogId=${book.bookId}&#38;fascicleId=${volumeId}&#38;imageId=${pageId}`,
    );
    expect(html).toContain(
      `href="${ORIGIN}/api/books/${book.bookId}/citation/ris?fascicleId=${volumeId}&#38;imageId=${pageId}"`,
    );
  });

  it('falls back to the book’s tags for a page of another book', async () => {
    const html = await page(`/Book?catalogId=${book.bookId}&imageId=${closed.pageIds[0]}`);
    const tags = new Map(tagsOf(html));
    expect(tags.get('citation_title')).toBe('論語集注');
    expect(tags.has('citation_volume')).toBe(false);
    expect(tags.get('citation_public_url')).toBe(`${ORIGIN}/SearchPage/${book.bookId}`);
  });

  it('tags a reading-room book (its catalogue record is public)', async () => {
    expect(new Map(tagsOf(await page(`/SearchPage/${closed.bookId}`))).get('citation_title')).toBe(
      '孟子集注',
    );
  });

  it('gives a hidden or unknown book no tags, even to catalogue staff', async () => {
    for (const url of [
      `/SearchPage/${hidden.bookId}`,
      `/Book?catalogId=${hidden.bookId}`,
      '/SearchPage/999999',
    ]) {
      expect(await page(url)).toBe(INDEX);
      expect(await page(url, staff)).toBe(INDEX);
    }
    expect(await page('/home')).toBe(INDEX);
  });

  it('escapes a hostile title in every tag', async () => {
    const evil = await makeBook(h, { title: '待改', volumes: [1] });
    await h.context.repos.catalog.updateBook(
      evil.bookId,
      {
        title: '"><script>alert(1)</script>',
        author: "O'Neil & <b>",
      },
      h.context.database.db,
    );
    const html = await page(`/SearchPage/${evil.bookId}`);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).toContain(
      'name="citation_title" content="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;"',
    );
    expect(html).toContain('name="citation_author" content="O&#39;Neil &#38; &#60;b&#62;"');
  });
});
