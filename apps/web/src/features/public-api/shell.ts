/** The public API's page for the application's shell (loaded on first visit). */
import { lazy } from 'react';

export const PublicApiPage = lazy(() =>
  import('./pages/public-api-page.tsx').then((m) => ({ default: m.PublicApiPage })),
);
