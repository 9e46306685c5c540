import { Suspense } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { ErrorBoundary } from './components/error-boundary.tsx';
import { NotFoundPage } from './components/not-found-page.tsx';
import { SiteLayout } from './components/site-layout.tsx';
import { ToastBridge } from './components/toast-bridge.tsx';
import { PageLoading } from './components/page-loading.tsx';
import { sessionQuery } from './features/account/queries.ts';
import { siteQuery } from './api/site.ts';
import { HomePage } from './pages/home-page.tsx';
// Each feature's pages load on first visit (its shell.ts), keeping the home page's script small.
import {
  ForgetPage,
  IiifLoginPage,
  LoginPage,
  PersonalPage,
  RegisterPage,
  RequireLogin,
  SignedOutHandler,
  SsoHandler,
} from './features/account/shell.ts';
import { AdminPage } from './features/admin/shell.ts';
import { AdvancedSearchPage, BookDetailPage, SearchPage } from './features/catalog/shell.ts';
import { LanguageProvider } from './features/language/shell.ts';
import { OcrPage } from './features/ocr/shell.ts';
import { OwnBooksPage, PagesPage, SinglesPage, VolumesPage } from './features/own/shell.ts';
import { MobileErrorPage, MobileSuccessPage } from './features/payment/shell.ts';
import { OrderPage, PaymentSucceededPage, SandboxPayPage } from './features/print/shell.ts';
import { PublicApiPage } from './features/public-api/shell.ts';
import { ReaderPage, startReaderEarly } from './features/reader/shell.ts';
import { theme } from './theme.ts';
import { usePrefersReducedMotion } from './components/use-reduced-motion.ts';
import { PUBLIC_API_PAGE } from '@guji/shared';

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

/** Pages outside the site layout: the payment returns and sandbox, the header-less account forms, the reader. */
function standaloneRoutes() {
  return (
    <>
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
    </>
  );
}

/** The public catalogue: home, search, a book's page, OCR, password recovery and the API notes. */
function catalogueRoutes() {
  return (
    <>
      <Route path="/" element={<HomePage />} />
      <Route path="/home" element={<HomePage />} />
      <Route path="/SearchPage" element={<SearchPage />} />
      <Route path="/AdvancedSearch" element={<AdvancedSearchPage />} />
      <Route path="/OCRPage" element={<OcrPage />} />
      <Route path="/SearchPage/:catalogId" element={<BookDetailPage />} />
      <Route path="/Forget" element={<ForgetPage />} />
      <Route path={PUBLIC_API_PAGE} element={<PublicApiPage />} />
    </>
  );
}

/** The personal area (signed in): the reader's channels, and the print orders with their payment. */
function personalRoutes() {
  return (
    <>
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
    </>
  );
}

/** The reader's own books (signed in): whole books, single images, a book's volumes, a volume's pages. */
function ownBookRoutes() {
  return (
    <>
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
    </>
  );
}

/** The console (signed in; the page itself checks the role). */
function consoleRoutes() {
  return (
    <Route
      path="/Admin"
      element={
        <RequireLogin>
          <AdminPage />
        </RequireLogin>
      }
    />
  );
}

/**
 * Routes of spec §2 that this build implements; anything else is a 404 page. The route groups are
 * plain functions, not components: `<Routes>` reads its `<Route>` children (fragments included) directly.
 */
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
          {standaloneRoutes()}
          <Route element={<SiteLayout />}>
            {catalogueRoutes()}
            {personalRoutes()}
            {ownBookRoutes()}
            {consoleRoutes()}
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </Suspense>
    </ErrorBoundary>
  );
}

/** Without motion when the person's system asks for less (WCAG 2.3.3). */
const stillTheme = { ...theme, token: { ...theme.token, motion: false } };

export function App() {
  const reducedMotion = usePrefersReducedMotion();
  return (
    <ConfigProvider
      locale={zhCN}
      theme={reducedMotion ? stillTheme : theme}
      button={{ autoInsertSpace: false }}
    >
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
