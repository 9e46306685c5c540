import type { QueryClient } from '@tanstack/react-query';
import { imageInfoQuery, readerQuery } from './queries.ts';
import { parseReaderParams } from '../../lib/reader-url.ts';

/**
 * The reader's lazy chunk (it carries OpenSeadragon). App.tsx loads it for /Book; the book page starts
 * it early, so opening a page waits only for the reader's data.
 */
export const loadReaderPage = () => import('./pages/reader-page.tsx');

/** Starts loading the reader chunk when the browser is idle. */
export function preloadReader(): void {
  const start = () => void loadReaderPage().catch(() => undefined);
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(start, { timeout: 3000 });
  else window.setTimeout(start, 1000);
}

/**
 * A /Book address opened directly (a link, a reload): the reader's chunk, its volume data and the
 * page's info.json are asked for at once, while the application is still starting, instead of one
 * after the other as the screens render (DESIGN.md §11: first page visible within 1 s). Failures are
 * left to the screens, which ask again and word them.
 */
export function startReaderEarly(queryClient: QueryClient, location: Location): void {
  if (location.pathname !== '/Book') return;
  const { catalogId, fascicleId, imageId } = parseReaderParams(new URLSearchParams(location.search));
  if (catalogId == null) return;
  void loadReaderPage().catch(() => undefined);
  void queryClient.prefetchQuery(readerQuery(queryClient, catalogId, fascicleId));
  if (imageId != null) void queryClient.prefetchQuery(imageInfoQuery(`/iiif/3/${imageId}`));
}
