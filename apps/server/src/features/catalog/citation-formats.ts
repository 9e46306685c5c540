import type { CslItem } from '@guji/shared';
import type { CitedWork } from './citation.service.ts';

/**
 * The citation formats of issue 18: RIS, BibTeX and CSL-JSON downloads, and the Highwire and Dublin
 * Core tags of a served page. Catalogue fields are data: every format escapes them its own way.
 */

/** The language of the books: Chinese (BCP 47), in every format. */
export const CITATION_LANGUAGE = 'zh';

/** The export formats: their file extension and content type. */
export const CITATION_FORMATS = {
  ris: { extension: 'ris', type: 'application/x-research-info-systems; charset=utf-8' },
  bibtex: { extension: 'bib', type: 'application/x-bibtex; charset=utf-8' },
  csl: { extension: 'json', type: 'application/vnd.citationstyles.csl+json; charset=utf-8' },
} as const;
export type CitationFormat = keyof typeof CITATION_FORMATS;

/** The stable key of a citation: guji-7, guji-7-v12 for a volume, guji-7-v12-p3 for a page (ASCII). */
export function citationKey(work: CitedWork): string {
  let key = `guji-${work.catalogId}`;
  if (work.volume) key += `-v${work.volume.fascicleId}`;
  if (work.page) key += `-p${work.page.pageNumber}`;
  return key;
}

/** One line: control characters and line breaks become spaces (a field never splits a record). */
const oneLine = (text: string): string =>
  // eslint-disable-next-line no-control-regex
  text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();

/**
 * The cited place and the call number in words, for the formats' note: 卷一 第 3 页（第三葉）；索书号：A-1.
 * RIS has no field for a cited page of a book (its SP is a book's page count), so the note carries it.
 */
export function noteOf(work: CitedWork): string | undefined {
  const place = work.page
    ? `${work.volume?.name ?? ''} 第 ${work.page.pageNumber} 页${work.page.leaf ? `（${work.page.leaf}）` : ''}`
    : (work.volume?.name ?? '');
  const parts = [place.trim(), work.callNumber ? `索书号：${work.callNumber}` : ''].filter(Boolean);
  return parts.length ? parts.join('；') : undefined;
}

/**
 * RIS (the tagged format of EndNote, Zotero, Mendeley): `TAG  - value` lines ending CRLF, from TY to ER.
 * The dynasty goes in DA (a date as recorded), the edition in ET, the volume in VL, the library in DP,
 * the access day in Y2, the cited page in the note N1.
 */
export function toRis(work: CitedWork): string {
  const lines: Array<[string, string | null | undefined]> = [
    ['TY', 'BOOK'],
    ['ID', citationKey(work)],
    ['TI', work.title],
    ['AU', work.author],
    ['DA', work.dynasty],
    ['ET', work.edition],
    ['M3', work.editionType],
    ['VL', work.volume?.name],
    ['CN', work.callNumber],
    ['DP', work.siteName],
    ['LA', CITATION_LANGUAGE],
    ['UR', work.url],
    ['Y2', work.accessed],
    ['N1', noteOf(work)],
  ];
  const body = lines
    .map(([tag, value]) => [tag, value ? oneLine(value) : ''] as const)
    .filter(([, value]) => value !== '')
    .map(([tag, value]) => `${tag}  - ${value}`);
  return [...body, 'ER  - ', ''].join('\r\n');
}

/**
 * A BibTeX field value between braces: TeX's special characters escaped, so a title can neither close
 * the field nor run a command. Chinese text stays as it is (UTF-8; biber and Zotero read it).
 */
