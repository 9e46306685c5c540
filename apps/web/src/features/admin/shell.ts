/** The administration console for the application's shell: loaded only when an administrator opens it. */
import { lazy } from 'react';

export const AdminPage = lazy(() => import('./pages/admin-page.tsx').then((m) => ({ default: m.AdminPage })));
