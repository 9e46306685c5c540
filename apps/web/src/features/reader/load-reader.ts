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
