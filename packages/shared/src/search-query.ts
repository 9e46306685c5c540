/**
 * The query syntax of full-text search (issue 16 part 13), parsed once here for the server (which
 * matches it) and the web app (which checks it before searching and explains it):
 *
 * - `子曰 學而` or `子曰 AND 學而`: terms separated by spaces must all be on the page (AND);
 * - `"學而時習"` or `“學而時習”`: a phrase, one term; spaces and punctuation inside it are ignored,
 *   like everywhere in matching (the page text is matched without its punctuation);
 * - `子曰 OR 孟子`, `子曰 | 孟子`: either term (OR binds tighter than AND: `甲 乙 OR 丙` is 甲 and
 *   one of 乙, 丙);
 * - `-曾子`, `NOT 曾子`: pages without the term; a query of only such terms is refused;
 * - `子曰 NEAR/10 學`: both terms on the page with at most 10 characters between them (1–100);
 * - a single bare term is a phrase, as it always was.
 *
 * Operators are upper-case words (AND, OR, NOT, NEAR/n) standing alone; `|` and `-` need no spaces.
 * A term with no letter or digit (only punctuation) is left out.
 */

/** Validation messages of the query syntax (Chinese, shown as they are). */
export const QUERY_MSG = {
  onlyExcluded: '检索式不能只有排除词（NOT 或 -），请至少输入一个要查找的词',
  unpairedQuote: '检索式中的引号不成对',
  orOperands: 'OR 两侧都须有检索词',
  notOperand: 'NOT 或 - 之后须有检索词',
  nearOperands: 'NEAR 须连接两个检索词，如：子曰 NEAR/10 學',
  nearDistance: 'NEAR 的距离须为 1 到 100 之间的整数，如 NEAR/10',
  notCombined: '排除词（NOT 或 -）不能与 OR 或 NEAR 连用',
} as const;

/** The largest distance of NEAR/n. */
export const NEAR_MAX = 100;

/** One condition of a query; a page matches when it meets every condition. */
export type QueryClause =
  /** One of the terms (a single term: that term). */
  | { kind: 'any'; terms: string[] }
  /** Both terms, at most `distance` characters apart. */
  | { kind: 'near'; terms: [string, string]; distance: number }
  /** Not the term. */
  | { kind: 'not'; term: string };

export interface ParsedQuery {
  clauses: QueryClause[];
}

export type ParseResult = { ok: true; query: ParsedQuery } | { ok: false; message: string };

type Token =
  | { type: 'term'; text: string }
  | { type: 'or' }
  | { type: 'not' }
  | { type: 'near'; distance: number | null };

const QUOTES: Record<string, string> = { '"': '"', '“': '”', '＂': '＂' };
const BARS = new Set(['|', '｜']);
const DASHES = new Set(['-', '－']);

/** Whether a term has something to match (a letter or a digit of any script). */
export function hasTermChars(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

function lex(text: string): Token[] | string {
  const tokens: Token[] = [];
  const chars = [...text];
  let word = '';
  const flush = () => {
    if (word === '') return;
    const current = word;
    word = '';
    // AND says what a space already says (issue 32: `君子 AND 小人` found nothing, AND read as a word).
    if (current === 'AND') return;
    if (current === 'OR') tokens.push({ type: 'or' });
    else if (current === 'NOT') tokens.push({ type: 'not' });
    else if (current === 'NEAR' || current.startsWith('NEAR/')) {
      const m = /^NEAR\/(\d{1,3})$/.exec(current);
      const distance = m ? Number(m[1]) : null;
      tokens.push({ type: 'near', distance: distance !== null && distance >= 1 ? distance : null });
    } else if (DASHES.has([...current][0]!)) {
      tokens.push({ type: 'not' });
      const rest = [...current].slice(1).join('');
      if (rest !== '') tokens.push({ type: 'term', text: rest });
    } else tokens.push({ type: 'term', text: current });
  };
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    const close = QUOTES[char];
    if (close !== undefined) {
      // A quote opens a phrase only at the start of a word (or after a leading minus).
      const end = chars.indexOf(close, i + 1);
      if (end < 0) return QUERY_MSG.unpairedQuote;
      const phrase = chars.slice(i + 1, end).join('');
      if (word !== '' && !(word.length === 1 && DASHES.has(word))) flush();
      if (word !== '') {
        word = '';
        tokens.push({ type: 'not' });
      }
      tokens.push({ type: 'term', text: phrase });
      i = end;
      continue;
    }
    if (char === '”') return QUERY_MSG.unpairedQuote;
    if (/\s/u.test(char)) {
      flush();
      continue;
    }
    if (BARS.has(char)) {
      flush();
      tokens.push({ type: 'or' });
      continue;
    }
    word += char;
  }
  flush();
  return tokens;
}

