/**
 * Reading and writing MARC records (issue 18): ISO 2709 through marcjs; MARCXML written by
 * @natlibfi/marc-record-serializers and read record by record by marcxml-record.ts (one pass, no document
 * tree: the library's xml2js reader took 2.2 ms and much garbage a record, issue 30 item 7). natlibfi's
 * ISO 2709 reader breaks on characters outside the Basic Multilingual Plane (the rare characters of CJK
 * Extension B, common in old books), marcjs's MARCXML reader cuts the text at fixed offsets and fails on
 * prefixed (`marc:record`) documents. Hostile input is refused before any parser sees it: DOCTYPE and
 * entity declarations, byte counts that do not add up, bytes that are not UTF-8, MARC-8 escapes, more
 * records or bytes than the limits.
 */
import { MarcRecord, type MarcField, type MarcValidationOptions } from '@natlibfi/marc-record';
import { MARCXML } from '@natlibfi/marc-record-serializers';
import marcjs from 'marcjs';
import { badRequest } from '../../errors.ts';
import { slicer } from '../../lib/slices.ts';
import { MarcXmlError, parseMarcXmlRecord } from './marcxml-record.ts';

/** A MARC record as both formats read it: the leader and its fields in order. */
export interface MarcData {
  leader: string;
  fields: MarcField[];
}

export const MARC_LIMITS = {
  /** The largest file taken: about 10,000 ordinary catalogue records. */
  fileBytes: 20 * 1024 * 1024,
  records: 5000,
  /** ISO 2709 cannot count past 99,999 bytes a record; a MARCXML record is held to about the same. */
  xmlRecordChars: 200_000,
} as const;

const RECORD_END = 0x1d;
const FIELD_END = 0x1e;
/** Empty subfields and records are read (and judged by the mapping), not refused by the library. */
const READ_OPTIONS: MarcValidationOptions = { fields: false, subfields: false, subfieldValues: false };

const utf8 = new TextDecoder('utf-8', { fatal: true });
const fail = (message: string) => badRequest('MARC_FILE', message);

/** The file's syntax, from its first bytes: `<` begins MARCXML, five digits an ISO 2709 record. */
export function marcSyntax(data: Buffer): 'marcxml' | 'iso2709' {
  const head = data
    .subarray(0, 64)
    .toString('latin1')
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart();
  if (head.startsWith('<')) return 'marcxml';
  if (/^\d{5}/.test(head)) return 'iso2709';
  throw fail('无法识别的文件：应为 ISO 2709（.mrc/.iso）或 MARCXML（.xml）格式的 MARC 记录');
}

/** Reads every record of a MARC file, or refuses the whole file naming the record at fault. */
export async function readMarcFile(data: Buffer): Promise<MarcData[]> {
  if (data.length === 0) throw fail('文件为空');
  if (data.length > MARC_LIMITS.fileBytes) throw fail(`文件过大：MARC 文件最大 20 MB`);
  const records = marcSyntax(data) === 'marcxml' ? await readMarcXml(data) : await readIso2709(data);
  if (records.length === 0) throw fail('文件中没有 MARC 记录');
  return records;
}

function tooMany(count: number) {
  if (count > MARC_LIMITS.records) throw fail(`记录过多：一个文件最多 ${MARC_LIMITS.records} 条记录`);
}

/** ISO 2709: records end with 0x1D; each record's byte counts are checked before marcjs reads it. */
async function readIso2709(data: Buffer): Promise<MarcData[]> {
  const records: MarcData[] = [];
  const pause = slicer();
  let start = 0;
  while (start < data.length) {
    await pause();
    const end = data.indexOf(RECORD_END, start);
    if (end === -1) {
      if (data.subarray(start).toString('latin1').trim() === '') break;
      throw fail(`第 ${records.length + 1} 条记录不完整：缺少记录结束符，文件可能被截断`);
    }
    // Line breaks some systems put between records are not part of them.
    while (data[start] === 0x0a || data[start] === 0x0d) start += 1;
    const raw = data.subarray(start, end + 1);
    tooMany(records.length + 1);
    records.push(readIsoRecord(raw, records.length + 1));
    start = end + 1;
  }
  return records;
}

