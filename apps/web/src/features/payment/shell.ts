/** The phone payment pages for the application's shell (loaded on first visit). */
import { lazy } from 'react';

export const MobileSuccessPage = lazy(() =>
  import('./pages/mobile-success-page.tsx').then((m) => ({ default: m.MobileSuccessPage })),
);
export const MobileErrorPage = lazy(() =>
  import('./pages/mobile-error-page.tsx').then((m) => ({ default: m.MobileErrorPage })),
);
