/** A reader's own books: the pages for the application's shell (loaded on first visit). */
import { lazy } from 'react';

export const OwnBooksPage = lazy(() =>
  import('./pages/own-books-page.tsx').then((m) => ({ default: m.OwnBooksPage })),
);
export const PagesPage = lazy(() => import('./pages/pages-page.tsx').then((m) => ({ default: m.PagesPage })));
export const SinglesPage = lazy(() =>
  import('./pages/singles-page.tsx').then((m) => ({ default: m.SinglesPage })),
);
export const VolumesPage = lazy(() =>
  import('./pages/volumes-page.tsx').then((m) => ({ default: m.VolumesPage })),
);
