import { escapeXml as x } from '../../lib/xml.ts';
import type { BookRow } from '../../db/schema.ts';

/**
 * The metadata formats /oai disseminates: unqualified Dublin Core (`oai_dc`, required of every repository)
 * and MODS 3.7 (`mods`), which holds the catalogue's fields without flattening them. Every book has both.
 */
export const METADATA_FORMATS = [
  {
    prefix: 'oai_dc',
    schema: 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd',
    namespace: 'http://www.openarchives.org/OAI/2.0/oai_dc/',
  },
  {
    prefix: 'mods',
    schema: 'http://www.loc.gov/standards/mods/v3/mods-3-7.xsd',
    namespace: 'http://www.loc.gov/mods/v3',
  },
] as const;
export type MetadataPrefix = (typeof METADATA_FORMATS)[number]['prefix'];

/** What a record says besides the book's own row. */
export interface RecordContext {
  identifier: string;
  datestamp: string;
  /** The book's page on the site (its permalink). */
  bookUrl: string;
  /** The IIIF Presentation collection of the book's volumes, and each volume's manifest. */
  collectionUrl: string;
  volumes: Array<{ name: string; manifestUrl: string }>;
  /** The classification and its ancestors, top first (e.g. 史部, 正史類). */
  classPath: Array<{ code: string; name: string }>;
  /** The site's name, the publisher of the digital copy. */
  siteName: string;
}

/** Literary Chinese (ISO 639-3), the language of the catalogue's books. */
const LANGUAGE = 'lzh';

const extentOf = (book: BookRow): string | undefined => {
  const parts = [
    book.actual_volume ? `${book.actual_volume}卷` : undefined,
    book.book_number ? `${book.book_number}冊` : undefined,
  ].filter(Boolean);
  return parts.length ? parts.join('，') : undefined;
};

const accessOf = (book: BookRow): string =>
  book.is_open
    ? '登錄讀者可在線閱讀全文影像；影像可通過 IIIF 公開使用。'
    : '限制閱覽：僅在館內閱覽室或經授權（預約獲准）後閱讀全文影像。';

const line = (tag: string, value: string | null | undefined, attributes = ''): string =>
  value ? `<${tag}${attributes}>${x(value)}</${tag}>` : '';

export function oaiDc(book: BookRow, c: RecordContext): string {
  const extent = extentOf(book);
  return [
    '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"',
    ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
    ' xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd">',
    line('dc:title', book.title),
    line('dc:creator', book.author),
    line('dc:coverage', book.publish_dynasty),
    c.classPath.length ? line('dc:subject', c.classPath.map((p) => p.name).join(' > ')) : '',
    line('dc:description', book.coverage_dynasty ? `版本：${book.coverage_dynasty}` : undefined),
    line('dc:description', extent ? `卷冊：${extent}` : undefined),
    line('dc:description', book.notes),
    line('dc:publisher', `${c.siteName}（數字化）`),
    '<dc:type>Text</dc:type>',
    line('dc:format', book.edition_type),
    line('dc:identifier', c.bookUrl),
    line('dc:identifier', book.call_number ? `索書號：${book.call_number}` : undefined),
    line('dc:relation', c.collectionUrl),
    ...c.volumes.map((v) => line('dc:relation', v.manifestUrl)),
    `<dc:language>${LANGUAGE}</dc:language>`,
    line('dc:rights', accessOf(book)),
    '</oai_dc:dc>',
  ].join('');
}

export function mods(book: BookRow, c: RecordContext): string {
  const extent = extentOf(book);
  const leaf = c.classPath.at(-1);
  return [
    '<mods xmlns="http://www.loc.gov/mods/v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="3.7"',
    ' xsi:schemaLocation="http://www.loc.gov/mods/v3 http://www.loc.gov/standards/mods/v3/mods-3-7.xsd">',
    `<titleInfo>${line('title', book.title)}</titleInfo>`,
    book.author
      ? `<name>${line('namePart', book.author)}<role><roleTerm type="text">著者</roleTerm></role></name>`
      : '',
    '<typeOfResource>text</typeOfResource>',
    line('genre', book.edition_type, ' displayLabel="版本類型"'),
    '<originInfo>',
    line('dateOther', book.publish_dynasty, ' type="dynasty"'),
    line('edition', book.coverage_dynasty),
    '<issuance>monographic</issuance>',
    '</originInfo>',
    `<language><languageTerm type="code" authority="iso639-3">${LANGUAGE}</languageTerm></language>`,
    '<physicalDescription>',
    line('form', book.edition_type),
    line('extent', extent),
    '<digitalOrigin>reformatted digital</digitalOrigin>',
    '</physicalDescription>',
    line('note', book.notes),
    leaf ? line('classification', leaf.code, ` authority="local" displayLabel="${x(leaf.name)}"`) : '',
    c.classPath.length ? `<subject>${c.classPath.map((p) => line('topic', p.name)).join('')}</subject>` : '',
    '<location>',
    line('shelfLocator', book.call_number),
    `<url usage="primary display" access="object in context">${x(c.bookUrl)}</url>`,
    `<url access="raw object" note="IIIF Presentation API 3.0 collection">${x(c.collectionUrl)}</url>`,
    '</location>',
    ...c.volumes.map(
      (v) =>
        `<relatedItem type="constituent"><titleInfo>${line('title', v.name)}</titleInfo>` +
        `<location><url access="raw object" note="IIIF Presentation API 3.0 manifest">${x(v.manifestUrl)}</url></location></relatedItem>`,
    ),
    line('accessCondition', accessOf(book), ' type="restriction on access"'),
    '<recordInfo>',
    line('recordContentSource', c.siteName),
    `<recordChangeDate encoding="iso8601">${x(c.datestamp)}</recordChangeDate>`,
    line('recordIdentifier', c.identifier),
    '<languageOfCataloging><languageTerm type="code" authority="iso639-2b">chi</languageTerm></languageOfCataloging>',
    '</recordInfo>',
    '</mods>',
  ].join('');
}
