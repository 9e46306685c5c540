/** What the application's shell takes from the catalogue: its pages (loaded on first visit) and what the home page shows. */
import { lazy } from 'react';
export { BookCard } from './components/book-card.tsx';
export { excerpt, searchPath } from './search-params.ts';

export const SearchPage = lazy(() =>
  import('./pages/search-page.tsx').then((m) => ({ default: m.SearchPage })),
);
export const AdvancedSearchPage = lazy(() =>
  import('./pages/advanced-search-page.tsx').then((m) => ({ default: m.AdvancedSearchPage })),
);
export const BookDetailPage = lazy(() =>
  import('./pages/book-detail-page.tsx').then((m) => ({ default: m.BookDetailPage })),
);
