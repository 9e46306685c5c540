import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { AppFooter } from './app-footer.tsx';
import { AppHeader } from './app-header.tsx';
import { ErrorBoundary } from './error-boundary.tsx';
import { PageLoading } from './page-loading.tsx';

/** The page frame: header (hidden on /Login and /Register), the page, and the footer. */
export function SiteLayout({ header = true }: { header?: boolean }) {
  const location = useLocation();
  return (
    <div className="site">
      <a className="skip-link" href="#main">
        跳到主要内容
      </a>
      {header && <AppHeader />}
      <main id="main" className="site-main" tabIndex={-1}>
        <ErrorBoundary resetKey={location.pathname + location.search}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <AppFooter />
    </div>
  );
}
