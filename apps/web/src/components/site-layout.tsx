import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { AppFooter } from './app-footer.tsx';
import { AppHeader } from './app-header.tsx';
import { ErrorBoundary } from './error-boundary.tsx';
import { PageLoading } from './page-loading.tsx';

export interface SiteLayoutProps {
  /** Hidden on /Login and /Register. */
  header?: boolean;
  /**
   * 'app' fills the window below the header and has no footer, for the reader, whose page image
   * takes all the room left.
   */
  variant?: 'page' | 'app';
}

/** The page frame: header, the page, and the footer. */
export function SiteLayout({ header = true, variant = 'page' }: SiteLayoutProps) {
  const location = useLocation();
  return (
    <div className={variant === 'app' ? 'site site-app' : 'site'}>
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
      {variant === 'page' && <AppFooter />}
    </div>
  );
}