/** Parses a full-text query; the message says what is wrong with one that cannot be searched. */
export function parseSearchQuery(text: string): ParseResult {
  const lexed = lex(text);
  if (typeof lexed === 'string') return { ok: false, message: lexed };
  // Terms of punctuation alone match nothing and are left out (with a NOT before them).
  const tokens: Token[] = [];
  for (const token of lexed) {
    if (token.type === 'term' && !hasTermChars(token.text)) {
      if (tokens.at(-1)?.type === 'not') tokens.pop();
      continue;
    }
    tokens.push(token);
  }
  const clauses: QueryClause[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === 'or') return { ok: false, message: QUERY_MSG.orOperands };
    if (token.type === 'near') {
      return {
        ok: false,
        message: token.distance === null ? QUERY_MSG.nearDistance : QUERY_MSG.nearOperands,
      };
    }
    if (token.type === 'not') {
      const next = tokens[i + 1];
      if (next?.type !== 'term') return { ok: false, message: QUERY_MSG.notOperand };
      const after = tokens[i + 2]?.type;
      if (after === 'or' || after === 'near') return { ok: false, message: QUERY_MSG.notCombined };
      clauses.push({ kind: 'not', term: next.text });
      i++;
      continue;
    }
    const next = tokens[i + 1];
    if (next?.type === 'near') {
      const other = tokens[i + 2];
      if (next.distance === null || next.distance > NEAR_MAX)
        return { ok: false, message: QUERY_MSG.nearDistance };
      if (other?.type === 'not') return { ok: false, message: QUERY_MSG.notCombined };
      if (other?.type !== 'term') return { ok: false, message: QUERY_MSG.nearOperands };
      const after = tokens[i + 3]?.type;
      if (after === 'near' || after === 'or') return { ok: false, message: QUERY_MSG.nearOperands };
      clauses.push({ kind: 'near', terms: [token.text, other.text], distance: next.distance });
      i += 2;
      continue;
    }
    const terms = [token.text];
    while (tokens[i + 1]?.type === 'or') {
      const other = tokens[i + 2];
      if (other?.type === 'not') return { ok: false, message: QUERY_MSG.notCombined };
      if (other?.type !== 'term') return { ok: false, message: QUERY_MSG.orOperands };
      if (tokens[i + 3]?.type === 'near') return { ok: false, message: QUERY_MSG.nearOperands };
      terms.push(other.text);
      i += 2;
    }
    clauses.push({ kind: 'any', terms });
  }
  if (clauses.length > 0 && clauses.every((c) => c.kind === 'not'))
    return { ok: false, message: QUERY_MSG.onlyExcluded };
  return { ok: true, query: { clauses } };
}

/** The terms a query looks for (not those it excludes), in the order typed. */
export function positiveTerms(query: ParsedQuery): string[] {
  return query.clauses.flatMap((c) => (c.kind === 'any' ? c.terms : c.kind === 'near' ? c.terms : []));
}

/** Whether a query is one bare term (a phrase): searched exactly as before the syntax existed. */
export function isSingleTerm(query: ParsedQuery): boolean {
  return (
    query.clauses.length === 1 && query.clauses[0]!.kind === 'any' && query.clauses[0]!.terms.length === 1
  );
}
