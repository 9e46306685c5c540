import { lazy, Suspense } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { ErrorBoundary } from './components/error-boundary.tsx';
import { NotFoundPage } from './components/not-found-page.tsx';
import { SiteLayout } from './components/site-layout.tsx';
import { ToastBridge } from './components/toast-bridge.tsx';
import { PageLoading } from './components/page-loading.tsx';
import { RequireLogin } from './features/account/components/require-login.tsx';
import { SignedOutHandler } from './features/account/components/signed-out-handler.tsx';
import { SsoHandler } from './features/account/components/sso-handler.tsx';
import { LanguageProvider } from './features/language/language-provider.tsx';
import { loadReaderPage, startReaderEarly } from './features/reader/load-reader.ts';
import { sessionQuery } from './features/account/queries.ts';
import { siteQuery } from './api/site.ts';
import { HomePage } from './pages/home-page.tsx';
import { theme } from './theme.ts';
import { PUBLIC_API_PAGE } from '@guji/shared';

// Screens with forms load on first visit, keeping the home page's script small.
const LoginPage = lazy(() =>
  import('./features/account/pages/login-page.tsx').then((m) => ({ default: m.LoginPage })),
);
const IiifLoginPage = lazy(() =>
  import('./features/account/pages/iiif-login-page.tsx').then((m) => ({ default: m.IiifLoginPage })),
);
const RegisterPage = lazy(() =>
  import('./features/account/pages/register-page.tsx').then((m) => ({ default: m.RegisterPage })),
);
const ForgetPage = lazy(() =>
  import('./features/account/pages/forget-page.tsx').then((m) => ({ default: m.ForgetPage })),
);
const PersonalPage = lazy(() =>
  import('./features/account/pages/personal-page.tsx').then((m) => ({ default: m.PersonalPage })),
);
const SearchPage = lazy(() =>
  import('./features/catalog/pages/search-page.tsx').then((m) => ({ default: m.SearchPage })),
);
const AdvancedSearchPage = lazy(() =>
  import('./features/catalog/pages/advanced-search-page.tsx').then((m) => ({
    default: m.AdvancedSearchPage,
  })),
);
const OcrPage = lazy(() => import('./features/ocr/pages/ocr-page.tsx').then((m) => ({ default: m.OcrPage })));
const BookDetailPage = lazy(() =>
  import('./features/catalog/pages/book-detail-page.tsx').then((m) => ({ default: m.BookDetailPage })),
);
// The reader carries OpenSeadragon; the book page preloads it (load-reader.ts).
const ReaderPage = lazy(() => loadReaderPage().then((m) => ({ default: m.ReaderPage })));
const MobileSuccessPage = lazy(() =>
  import('./features/payment/pages/mobile-success-page.tsx').then((m) => ({ default: m.MobileSuccessPage })),
);
const SandboxPayPage = lazy(() =>
  import('./features/print/pages/sandbox-pay-page.tsx').then((m) => ({ default: m.SandboxPayPage })),
);
const PaymentSucceededPage = lazy(() =>
  import('./features/print/pages/order-page.tsx').then((m) => ({ default: m.PaymentSucceededPage })),
);
const OrderPage = lazy(() =>
  import('./features/print/pages/order-page.tsx').then((m) => ({ default: m.OrderPage })),
);
const OwnBooksPage = lazy(() =>
  import('./features/own/pages/own-books-page.tsx').then((m) => ({ default: m.OwnBooksPage })),
);
const PagesPage = lazy(() =>
  import('./features/own/pages/pages-page.tsx').then((m) => ({ default: m.PagesPage })),
);
const SinglesPage = lazy(() =>
  import('./features/own/pages/singles-page.tsx').then((m) => ({ default: m.SinglesPage })),
);
// The administration console is loaded only when an administrator opens it.
const AdminPage = lazy(() =>
  import('./features/admin/pages/admin-page.tsx').then((m) => ({ default: m.AdminPage })),
);
const VolumesPage = lazy(() =>
  import('./features/own/pages/volumes-page.tsx').then((m) => ({ default: m.VolumesPage })),
);
const PublicApiPage = lazy(() =>
  import('./features/public-api/pages/public-api-page.tsx').then((m) => ({ default: m.PublicApiPage })),
);
const MobileErrorPage = lazy(() =>
  import('./features/payment/pages/mobile-error-page.tsx').then((m) => ({ default: m.MobileErrorPage })),
);

