import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { loginPathFor } from '../auth-redirect.ts';
import { useSession } from '../queries.ts';
import { PageLoading } from '../../../components/page-loading.tsx';

/**
 * Shows its children only to a signed-in user; others go to /Login, which returns here afterwards.
 * When the user signs out while here, whoever signed them out navigates, so this renders nothing.
 */
export function RequireLogin({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const user = session.data?.user;
  const wasSignedIn = useRef(false);

  useEffect(() => {
    if (user) wasSignedIn.current = true;
  }, [user]);

  if (session.isPending) {
    return <PageLoading />;
  }
  if (!user) {
    if (wasSignedIn.current) return null;
    return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  }
  return children;
}