export function bibtexText(text: string): string {
  return oneLine(text).replace(/[\\{}&%$#_~^]/g, (c) => BIBTEX_ESCAPES[c] ?? c);
}
const BIBTEX_ESCAPES: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
};

/**
 * A BibTeX @book. The author is braced twice: a Chinese name (or a body, 孔子弟子及再傳弟子) is one
 * name, never split into given and family names. The dynasty is the year as recorded; the URL is
 * written verbatim (it is ours: an origin and numbers).
 */
export function toBibtex(work: CitedWork): string {
  const fields: Array<[string, string | null | undefined]> = [
    ['title', work.title && bibtexText(work.title)],
    ['author', work.author && `{${bibtexText(work.author)}}`],
    ['year', work.dynasty && bibtexText(work.dynasty)],
    // A dynasty is no number: Zotero drops such a year but keeps a date as written (biber warns).
    ['date', work.dynasty && bibtexText(work.dynasty)],
    ['edition', work.edition && bibtexText(work.edition)],
    ['type', work.editionType && bibtexText(work.editionType)],
    ['volume', work.volume && bibtexText(work.volume.name)],
    // No `pages`: in an @book it is the book's length (Zotero: a 3-page book); the cited page is in the note.
    ['note', noteOf(work) && bibtexText(noteOf(work)!)],
    ['library', bibtexText(work.siteName)],
    ['language', CITATION_LANGUAGE],
    ['url', work.url.replace(/[{}\\\s]/g, '')],
    ['urldate', work.accessed],
  ];
  const body = fields
    .filter((field): field is [string, string] => Boolean(field[1]))
    .map(([name, value]) => `  ${name} = {${value}}`)
    .join(',\n');
  return `@book{${citationKey(work)},\n${body}\n}\n`;
}

/** CSL-JSON: one item, the format citeproc and Zotero read. Names are literals (not split). */
export function toCsl(work: CitedWork): CslItem[] {
  const [year, month, day] = work.accessed.split('-').map(Number);
  const note = noteOf(work);
  return [
    {
      id: citationKey(work),
      type: 'book',
      title: work.title,
      ...(work.author ? { author: [{ literal: work.author }] } : {}),
      ...(work.dynasty ? { issued: { literal: work.dynasty } } : {}),
      ...(work.edition ? { edition: work.edition } : {}),
      ...(work.editionType ? { genre: work.editionType } : {}),
      ...(work.callNumber ? { 'call-number': work.callNumber } : {}),
      archive: work.siteName,
      language: CITATION_LANGUAGE,
      URL: work.url,
      accessed: { 'date-parts': [[year!, month!, day!]] },
      ...(work.volume ? { volume: work.volume.name } : {}),
      ...(work.page ? { page: String(work.page.pageNumber) } : {}),
      ...(note ? { note } : {}),
    },
  ];
}

/** Text for an HTML attribute between double quotes. */
export function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The export's address for a work: the same book, volume and page. */
export type ExportHref = (format: CitationFormat) => string;

/**
 * The head of a served page for reference managers: Highwire Press `citation_*` tags (Zotero, Google
 * Scholar), PRISM's edition and Dublin Core `DC.*` with their schema links — what the RIS export gives
 * (issue 31 item 9: Zotero had saved the edition as the publisher and the site's slogan as the abstract)
 * — and `rel="alternate"` links to the three exports. Every value escaped.
 */
export function citationHead(work: CitedWork, exportHref: ExportHref): string {
  const tags: Array<[string, string | null | undefined]> = [
    ['citation_title', work.title],
    ['citation_author', work.author],
    ['citation_publication_date', work.dynasty],
    // The edition (版本) is no publisher: PRISM's edition, which Zotero reads as the edition.
    ['prism.edition', work.edition],
    ['citation_language', CITATION_LANGUAGE],
    ['citation_public_url', work.url],
    ['citation_volume', work.volume?.name],
    ['citation_firstpage', work.page ? String(work.page.pageNumber) : undefined],
    ['DC.title', work.title],
    ['DC.creator', work.author],
    ['DC.date', work.dynasty],
    ['DC.type', 'book'],
    // The cited place and the call number, as RIS's note has them; else a reference manager takes the
    // site's own description for the book's abstract.
    ['DC.description', noteOf(work) ?? work.title],
    ['DC.language', CITATION_LANGUAGE],
    ['DC.identifier', work.url],
    ['DC.identifier', work.callNumber],
  ];
  const meta = tags
    .filter((tag): tag is [string, string] => Boolean(tag[1] && oneLine(tag[1])))
    .map(
      ([name, value]) => `<meta data-citation name="${name}" content="${escapeAttribute(oneLine(value))}">`,
    );
  const links = [
    '<link data-citation rel="schema.DC" href="http://purl.org/dc/elements/1.1/">',
    '<link data-citation rel="schema.prism" href="http://prismstandard.org/namespaces/1.2/basic/">',
    ...ALTERNATES.map(
      ([format, title]) =>
        `<link data-citation rel="alternate" type="${CITATION_FORMATS[format].type.split(';')[0]!}" ` +
        `title="${title}" href="${escapeAttribute(exportHref(format))}">`,
    ),
  ];
  // Marked (data-citation), so the web app drops them when it moves to another book or page.
  return [...meta, ...links].join('');
}
const ALTERNATES: Array<[CitationFormat, string]> = [
  ['ris', '引用（RIS）'],
  ['bibtex', '引用（BibTeX）'],
  ['csl', '引用（CSL-JSON）'],
];

/**
 * Content-Disposition of a download: an ASCII name for old clients and the book's title (RFC 6266
 * `filename*`), with characters no file name may hold left out.
 */
export function attachmentOf(work: CitedWork, format: CitationFormat): string {
  const extension = CITATION_FORMATS[format].extension;
  const safe = (part: string) =>
    oneLine(part)
      .replace(/[\\/:*?"<>|]/g, '')
      .slice(0, 60);
  const name = [work.title, work.volume?.name, work.page ? `第${work.page.pageNumber}页` : undefined]
    .map((part) => (part ? safe(part) : ''))
    .filter(Boolean)
    .join('-');
  // RFC 5987: encodeURIComponent leaves ' ( ) * ! unencoded, which a header value may not hold there.
  const encoded = encodeURIComponent(`${name || citationKey(work)}.${extension}`).replace(
    /['()*!]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${citationKey(work)}.${extension}"; filename*=UTF-8''${encoded}`;
}
