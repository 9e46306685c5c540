import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * The server writes citation tags (`citation_*`, `DC.*`, links to the exports, marked `data-citation`)
 * into the head of a book's page and the reader for the address the page was loaded at. Zotero reads
 * the live page, so once the app has moved to another book or page they would cite the wrong thing:
 * they go then.
 */
export function dropCitationTags(doc: Document): void {
  for (const tag of doc.head.querySelectorAll('[data-citation]')) tag.remove();
}

/**
 * Drops the served citation tags when the app leaves what this screen cites: `cited` names it (a book's
 * id on its page, the address in the reader), so choosing a volume on the book's page keeps them, while
 * another book, another page of the reader or another screen drops them. A re-run while the address
 * stays (React's strict mode) keeps them.
 */
export function useCitationTags(cited: string): void {
  const location = useLocation();
  const here = location.pathname + location.search;
  const hereRef = useRef(here);
  useEffect(() => {
    hereRef.current = here;
  });
  useEffect(() => {
    // The address when this citation was shown (the effect above has run, in order).
    const shown = hereRef.current;
    return () => {
      if (window.location.pathname + window.location.search !== shown) dropCitationTags(document);
    };
  }, [cited]);
}
