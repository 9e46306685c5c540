/**
 * The field mapping between MARC records and the catalogue's books (docs/import.md, "MARC"): MARC21
 * with its 880 linked fields (the CJK script wins over the romanized field it is linked to) and CNMARC
 * (UNIMARC, Chinese in the fields themselves). A field a record does not carry is left undefined, so
 * an import leaves that field of the book as it is.
 */
import type { MarcDataField, MarcField } from '@natlibfi/marc-record';
import { chineseNumeralValue } from '../../lib/chinese-numeral.ts';
import type { MarcBookField, MarcFormat } from '@guji/shared';
import type { MarcData } from './marc-codec.ts';

/** A record's book fields, and where each came from (`245$a$b`, `880(245)$a`…) for error messages. */
export interface MarcBook {
  controlNumber: string | null;
  values: Partial<Record<MarcBookField, string>>;
  sources: Partial<Record<MarcBookField, string>>;
}

/** The book as the export writes it. */
export interface BookForMarc {
  controlNumber: string;
  /** When the record was created and last changed (ISO 8601), for MARC21 008 and 005. */
  createdAt?: string;
  updatedAt?: string;
  /** The book's page and its IIIF collection (its volumes' manifests) on this site, for MARC21 856. */
  links?: { page: string; iiif: string };
  title: string;
  author: string | null;
  publishDynasty: string | null;
  coverageDynasty: string | null;
  callNumber: string | null;
  classCode: string | null;
  bookNumber: number | null;
  notes: string | null;
}

const isData = (field: MarcField): field is MarcDataField => 'subfields' in field;
const sub = (field: MarcDataField, code: string): string[] =>
  field.subfields.filter((s) => s.code === code).map((s) => (s.value ?? '').trim());
const first = (field: MarcDataField, code: string): string => sub(field, code)[0] ?? '';
/** ISBD punctuation a cataloguer ends a subfield with (` /`, ` :`, ` ;`, ` =`, `,`, `.`). */
const bare = (text: string): string => text.replace(/[\s/:;=,.]+$/u, '').trim();

/** The control number (001) of a record this library exported: `GUJI-` and the book's id. */
export const OWN_CONTROL = /^GUJI-(\d+)$/;
const HAN = /\p{Script=Han}/u;

/** Whether a record is MARC21 (245 title) or CNMARC (200 title); null when it has neither. */
export function detectFormat(record: MarcData): MarcFormat | null {
  const tags = new Set(record.fields.map((f) => f.tag));
  const linked245 = record.fields.some(
    (f) => f.tag === '880' && isData(f) && first(f, '6').startsWith('245'),
  );
  if (tags.has('245') || linked245) return 'marc21';
  if (tags.has('200')) return 'cnmarc';
  return null;
}

/**
 * MARC21 fields of a tag, each replaced by the 880 linked to it ($6 `880-02` ↔ `245-02`), and the
 * 880s of the tag that link to nothing ($6 `245-00`) where the record has no such field.
 */
function linkedFields(record: MarcData, tag: string): Array<{ field: MarcDataField; source: string }> {
  const all = record.fields.filter(isData);
  const vernacular = all.filter((f) => f.tag === '880');
  const linkOf = (f: MarcDataField) => /^(\d{3})-(\d{2})/.exec(first(f, '6'));
  const result = all
    .filter((f) => f.tag === tag)
    .map((field) => {
      const occurrence = /^880-(\d{2})/.exec(first(field, '6'))?.[1];
      const pair =
        occurrence && occurrence !== '00'
          ? vernacular.find((v) => linkOf(v)?.[1] === tag && linkOf(v)?.[2] === occurrence)
          : undefined;
      return pair ? { field: pair, source: `880(${tag})` } : { field, source: tag };
    });
  if (result.length) return result;
  return vernacular
    .filter((v) => linkOf(v)?.[1] === tag && linkOf(v)?.[2] === '00')
    .map((field) => ({ field, source: `880(${tag})` }));
}

const DYNASTY = /^[\p{Script=Han}·]{1,6}$/u;
const OPEN = '(（\\[［【〔';
const CLOSE = ')）\\]］】〕';
const LEADING = new RegExp(`^[${OPEN}]\\s*([^${OPEN}${CLOSE}]{1,8}?)\\s*[${CLOSE}]\\s*(.+)$`, 'u');
const TRAILING = new RegExp(`^(.+?)\\s*[${OPEN}]\\s*([^${OPEN}${CLOSE}]{1,8}?)\\s*[${CLOSE}]$`, 'u');

