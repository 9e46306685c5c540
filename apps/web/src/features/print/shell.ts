/** The print feature's pages for the application's shell (loaded on first visit). */
import { lazy } from 'react';

export const SandboxPayPage = lazy(() =>
  import('./pages/sandbox-pay-page.tsx').then((m) => ({ default: m.SandboxPayPage })),
);
export const PaymentSucceededPage = lazy(() =>
  import('./pages/order-page.tsx').then((m) => ({ default: m.PaymentSucceededPage })),
);
export const OrderPage = lazy(() => import('./pages/order-page.tsx').then((m) => ({ default: m.OrderPage })));
