import type { ParsedQuery } from '@guji/shared';
import { foldChar, isTokenChar } from './fold.ts';
import { tokenChars } from './text-index.ts';

/**
 * A parsed full-text query (packages/shared search-query.ts) made ready to match: each term as the
 * characters the page text is compared with — folded (简繁 and variants alike, the default) or exactly
 * as typed (精确字形) — and as the folded characters the index finds candidate pages by. Folding maps
 * one character to one, so a page that holds a term exactly holds it folded too: the index's
 * candidates are never fewer than the pages that match exactly.
 */
export interface CompiledTerm {
  /** The token characters compared with the page's, one code point each, joined. */
  match: string;
  /** How many characters `match` has. */
  length: number;
  /** The folded token characters, for the index. */
  index: string[];
}

export type CompiledClause =
  | { kind: 'any'; terms: CompiledTerm[] }
  | { kind: 'near'; terms: [CompiledTerm, CompiledTerm]; distance: number }
  | { kind: 'not'; term: CompiledTerm };

export interface CompiledQuery {
  clauses: CompiledClause[];
  /** Characters compared as typed (no folding). */
  exact: boolean;
}

const seen = { folded: new Map<string, string>(), exact: new Map<string, string>() };

/** One character of a text or a term as matching sees it: its token form, or '' for punctuation and spaces. */
export function matchChar(char: string, exact: boolean): string {
  const cache = exact ? seen.exact : seen.folded;
  let result = cache.get(char);
  if (result === undefined) {
    const form = exact ? char : foldChar(char);
    result = isTokenChar(form) ? form : '';
    cache.set(char, result);
  }
  return result;
}

function compileTerm(text: string, exact: boolean): CompiledTerm {
  const chars = [...text].map((c) => matchChar(c, exact)).filter((c) => c !== '');
  return { match: chars.join(''), length: chars.length, index: tokenChars(text) };
}

export function compileQuery(query: ParsedQuery, exact: boolean): CompiledQuery {
  return {
    exact,
    clauses: query.clauses.map((clause): CompiledClause => {
      if (clause.kind === 'any')
        return { kind: 'any', terms: clause.terms.map((t) => compileTerm(t, exact)) };
      if (clause.kind === 'not') return { kind: 'not', term: compileTerm(clause.term, exact) };
      return {
        kind: 'near',
        distance: clause.distance,
        terms: [compileTerm(clause.terms[0], exact), compileTerm(clause.terms[1], exact)],
      };
    }),
  };
}

/** A key naming what a compiled query matches (for caching its pages). */
export function queryKey(query: CompiledQuery): string {
  return JSON.stringify([
    query.exact,
    query.clauses.map((c) =>
      c.kind === 'any'
        ? ['any', c.terms.map((t) => t.match)]
        : c.kind === 'not'
          ? ['not', c.term.match]
          : ['near', c.terms[0].match, c.terms[1].match, c.distance],
    ),
  ]);
}