const ESCAPE = 0x1b;
const marc8 = (index: number) =>
  `第 ${index} 条记录使用 MARC-8 编码（含字符集转义序列，如 CJK 的 EACC），本系统只读取 Unicode（UTF-8）的 MARC 记录：请在原系统中以 UTF-8 导出后再导入`;

function readIsoRecord(raw: Buffer, index: number): MarcData {
  const bad = (what: string) => fail(`第 ${index} 条记录不是有效的 ISO 2709 记录：${what}`);
  if (raw.length < 26) throw bad('记录过短');
  const leader = raw.subarray(0, 24).toString('latin1');
  if (!/^\d{5}/.test(leader) || Number(leader.slice(0, 5)) !== raw.length)
    throw bad('头标中的记录长度与实际长度不符（文件可能被截断或改动）');
  const base = /^\d{5}$/.test(leader.slice(12, 17)) ? Number(leader.slice(12, 17)) : NaN;
  if (!(base > 24 && base < raw.length) || raw[base - 1] !== FIELD_END || (base - 25) % 12 !== 0)
    throw bad('数据基地址或目录区有误');
  for (let at = 24; at < base - 1; at += 12) {
    const entry = raw.subarray(at, at + 12).toString('latin1');
    if (!/^[0-9A-Za-z]{3}\d{9}$/.test(entry)) throw bad(`目录项“${entry}”有误`);
    const length = Number(entry.slice(3, 7));
    const from = base + Number(entry.slice(7, 12));
    if (length < 1 || from + length > raw.length - 1 || raw[from + length - 1] !== FIELD_END)
      throw bad(`字段 ${entry.slice(0, 3)} 的长度或位置超出记录`);
  }
  try {
    utf8.decode(raw);
  } catch {
    throw fail(`第 ${index} 条记录不是 UTF-8 编码：请以 UTF-8 导出（MARC-8 等编码不支持）`);
  }
  // MARC-8 (leader/09 blank) switches character sets with escape sequences: its CJK set (EACC) is
  // written in ASCII bytes, so such a record decodes as UTF-8 into garbage (issue 31 item 7).
  if (raw.includes(ESCAPE)) throw fail(marc8(index));
  const record = marcjs.Marc.parse(raw, 'iso2709');
  return {
    leader: record.leader,
    fields: record.fields.map(([tag = '', first = '', ...rest]): MarcField => {
      if (/^00\d$/.test(tag)) return { tag, value: first };
      const subfields = [];
      for (let i = 0; i + 1 < rest.length; i += 2) subfields.push({ code: rest[i]!, value: rest[i + 1]! });
      return { tag, ind1: first[0] ?? ' ', ind2: first[1] ?? ' ', subfields };
    }),
  };
}

/**
 * The root element of an XML text, if it is MARCXML's `collection` or `record` (with its namespace
 * prefix, if any), after a byte-order mark, the XML declaration, comments and white space. Read by a
 * scan that looks at each character once: a pattern with a repeated lazy group over the comments took
 * time exponential in their number (issue 30 item 1).
 */
export function rootElement(text: string): { prefix: string; name: 'collection' | 'record' } | undefined {
  let at = text.startsWith('\uFEFF') ? 1 : 0;
  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  skipSpace();
  if (text.startsWith('<?xml', at)) {
    const end = text.indexOf('?>', at);
    if (end === -1) return undefined;
    at = end + 2;
    skipSpace();
  }
  while (text.startsWith('<!--', at)) {
    const end = text.indexOf('-->', at + 4);
    if (end === -1) return undefined;
    at = end + 3;
    skipSpace();
  }
  const tag = /<([\w.-]+:)?(collection|record)[\s>]/y;
  tag.lastIndex = at;
  const match = tag.exec(text);
  return match ? { prefix: match[1] ?? '', name: match[2] as 'collection' | 'record' } : undefined;
}