/** A dynasty written in brackets before or after a name: "(清)紀昀", "紀昀 (清)", "[宋]朱熹". */
export function splitDynasty(text: string): { name: string; dynasty: string | null } {
  const lead = LEADING.exec(text.trim());
  if (lead && DYNASTY.test(lead[1]!)) return { name: lead[2]!.trim(), dynasty: lead[1]! };
  const trail = TRAILING.exec(text.trim());
  if (trail && DYNASTY.test(trail[2]!)) return { name: trail[1]!.trim(), dynasty: trail[2]! };
  return { name: text.trim(), dynasty: null };
}

/** A dynasty of its own (MARC21 100$d, CNMARC 70X $c): "清", "(清)"; not dates like "1724-1805". */
function dynastyOf(text: string): string | null {
  const plain = text.trim().replace(new RegExp(`^[${OPEN}]\\s*|\\s*[${CLOSE}]$`, 'gu'), '');
  return DYNASTY.test(plain) ? plain : null;
}

/** The number of 冊 in an extent statement: "4冊", "2函16册", "四冊", "12 v.". */
export function volumeCount(extent: string): string | undefined {
  const arabic = /(\d+)\s*(?:冊|册|本|v\.|vols?\b|volumes?\b)/iu.exec(extent);
  if (arabic) return String(Number(arabic[1]));
  const chinese = /([〇零一二兩两三四五六七八九十百千]+)\s*[冊册本]/u.exec(extent);
  const n = chinese ? chineseNumeralValue(chinese[1]!) : null;
  return n ? String(n) : undefined;
}

/** The words of responsibility a transcribed statement ends with (CNMARC 200$f "(清)紀昀撰"). */
const ROLE = /(?:撰|著|編|编|輯|辑|纂|注|註|校|述|譔|撰述|集注|集解|箋|笺|疏|譯|译|等撰|等編|等编)$/u;

interface Found {
  values: MarcBook['values'];
  sources: MarcBook['sources'];
}
function put(found: Found, field: MarcBookField, value: string | undefined | null, source: string) {
  if (value === undefined || value === null || value.trim() === '') return;
  found.values[field] = value.trim();
  found.sources[field] = source;
}

/**
 * The author as a record gives it: this library's own exports write the name as it is catalogued and the
 * dynasty apart (MARC21 100 $d, CNMARC 70X $c), so it comes back exactly (a name may itself hold
 * brackets: 曾子（舊題）, （漢）司馬遷撰；…); other systems' names may carry the dynasty in brackets.
 */
function isOwn(record: MarcData): boolean {
  const control = record.fields.find((f) => f.tag === '001');
  return control !== undefined && 'value' in control && OWN_CONTROL.test(control.value.trim());
}

function authorOf(record: MarcData, name: string, dynastyField: string) {
  const own = dynastyOf(dynastyField);
  if (isOwn(record)) return { name: name.trim(), dynasty: own, split: false };
  const split = splitDynasty(bare(name));
  return { name: split.name, dynasty: own ?? split.dynasty, split: own === null && split.dynasty !== null };
}

function marc21Book(record: MarcData, found: Found) {
  const one = (tag: string) => linkedFields(record, tag)[0];
  const title = one('245');
  if (title) {
    const main = bare(sub(title.field, 'a').join(' '));
    const rest = bare(sub(title.field, 'b').join(' '));
    put(
      found,
      'title',
      rest ? `${main}${HAN.test(rest) ? '：' : ' : '}${rest}` : main,
      `${title.source}$a$b`,
    );
  }
  const author = one('100') ?? one('110') ?? one('700') ?? one('710');
  if (author) {
    const { name, dynasty, split } = authorOf(record, first(author.field, 'a'), first(author.field, 'd'));
    put(found, 'author', name, `${author.source}$a`);
    put(found, 'publishDynasty', dynasty, `${author.source}$${split ? 'a' : 'd'}`);
  }
  // This library's own records carry the statement of responsibility whole in 245 $c: that is the author.
  // Its full stop (ISBD, added on export) is taken off again, only that one.
  const statement = title && isOwn(record) ? first(title.field, 'c').replace(/\.$/u, '') : '';
  if (statement) put(found, 'author', statement, `${title!.source}$c`);
  const edition = one('250');
  if (edition) put(found, 'coverageDynasty', bare(first(edition.field, 'a')), `${edition.source}$a`);
  const location = one('852');
  const local = one('099') ?? one('090');
  if (location && first(location.field, 'h')) {
    const parts = [first(location.field, 'h'), first(location.field, 'i')].filter(Boolean);
    put(found, 'callNumber', parts.join(' '), `${location.source}$h$i`);
  } else if (local) {
    const parts = [...sub(local.field, 'a'), ...sub(local.field, 'b')].filter(Boolean);
    put(found, 'callNumber', parts.join(' '), `${local.source}$a`);
  }
  const classification = one('084');
  if (classification) put(found, 'classCode', first(classification.field, 'a'), `${classification.source}$a`);
  const extent = one('300');
  if (extent) put(found, 'bookNumber', volumeCount(first(extent.field, 'a')), `${extent.source}$a`);
  const notes = linkedFields(record, '500').flatMap(({ field }) => sub(field, 'a').filter(Boolean));
  put(found, 'notes', notes.join('\n'), '500$a');
}

