/** What the application's shell (App.tsx) takes from the account feature: its pages, loaded on first visit, and the guards. */
import { lazy } from 'react';
export { RequireLogin } from './components/require-login.tsx';
export { SignedOutHandler } from './components/signed-out-handler.tsx';
export { SsoHandler } from './components/sso-handler.tsx';

export const LoginPage = lazy(() => import('./pages/login-page.tsx').then((m) => ({ default: m.LoginPage })));
export const IiifLoginPage = lazy(() =>
  import('./pages/iiif-login-page.tsx').then((m) => ({ default: m.IiifLoginPage })),
);
export const RegisterPage = lazy(() =>
  import('./pages/register-page.tsx').then((m) => ({ default: m.RegisterPage })),
);
export const ForgetPage = lazy(() =>
  import('./pages/forget-page.tsx').then((m) => ({ default: m.ForgetPage })),
);
export const PersonalPage = lazy(() =>
  import('./pages/personal-page.tsx').then((m) => ({ default: m.PersonalPage })),
);