/**
 * MARCXML or MarcXchange (a `collection` of `record`s or one `record`, with or without a namespace
 * prefix): each record is cut out between its tags and read by parseMarcXmlRecord. A DOCTYPE is refused
 * outright, so no entity (external or nested, "billion laughs") is ever declared, let alone expanded.
 */
async function readMarcXml(data: Buffer): Promise<MarcData[]> {
  let text: string;
  try {
    text = utf8.decode(data);
  } catch {
    throw fail('MARCXML 文件不是 UTF-8 编码');
  }
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw fail('MARCXML 文件不能含 DOCTYPE 或实体声明（出于安全原因不予处理）');
  const root = rootElement(text);
  if (!root) throw fail('不是 MARCXML 文件：根元素应为 collection 或 record');
  const prefix = root.prefix;
  const open = new RegExp(`<${prefix.replace('.', '\\.')}record[\\s>]`, 'g');
  const close = `</${prefix}record>`;
  const records: MarcData[] = [];
  let match: RegExpExecArray | null;
  // Parsed in slices: the event loop answers other requests between them (issue 30 item 7).
  const pause = slicer();
  while ((match = open.exec(text))) {
    const index = records.length + 1;
    tooMany(index);
    await pause();
    const end = text.indexOf(close, match.index);
    if (end === -1) throw fail(`第 ${index} 条记录不完整：缺少 ${close}，文件可能被截断`);
    const raw = text.slice(match.index, end + close.length);
    if (raw.includes('\u001b')) throw fail(marc8(index));
    if (raw.length > MARC_LIMITS.xmlRecordChars) throw fail(`第 ${index} 条记录过大（超过 20 万字符）`);
    try {
      records.push(parseMarcXmlRecord(raw));
    } catch (error) {
      if (!(error instanceof MarcXmlError)) throw error;
      throw fail(`第 ${index} 条记录不是有效的 MARCXML（${error.message}）`);
    }
    open.lastIndex = end + close.length;
  }
  return records;
}

const MARC21_NS = 'http://www.loc.gov/MARC21/slim';
/** MarcXchange (ISO 25577): the XML of MARC formats other than MARC21, here UNIMARC (CNMARC). */
const MARCXCHANGE_NS = 'info:lc/xmlns/marcxchange-v1';

/**
 * One record, without the XML declaration (for a collection): MARCXML for MARC21; for CNMARC a
 * MarcXchange record saying its format (issue 31 item 5: a UNIMARC leader in the MARC21 namespace fails
 * MARC21slim.xsd).
 */
export function marcXmlRecord(record: MarcData, format: 'marc21' | 'cnmarc' = 'marc21'): string {
  const xml = MARCXML.to(new MarcRecord(record, READ_OPTIONS), { omitDeclaration: true });
  if (format === 'marc21') return xml;
  return xml.replace(`<record xmlns="${MARC21_NS}">`, '<record format="UNIMARC" type="Bibliographic">');
}

/** The opening of a collection document: MARCXML (MARC21) or MarcXchange (CNMARC). */
export const marcXmlHead = (format: 'marc21' | 'cnmarc' = 'marc21') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<collection xmlns="${format === 'marc21' ? MARC21_NS : MARCXCHANGE_NS}">\n`;
export const MARCXML_TAIL = '</collection>\n';

/** Records as one MARCXML (or, for CNMARC, MarcXchange) collection document. */
export function marcXmlCollection(records: MarcData[], format: 'marc21' | 'cnmarc' = 'marc21'): string {
  return marcXmlHead(format) + records.map((r) => `${marcXmlRecord(r, format)}\n`).join('') + MARCXML_TAIL;
}

/** One record as ISO 2709 (marcjs counts the bytes of UTF-8 text). */
export function iso2709Record(record: MarcData): Buffer {
  const out = new marcjs.Record();
  out.leader = record.leader;
  out.fields = record.fields.map((field) =>
    'value' in field
      ? [field.tag, field.value]
      : [field.tag, field.ind1 + field.ind2, ...field.subfields.flatMap((s) => [s.code, s.value ?? ''])],
  );
  return Buffer.from(marcjs.Marc.format(out, 'Iso2709'), 'utf8');
}