function cnmarcBook(record: MarcData, found: Found) {
  const fields = record.fields.filter(isData);
  const one = (tag: string) => fields.find((f) => f.tag === tag);
  const title = one('200');
  if (title) {
    const main = bare(sub(title, 'a').join('；'));
    const rest = bare(sub(title, 'e').join('；'));
    put(found, 'title', rest ? `${main}：${rest}` : main, '200$a$e');
  }
  const person = ['700', '701', '710', '711'].map((tag) => one(tag)).find((f) => f && first(f, 'a'));
  if (person) {
    const { name, dynasty, split } = authorOf(record, first(person, 'a'), first(person, 'c'));
    put(found, 'author', name, `${person.tag}$a`);
    put(found, 'publishDynasty', dynasty, `${person.tag}$${split ? 'a' : 'c'}`);
  } else if (title && first(title, 'f')) {
    const { name, dynasty } = splitDynasty(bare(first(title, 'f')));
    const stripped = name.replace(ROLE, '');
    put(found, 'author', stripped.length >= 2 ? stripped : name, '200$f');
    put(found, 'publishDynasty', dynasty, '200$f');
  } else {
    const secondary = one('702');
    if (secondary) put(found, 'author', splitDynasty(bare(first(secondary, 'a'))).name, '702$a');
  }
  const edition = one('205');
  if (edition) put(found, 'coverageDynasty', bare(first(edition, 'a')), '205$a');
  const holding = one('905');
  const local = one('090');
  if (holding && first(holding, 'd')) {
    const parts = [first(holding, 'd'), first(holding, 'e')].filter(Boolean);
    put(found, 'callNumber', parts.join('/'), '905$d$e');
  } else if (local) put(found, 'callNumber', first(local, 'a'), '090$a');
  const classification = one('690') ?? one('686');
  if (classification) put(found, 'classCode', first(classification, 'a'), `${classification.tag}$a`);
  const extent = one('215');
  if (extent) put(found, 'bookNumber', volumeCount(first(extent, 'a')), '215$a');
  const notes = fields.filter((f) => f.tag === '300').flatMap((f) => sub(f, 'a').filter(Boolean));
  put(found, 'notes', notes.join('\n'), '300$a');
}

/** The book fields of a record read as the given format. */
export function bookOfRecord(record: MarcData, format: MarcFormat): MarcBook {
  const control = record.fields.find((f) => f.tag === '001');
  const controlNumber = control && 'value' in control ? control.value.trim() || null : null;
  const found: Found = { values: {}, sources: {} };
  if (format === 'marc21') marc21Book(record, found);
  else cnmarcBook(record, found);
  return { controlNumber, ...found };
}

const field = (tag: string, ind: string, ...pairs: Array<[string, string | null | undefined]>) => {
  const subfields = pairs.flatMap(([code, value]) => (value ? [{ code, value }] : []));
  return subfields.length ? [{ tag, ind1: ind[0]!, ind2: ind[1]!, subfields }] : [];
};
/** MARC21 005: yyyymmddhhmmss.f of an ISO 8601 time. */
const transactionTime = (iso: string) => `${iso.replace(/[-:T]/g, '').slice(0, 14)}.0`;

/**
 * MARC21 008 for a book (40 characters): date entered (yymmdd), no attempt at dates of publication
 * (`n`: an ancient book's date is its dynasty, in 264), place `xx ` (unknown), language `chi`.
 */
