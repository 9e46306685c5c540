import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { CITATION_ORIGIN, CITED_BOOK } from '../../../test/citation-fixture.ts';
import { makeBook, makeStaff, type CreatedBook } from '../../../test/factories.ts';

const ORIGIN = CITATION_ORIGIN;
/** A title that tries to break every format: TeX commands and braces, HTML, a line break. */
const HOSTILE = '論語}</title><script>alert("x")</script>\n& 100% {\\end}';

describe.each(DIALECTS)('citation exports on %s', (dialect) => {
  let h: HttpHarness;
  let book: CreatedBook;
  let closed: CreatedBook;
  let hidden: CreatedBook;
  let staff: string;
  const get = (url: string, cookie?: string) =>
    h.request({ method: 'GET', url, ...(cookie ? { cookie } : {}) });

  beforeAll(async () => {
    h = await createHttpHarness(dialect, { PUBLIC_ORIGIN: ORIGIN });
    book = await makeBook(h, { ...CITED_BOOK, volumes: [3, 2] });
    closed = await makeBook(h, { title: '孟子集注', author: '朱熹', isOpen: false, volumes: [2] });
    hidden = await makeBook(h, { title: '秘本', isVisible: false, volumes: [1] });
    staff = (await makeStaff(h, ['catalogAdmin'])).cookie;
  });
  afterAll(async () => h.close());

  it('exports a page as RIS: one record in UTF-8 with volume, page, leaf and the permalink', async () => {
    const [volumeId] = book.volumeIds;
    const pageId = book.pageIds[1]!;
    const response = await get(`/api/books/${book.bookId}/citation/ris?imageId=${pageId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-research-info-systems; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="guji-${book.bookId}-v${volumeId}-p2.ris"; filename*=UTF-8''` +
        encodeURIComponent('論語集注-卷一-第2页.ris'),
    );
    const permalink = `${ORIGIN}/Book?catalogId=${book.bookId}&fascicleId=${volumeId}&imageId=${pageId}`;
    expect(response.body).toBe(
      [
        'TY  - BOOK',
        `ID  - guji-${book.bookId}-v${volumeId}-p2`,
        'TI  - 論語集注',
        'AU  - 朱熹',
        'DA  - 宋',
        'ET  - 清同治十年金陵書局刻本',
        'M3  - 刻本',
        'VL  - 卷一',
        'CN  - A-1',
        'DP  - 古籍数字图书馆',
        'LA  - zh',
        `UR  - ${permalink}`,
        'Y2  - 2026-06-01',
        'N1  - 卷一 第 2 页（第2葉）；索书号：A-1',
        'ER  - ',
        '',
      ].join('\r\n'),
    );
    const [item] = new Cite(response.body, { forceType: '@ris/file' }).data;
    expect(item).toMatchObject({
      type: 'book',
      title: '論語集注',
      author: [{ family: '朱熹' }],
      edition: '清同治十年金陵書局刻本',
      volume: '卷一',
      URL: permalink,
      'call-number': 'A-1',
      accessed: { 'date-parts': [[2026, 6, 1]] },
    });
  });

  it('gives a page’s BibTeX the cited page in its note, never as the book’s length (issue 31 item 9)', async () => {
    const pageId = book.pageIds[1]!;
    const bib = (await get(`/api/books/${book.bookId}/citation/bibtex?imageId=${pageId}`)).body;
    expect(bib).not.toMatch(/^\s*pages = /m);
    expect(bib).toContain('  note = {卷一 第 2 页（第2葉）；索书号：A-1},');
    expect(bib).toContain('  date = {宋},');
  });

  it('exports a book as BibTeX with an ASCII key and the Chinese name kept whole', async () => {
    const response = await get(`/api/books/${book.bookId}/citation/bibtex`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-bibtex; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="guji-${book.bookId}.bib"; filename*=UTF-8''` +
        encodeURIComponent('論語集注.bib'),
    );
    expect(response.body).toBe(
      `@book{guji-${book.bookId},\n` +
        '  title = {論語集注},\n' +
        '  author = {{朱熹}},\n' +
        '  year = {宋},\n' +
        '  date = {宋},\n' +
        '  edition = {清同治十年金陵書局刻本},\n' +
        '  type = {刻本},\n' +
        '  note = {索书号：A-1},\n' +
        '  library = {古籍数字图书馆},\n' +
        '  language = {zh},\n' +
        `  url = {${ORIGIN}/SearchPage/${book.bookId}},\n` +
        '  urldate = {2026-06-01}\n' +
        '}\n',
    );
    const [item] = new Cite(response.body).data;
    expect(item).toMatchObject({
      'citation-key': `guji-${book.bookId}`,
      type: 'book',
      title: '論語集注',
      author: [{ family: '朱熹' }],
      issued: { literal: '宋' },
      edition: '清同治十年金陵書局刻本',
      URL: `${ORIGIN}/SearchPage/${book.bookId}`,
    });
  });

  it('exports a volume as CSL-JSON', async () => {
    const volumeId = book.volumeIds[1]!;
    const response = await get(`/api/books/${book.bookId}/citation/csl-json?fascicleId=${volumeId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.citationstyles.csl+json; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="guji-${book.bookId}-v${volumeId}\\.json"; filename\\*=UTF-8''`),
    );
    expect(response.json()).toEqual([
      {
        id: `guji-${book.bookId}-v${volumeId}`,
        type: 'book',
        title: '論語集注',
        author: [{ literal: '朱熹' }],
        issued: { literal: '宋' },
        edition: '清同治十年金陵書局刻本',
        genre: '刻本',
        'call-number': 'A-1',
        archive: '古籍数字图书馆',
        language: 'zh',
        URL: `${ORIGIN}/Book?catalogId=${book.bookId}&fascicleId=${volumeId}`,
        accessed: { 'date-parts': [[2026, 6, 1]] },
        volume: '卷二',
        note: '卷二；索书号：A-1',
      },
    ]);
    expect(new Cite(response.body).data[0]).toMatchObject({ title: '論語集注', volume: '卷二' });
  });

  it('keeps a hostile title inside its field in every format', async () => {
    const evil = await makeBook(h, { title: '待改', volumes: [1] });
    await h.context.repos.catalog.updateBook(
      evil.bookId,
      { title: HOSTILE, author: 'A}, B {C' },
      h.context.database.db,
    );
    const bib = (await get(`/api/books/${evil.bookId}/citation/bibtex`)).body;
    expect(bib).toContain(
      'title = {論語\\}</title><script>alert("x")</script> \\& 100\\% \\{\\textbackslash{}end\\}}',
    );
    const [fromBib] = new Cite(bib).data;
    expect(fromBib).toMatchObject({ title: HOSTILE.replace('\n', ' '), author: [{ family: 'A}, B {C' }] });

    const ris = await get(`/api/books/${evil.bookId}/citation/ris`);
    expect(ris.body.split('\r\n').filter((line) => line.startsWith('TY  - '))).toHaveLength(1);
    expect(new Cite(ris.body, { forceType: '@ris/file' }).data[0]).toMatchObject({
      title: HOSTILE.replace('\n', ' '),
    });
    const disposition = String(ris.headers['content-disposition']);
    expect(disposition).toMatch(
      new RegExp(`^attachment; filename="guji-${evil.bookId}\\.ris"; filename\\*=UTF-8''[\\w%.~-]+$`),
    );

    const csl = await get(`/api/books/${evil.bookId}/citation/csl-json`);
    expect(csl.json<Array<{ title: string }>>()[0]!.title).toBe(HOSTILE);
  });

  it('gives a reading-room book’s metadata to anyone, its leaf names only to those who may read it', async () => {
    const pageId = closed.pageIds[0]!;
    const url = `/api/books/${closed.bookId}/citation/csl-json?imageId=${pageId}`;
    const visitor = await get(url);
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toEqual([
      expect.objectContaining({ title: '孟子集注', volume: '卷一', page: '1', note: '卷一 第 1 页' }),
    ]);
    expect((await get(url, staff)).json()).toEqual([
      expect.objectContaining({ note: '卷一 第 1 页（第1葉）' }),
    ]);
  });

  it('refuses a hidden book to visitors with the catalogue’s notice, in every format', async () => {
    for (const format of ['ris', 'bibtex', 'csl-json']) {
      const response = await get(`/api/books/${hidden.bookId}/citation/${format}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NO_DATA', message: MSG.noData });
      expect(response.body).not.toContain('秘本');
    }
    const ownStaff = await get(`/api/books/${hidden.bookId}/citation/ris`, staff);
    expect(ownStaff.statusCode).toBe(200);
    expect(ownStaff.body).toContain('TI  - 秘本');
  });

  it('refuses a page or volume of another book and a page outside the given volume', async () => {
    const second = book.volumeIds[1]!;
    const foreignPage = await get(`/api/books/${book.bookId}/citation/ris?imageId=${closed.pageIds[0]}`);
    expect(foreignPage.statusCode).toBe(404);
    expect(foreignPage.json()).toEqual({ code: 'NO_PAGE', message: '该页不存在或不属于这部书' });
    const hiddenPage = await get(`/api/books/${book.bookId}/citation/ris?imageId=${hidden.pageIds[0]}`);
    expect(hiddenPage.statusCode).toBe(404);
    expect(hiddenPage.body).not.toContain('秘本');
    const foreignVolume = await get(
      `/api/books/${book.bookId}/citation/bibtex?fascicleId=${closed.volumeIds[0]}`,
    );
    expect(foreignVolume.statusCode).toBe(404);
    expect(foreignVolume.json()).toEqual({ code: 'NO_VOLUME', message: '该分册不存在或不属于这部书' });
    const mismatch = await get(
      `/api/books/${book.bookId}/citation/csl-json?fascicleId=${second}&imageId=${book.pageIds[0]}`,
    );
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toEqual({ code: 'PAGE_NOT_IN_VOLUME', message: '该页不在所选分册中' });
    const malformed = await get(`/api/books/${book.bookId}/citation/ris?imageId=abc`);
    expect(malformed.statusCode).toBe(400);
    expect((await get('/api/books/0/citation/ris')).statusCode).toBe(400);
  });
});
