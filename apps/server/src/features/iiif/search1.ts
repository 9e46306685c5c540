import { boundingBox } from '@guji/shared';
import { canvasUrl, search1Url, xywh, type SearchHit } from './presentation.ts';

/**
 * IIIF Content Search 1.0 documents (issue 31 item 4): the version Mirador 4 and Universal Viewer 4 speak.
 * The same hits as Content Search 2.0 (presentation.ts), in the 1.0 shapes: an `sc:AnnotationList` of
 * `oa:Annotation`s painting the matched text on its canvas, with `search:Hit`s carrying the text before
 * and after; and a `search:TermList` of completions.
 */
const SEARCH1_CONTEXT = [
  'http://iiif.io/api/presentation/2/context.json',
  'http://iiif.io/api/search/1/context.json',
];

export function buildSearch1Response(
  base: string,
  requestUrl: string,
  volumeId: number,
  hits: SearchHit[],
  ignored: string[],
) {
  const service = base + search1Url(volumeId);
  const ids = hits.map((hit, i) => `${service}/hit/${hit.page.id}-${i + 1}`);
  return {
    '@context': SEARCH1_CONTEXT,
    '@id': requestUrl,
    '@type': 'sc:AnnotationList',
    within: { '@type': 'sc:Layer', total: hits.length, ...(ignored.length > 0 ? { ignored } : {}) },
    resources: hits.map((hit, i) => ({
      '@id': ids[i],
      '@type': 'oa:Annotation',
      motivation: 'sc:painting',
      resource: { '@type': 'cnt:ContentAsText', chars: hit.exact },
      on: `${base}${canvasUrl(volumeId, hit.page.id)}#${xywh(boundingBox(hit.boxes))}`,
    })),
    hits: hits.map((hit, i) => ({
      '@type': 'search:Hit',
      annotations: [ids[i]],
      match: hit.exact,
      before: hit.prefix,
      after: hit.suffix,
    })),
  };
}

/** At most this many completions: the characters that follow the query most often. */
const TERMS = 10;

/**
 * Completions of a query from its hits: the query and the character after it, most frequent first (the
 * classical text has no spaces, so a term is the next character, not the next word).
 */
export function buildAutocomplete1(base: string, requestUrl: string, volumeId: number, hits: SearchHit[]) {
  const counts = new Map<string, number>();
  for (const hit of hits) {
    const next = [...hit.suffix][0];
    const term = next && /\p{Script=Han}/u.test(next) ? `${hit.exact}${next}` : hit.exact;
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  const search = base + search1Url(volumeId);
  return {
    '@context': 'http://iiif.io/api/search/1/context.json',
    '@id': requestUrl,
    '@type': 'search:TermList',
    terms: [...counts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, TERMS)
      .map(([match, count]) => ({ match, url: `${search}?q=${encodeURIComponent(match)}`, count })),
  };
}