function fixedData(book: BookForMarc): string {
  const entered = (book.createdAt ?? new Date().toISOString()).slice(2, 10).replace(/-/g, '');
  const value = `${entered}nuuuuuuuuxx ${' '.repeat(17)}chi d`;
  return value.padEnd(40, ' ').slice(0, 40);
}

/** The first name of a statement of responsibility: （漢）司馬遷撰；… → 司馬遷; 曾子（舊題） stays. */
function headingOf(author: string | null): string | null {
  if (!author) return null;
  const first = author.split(/[；;，,、]/u)[0]!.trim();
  const { name } = splitDynasty(first);
  const bare = name.replace(ROLE, '').trim();
  return bare.length >= 2 ? bare : name;
}

const authorWithDynasty = (book: BookForMarc) =>
  book.author && book.publishDynasty ? `(${book.publishDynasty})${book.author}` : book.author;
const noteLines = (book: BookForMarc) => (book.notes ?? '').split('\n').filter((l) => l.trim());

/**
 * A book as a MARC record. The catalogue holds its fields in their own script only, so they are
 * written directly (UTF-8, MARC21 leader/09 `a`) rather than as 880 pairs: a pair needs a
 * romanization beside the script, and a machine romanization of classical names would be wrong too
 * often to catalogue. The classification is the library's own dictionary code (`$2 local`).
 */
export function recordOfBook(book: BookForMarc, format: MarcFormat): MarcData {
  const count = book.bookNumber ? `${book.bookNumber}冊` : null;
  const fields: MarcField[] =
    format === 'marc21'
      ? [
          { tag: '001', value: book.controlNumber },
          ...(book.updatedAt ? [{ tag: '005', value: transactionTime(book.updatedAt) }] : []),
          { tag: '008', value: fixedData(book) },
          // Cataloguing language Chinese. Leader/18 `i`: ISBD punctuation is included (245 below).
          ...field('040', '  ', ['b', 'chi']),
          ...field('084', '  ', ['a', book.classCode], ['2', book.classCode ? 'local' : null]),
          // The heading: the first name of the statement, without its dynasty and role word; the
          // dynasty apart in $d (this library's own convention, read back by its import).
          ...field(
            '100',
            '0 ',
            ['a', headingOf(book.author)],
            ['d', book.author && book.publishDynasty ? `(${book.publishDynasty})` : null],
          ),
          // The statement of responsibility as catalogued, whole (read back exactly from $c), after ` /`;
          // the field ends with a full stop (the ISBD punctuation MARC::Lint asks of 245).
          ...field(
            '245',
            book.author ? '10' : '00',
            ['a', book.author ? `${book.title} /` : `${book.title}.`],
            ['c', book.author ? `${book.author}.` : null],
          ),
          ...field('250', '  ', ['a', book.coverageDynasty]),
          ...field('264', ' 1', ['c', book.publishDynasty ? `[${book.publishDynasty}]` : null]),
          ...field('300', '  ', ['a', count]),
          ...noteLines(book).flatMap((note) => field('500', '  ', ['a', note])),
          ...field('852', '8 ', ['h', book.callNumber]),
          // The digitised copy on this site: its page, and its IIIF collection (the volumes' manifests).
          ...field('856', '41', ['u', book.links?.page], ['y', book.links ? '古籍数字图书馆' : null]),
          ...field(
            '856',
            '41',
            ['u', book.links?.iiif],
            ['y', book.links ? 'IIIF' : null],
            ['q', book.links ? 'application/ld+json' : null],
          ),
        ]
      : [
          { tag: '001', value: book.controlNumber },
          ...field('200', '1 ', ['a', book.title], ['f', authorWithDynasty(book)]),
          ...field('205', '  ', ['a', book.coverageDynasty]),
          ...field('215', '  ', ['a', count]),
          ...noteLines(book).flatMap((note) => field('300', '  ', ['a', note])),
          ...field('686', '  ', ['a', book.classCode], ['2', book.classCode ? 'local' : null]),
          ...field(
            '701',
            ' 0',
            ['c', book.author && book.publishDynasty ? `(${book.publishDynasty})` : null],
            ['a', book.author],
          ),
          ...field('905', '  ', ['d', book.callNumber]),
        ];
  // MARC21: new record, language material, monograph, UCS/Unicode. CNMARC (UNIMARC): the same, 450 map.
  const leader = format === 'marc21' ? '00000nam a2200000 i 4500' : '00000nam0 2200000   450 ';
  return { leader, fields };
}
