import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSiteSettings } from '../../../api/site.ts';

/** The centred card of the login, registration and recovery pages. */
export function AuthCard({ title, children, wide }: { title: string; children: ReactNode; wide?: boolean }) {
  const siteName = useSiteSettings().data?.siteName;
  return (
    <div className="auth-page">
      <div className={wide ? 'auth-card auth-card-wide' : 'auth-card'}>
        {siteName && (
          <Link to="/" className="auth-brand">
            {siteName}
          </Link>
        )}
        <h1 className="auth-title">{title}</h1>
        {children}
      </div>
    </div>
  );
}
