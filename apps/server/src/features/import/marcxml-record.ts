/**
 * One MARCXML (or MarcXchange) record's text — from `<record…>` to `</record>`, cut out of the file by
 * marc-codec.ts — as leader and fields, read in one pass with no document tree (issue 30 item 7: the
 * library's DOM parser took 2.2 ms and much garbage a record, 12 s and 426 MB for 5,000). Only what a
 * MARC record holds is read: leader, controlfield, datafield with its subfields; other elements are
 * skipped. The five XML entities and character references are decoded; any other entity is refused
 * (no DOCTYPE reaches this point, so none could be declared).
 */
import type { MarcData } from './marc-codec.ts';

/** Thrown for a record that is not well-formed: the reason, in Chinese. */
export class MarcXmlError extends Error {}

/**
 * One token: a tag (closing or not, with its attributes, self-closing or not), a comment, a CDATA
 * section, or text up to the next `<`. Each alternative is a straight scan (no nested repetition).
 */
const TOKEN =
  /<(\/?)(?:[\w.-]+:)?([\w.-]+)((?:\s+[\w.:-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|<!--([\s\S]*?)-->|<!\[CDATA\[([\s\S]*?)\]\]>|<\?[^>]*\?>|([^<]+)/y;
const ATTRIBUTE = /([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ENTITY = /&(?:#x([0-9a-fA-F]{1,6});|#([0-9]{1,7});|([A-Za-z][\w.-]{0,30});)?/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(
    ENTITY,
    (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
      if (name !== undefined) {
        const named = NAMED[name];
        if (named === undefined) throw new MarcXmlError(`未定义的实体 ${whole}`);
        return named;
      }
      if (hex === undefined && dec === undefined) throw new MarcXmlError('含未转义的 &');
      const code = hex !== undefined ? parseInt(hex, 16) : Number(dec);
      if (code < 1 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
        throw new MarcXmlError(`无效的字符引用 ${whole}`);
      return String.fromCodePoint(code);
    },
  );
}

function attributesOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(ATTRIBUTE)) out[m[1]!.replace(/^[\w.-]+:/, '')] = decode(m[2] ?? m[3] ?? '');
  return out;
}

export function parseMarcXmlRecord(raw: string): MarcData {
  const data: MarcData = { leader: '', fields: [] };
  /** The element whose text is being read, and where it goes. */
  let reading: 'leader' | 'control' | 'subfield' | null = null;
  let text = '';
  let control: { tag: string } | null = null;
  let datafield: {
    tag: string;
    ind1: string;
    ind2: string;
    subfields: Array<{ code: string; value: string }>;
  } | null = null;
  let code = '';
  const open: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < raw.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(raw);
    if (!m) throw new MarcXmlError(`第 ${at + 1} 个字符处不是合法的 XML`);
    const [, closing, name, attrs, selfClosing, , cdata, chars] = m;
    if (chars !== undefined || cdata !== undefined) {
      if (reading) text += chars !== undefined ? decode(chars) : cdata!;
      else if (chars !== undefined && chars.trim() !== '' && open.length > 0) decode(chars);
      continue;
    }
    if (name === undefined) continue; // a comment or a processing instruction
    if (!closing) {
      const a = attributesOf(attrs ?? '');
      if (name === 'leader') reading = 'leader';
      else if (name === 'controlfield') {
        control = { tag: a.tag ?? '' };
        reading = 'control';
      } else if (name === 'datafield')
        datafield = { tag: a.tag ?? '', ind1: a.ind1 ?? ' ', ind2: a.ind2 ?? ' ', subfields: [] };
      else if (name === 'subfield' && datafield) {
        code = a.code ?? '';
        reading = 'subfield';
      }
      text = reading ? '' : text;
      if (!selfClosing) open.push(name);
      else if (reading) closeElement(name);
      continue;
    }
    if (open.pop() !== name) throw new MarcXmlError(`元素 ${name} 的结束标记不匹配`);
    closeElement(name);
  }
  if (open.length > 0) throw new MarcXmlError(`元素 ${open.at(-1)} 没有结束标记`);
  return data;

  function closeElement(name: string) {
    if (name === 'leader' && reading === 'leader') data.leader = text;
    else if (name === 'controlfield' && control) {
      data.fields.push({ tag: control.tag, value: text });
      control = null;
    } else if (name === 'subfield' && datafield && reading === 'subfield')
      datafield.subfields.push({ code, value: text });
    else if (name === 'datafield' && datafield) {
      data.fields.push(datafield);
      datafield = null;
    }
    if (name === 'leader' || name === 'controlfield' || name === 'subfield') reading = null;
  }
}
