import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { CITATION_ORIGIN, CITED_BOOK } from '../../../test/citation-fixture.ts';
import { makeBook, type CreatedBook } from '../../../test/factories.ts';

/**
 * Citations as another program reads them (issue 31 item 9): bibutils (Debian's `bibutils`, which
 * scripts/test.sh installs) turns our RIS and BibTeX into MODS, the form reference managers and library
 * systems exchange. Each field must land where it belongs: the edition as the edition, the cited page in a
 * note and never as the book's extent, the period of the work as its date, one author whole.
 */
const ORIGIN = CITATION_ORIGIN;

/** bibutils' converter run on one export; its MODS as text. */
const mods = (program: 'ris2xml' | 'bib2xml', input: string) =>
  execFileSync(program, ['-i', 'utf8', '-o', 'utf8'], {
    input,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
  });
/** The text of every element of that name in a MODS record. */
const all = (xml: string, tag: string) =>
  [...xml.matchAll(new RegExp(`<${tag}(?: [^>]*)?>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]!);

describe('citation exports under bibutils', () => {
  let h: HttpHarness;
  let book: CreatedBook;
  beforeAll(async () => {
    h = await createHttpHarness('sqlite', { PUBLIC_ORIGIN: ORIGIN });
    book = await makeBook(h, { ...CITED_BOOK, volumes: [3] });
  });
  afterAll(async () => h.close());

  const exported = async (format: 'ris' | 'bibtex') => {
    const response = await h.request({
      method: 'GET',
      url: `/api/books/${book.bookId}/citation/${format}?imageId=${book.pageIds[1]}`,
    });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  it('reads a page’s RIS as MODS with the edition, the volume and the cited page where they belong', async () => {
    const xml = mods('ris2xml', await exported('ris'));
    expect(all(xml, 'title')).toEqual(['論語集注']);
    expect(all(xml, 'namePart')).toEqual(['朱熹']);
    // bibutils joins Y2 to the date (the first RIS specification's "secondary date"); Zotero and EndNote,
    // whose readers matter more here, take Y2 as the day the page was accessed, so it stays Y2.
    expect(all(xml, 'dateIssued')[0]).toMatch(/^宋(-2026-06-01)?$/);
    expect(all(xml, 'edition')).toEqual(['清同治十年金陵書局刻本']);
    expect(all(xml, 'number')).toEqual(['卷一']);
    expect(all(xml, 'note')).toContain('卷一 第 2 页（第2葉）；索书号：A-1');
    expect(all(xml, 'url')[0]).toMatch(new RegExp(`^${ORIGIN}/Book\\?catalogId=${book.bookId}&`));
    // No extent: the book is not two pages long.
    expect(xml).not.toContain('<extent');
  });

  it('reads a page’s BibTeX the same way: the note has the page, the edition is the edition', async () => {
    const xml = mods('bib2xml', await exported('bibtex'));
    expect(all(xml, 'title')).toEqual(['論語集注']);
    expect(all(xml, 'namePart')).toEqual(['朱熹']);
    expect(all(xml, 'edition')).toEqual(['清同治十年金陵書局刻本']);
    expect(all(xml, 'note')).toContain('卷一 第 2 页（第2葉）；索书号：A-1');
    expect(xml).not.toContain('<extent');
    expect(xml).not.toMatch(/<detail type="page">/);
  });
});