const queryClient = new QueryClient({
  defaultOptions: {
    // The client already shows every failure; a retry would show it again.
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
// Every screen needs the site texts and the session: ask at once, not when the first render gets there.
void queryClient.prefetchQuery(siteQuery);
void queryClient.prefetchQuery(sessionQuery);
startReaderEarly(queryClient, window.location);

/** Toasts go into a labelled landmark of index.html, so every piece of the page sits in one. */
function toastContainer(): HTMLElement {
  return document.getElementById('toasts') ?? document.body;
}

/** Routes of spec §2 that this build implements; anything else is a 404 page. */
function AppRoutes() {
  const location = useLocation();
  // Spec §2: paths containing /service render nothing at all.
  if (location.pathname.includes('/service')) return null;
  return (
    <ErrorBoundary resetKey={location.pathname + location.search} landmark>
      <SignedOutHandler />
      <SsoHandler />
      <Suspense fallback={<PageLoading />}>
        <Routes>
          <Route path="/MobileSuccess" element={<MobileSuccessPage />} />
          <Route path="/MobileError" element={<MobileErrorPage />} />
          <Route path="/SandboxPay/:tradeNo" element={<SandboxPayPage />} />
          <Route element={<SiteLayout header={false} />}>
            <Route path="/Login" element={<LoginPage />} />
            <Route path="/Register" element={<RegisterPage />} />
            <Route path="/IiifLogin" element={<IiifLoginPage />} />
          </Route>
          <Route element={<SiteLayout variant="app" />}>
            <Route path="/Book" element={<ReaderPage />} />
          </Route>
          <Route element={<SiteLayout />}>
            <Route path="/" element={<HomePage />} />
            <Route path="/home" element={<HomePage />} />
            <Route path="/SearchPage" element={<SearchPage />} />
            <Route path="/AdvancedSearch" element={<AdvancedSearchPage />} />
            <Route path="/OCRPage" element={<OcrPage />} />
            <Route path="/SearchPage/:catalogId" element={<BookDetailPage />} />
            <Route path="/Forget" element={<ForgetPage />} />
            <Route path={PUBLIC_API_PAGE} element={<PublicApiPage />} />
            <Route
              path="/PersonalPage"
              element={
                <RequireLogin>
                  <PersonalPage />
                </RequireLogin>
              }
            />
            <Route
              path="/PersonalPage/:channel"
              element={
                <RequireLogin>
                  <PersonalPage />
                </RequireLogin>
              }
            />
            <Route
              path="/PaymentSucceeded"
              element={
                <RequireLogin>
                  <PaymentSucceededPage />
                </RequireLogin>
              }
            />
            <Route
              path="/Order/:orderNum"
              element={
                <RequireLogin>
                  <OrderPage />
                </RequireLogin>
              }
            />
            <Route path="/OCRAside" element={<Navigate to="/OCRAside/HholeBook" replace />} />
            <Route
              path="/OCRAside/HholeBook"
              element={
                <RequireLogin>
                  <OwnBooksPage />
                </RequireLogin>
              }
            />
            <Route
              path="/OCRAside/Single"
              element={
                <RequireLogin>
                  <SinglesPage />
                </RequireLogin>
              }
            />
            <Route
              path="/FenCe/:catalogId"
              element={
                <RequireLogin>
                  <VolumesPage />
                </RequireLogin>
              }
            />
            <Route
              path="/FenCe/:catalogId/:fascicleId"
              element={
                <RequireLogin>
                  <PagesPage />
                </RequireLogin>
              }
            />
            <Route
              path="/Admin"
              element={
                <RequireLogin>
                  <AdminPage />
                </RequireLogin>
              }
            />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </Suspense>
    </ErrorBoundary>
  );
}

export function App() {
  return (
    <ConfigProvider locale={zhCN} theme={theme} button={{ autoInsertSpace: false }}>
      <AntApp message={{ maxCount: 1, getContainer: toastContainer }}>
        <ToastBridge />
        <QueryClientProvider client={queryClient}>
          <LanguageProvider>
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
          </LanguageProvider>
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
