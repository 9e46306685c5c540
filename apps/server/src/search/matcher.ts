import { matchChar, type CompiledClause, type CompiledQuery, type CompiledTerm } from './query.ts';

/**
 * Checks a compiled query on one page's text and finds what it matched (DESIGN.md §6): terms are
 * phrases of token characters, punctuation and spaces between them skipped, found left to right
 * without overlapping (as the index counts). Positions are code points of the original text, so a
 * highlight covers the characters as written, punctuation inside a match included.
 *
 * Counts: a page's occurrences are the matches of the terms it looks for — every match of each term
 * of an AND or OR; for `A NEAR/n B`, the matches of A that have a match of B at most n characters
 * away (characters between them, punctuation not counted; overlapping counts as 0). The matches of B
 * that make them qualify are highlighted but not counted. A match found by two terms counts once.
 */
export interface Range {
  start: number;
  length: number;
}

export interface PageMatch {
  occurrences: number;
  /** Every highlighted match, in order, overlapping ones merged. */
  ranges: Range[];
}

/** A page's text as matching sees it. */
interface Prepared {
  /** The token characters (folded or as written), joined. */
  tokens: string;
  /** Code-point position in the original text of each token. */
  at: number[];
  /** Token index of each code unit of `tokens`, when some token takes two (characters beyond the BMP). */
  unitToken: number[] | null;
}

/** Token form of each BMP character as a code point (0: not a token; -1: not yet known), per mode. */
const TABLES = { folded: new Int32Array(65536).fill(-1), exact: new Int32Array(65536).fill(-1) };

/** The token form of one code point (0: punctuation or space), cached for the BMP. */
function tokenCode(code: number, exact: boolean): number {
  const table = exact ? TABLES.exact : TABLES.folded;
  if (code < 65536) {
    const known = table[code]!;
    if (known >= 0) return known;
    const token = matchChar(String.fromCharCode(code), exact);
    const result = token === '' ? 0 : token.codePointAt(0)!;
    table[code] = result;
    return result;
  }
  const token = matchChar(String.fromCodePoint(code), exact);
  return token === '' ? 0 : token.codePointAt(0)!;
}

/** Code units to a string, in slices (a long page would pass the limit of arguments). */
function unitsToString(units: number[]): string {
  let out = '';
  for (let i = 0; i < units.length; i += 8192) out += String.fromCharCode(...units.slice(i, i + 8192));
  return out;
}

function prepare(text: string, exact: boolean): Prepared {
  // Code unit by code unit with a table per mode: this runs over every candidate page of a search.
  const units: number[] = [];
  const at: number[] = [];
  let wide = false;
  let point = 0;
  for (let i = 0; i < text.length; i++, point++) {
    let code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = ((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
        i++;
      }
    }
    const token = tokenCode(code, exact);
    if (token === 0) continue;
    at.push(point);
    if (token > 0xffff) {
      wide = true;
      units.push(0xd800 + ((token - 0x10000) >> 10), 0xdc00 + ((token - 0x10000) & 0x3ff));
    } else units.push(token);
  }
  let unitToken: number[] | null = null;
  if (wide) {
    unitToken = [];
    let t = 0;
    for (let u = 0; u < units.length; u++, t++) {
      unitToken.push(t);
      if (units[u]! >= 0xd800 && units[u]! <= 0xdbff) {
        unitToken.push(t);
        u++;
      }
    }
  }
  return { tokens: unitsToString(units), at, unitToken };
}

/** A match in token positions. */
interface Hit {
  token: number;
  length: number;
}

function find(page: Prepared, term: CompiledTerm): Hit[] {
  const hits: Hit[] = [];
  if (term.length === 0) return hits;
  let from = 0;
  for (;;) {
    const unit = page.tokens.indexOf(term.match, from);
    if (unit < 0) return hits;
    hits.push({ token: page.unitToken ? page.unitToken[unit]! : unit, length: term.length });
    from = unit + term.match.length;
  }
}

/** Characters between two matches (negative when they overlap). */
function gap(a: Hit, b: Hit): number {
  return a.token <= b.token ? b.token - (a.token + a.length) : a.token - (b.token + b.length);
}

/** What one clause matched on the page: the matches counted and those only highlighted; null: not met. */
function clauseHits(page: Prepared, clause: CompiledClause): { counted: Hit[]; shown: Hit[] } | null {
  if (clause.kind === 'not') return find(page, clause.term).length > 0 ? null : { counted: [], shown: [] };
  if (clause.kind === 'any') {
    const counted = clause.terms.flatMap((term) => find(page, term));
    return counted.length > 0 ? { counted, shown: [] } : null;
  }
  const [first, second] = clause.terms;
  const as = find(page, first);
  const bs = first.match === second.match ? as : find(page, second);
  const counted: Hit[] = [];
  const shown = new Set<Hit>();
  for (const a of as) {
    let near = false;
    for (const b of bs) {
      if (b === a || gap(a, b) > clause.distance) continue;
      near = true;
      shown.add(b);
    }
    if (near) counted.push(a);
  }
  return counted.length > 0 ? { counted, shown: [...shown] } : null;
}

/** Whether a page's text meets a query, and with what; null when it does not. */
export function matchPage(text: string, query: CompiledQuery): PageMatch | null {
  if (query.clauses.length === 0) return null;
  const page = prepare(text, query.exact);
  const counted = new Map<string, Hit>();
  const shown = new Map<string, Hit>();
  const key = (h: Hit) => `${h.token}:${h.length}`;
  for (const clause of query.clauses) {
    const hits = clauseHits(page, clause);
    if (!hits) return null;
    for (const hit of hits.counted) counted.set(key(hit), hit);
    for (const hit of hits.shown) shown.set(key(hit), hit);
  }
  for (const [k, hit] of counted) shown.set(k, hit);
  return { occurrences: counted.size, ranges: mergeRanges([...shown.values()].map((h) => toRange(page, h))) };
}

function toRange(page: Prepared, hit: Hit): Range {
  const start = page.at[hit.token]!;
  return { start, length: page.at[hit.token + hit.length - 1]! + 1 - start };
}

/** Ranges in order, those that overlap merged into one. */
export function mergeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start || b.length - a.length);
  const merged: Range[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.start < last.start + last.length) {
      last.length = Math.max(last.length, range.start + range.length - last.start);
    } else merged.push({ ...range });
  }
  return merged;
}
