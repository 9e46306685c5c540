import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { setUnauthorizedHandler } from '../../../api/client.ts';
import { loginPathFor, signedOutAction } from '../auth-redirect.ts';
import { clearSession } from '../queries.ts';

/**
 * What an ended session does (spec §8): forget the user, then go home with a reload from personal,
 * payment and order pages, or to /Login from anywhere else.
 */
export function SignedOutHandler() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  useEffect(() => {
    setUnauthorizedHandler(() => {
      clearSession(queryClient);
      const { pathname, search } = window.location;
      switch (signedOutAction(pathname)) {
        case 'home-reload':
          window.location.assign('/');
          break;
        case 'login':
          void navigate(loginPathFor(pathname + search));
          break;
        case 'stay':
          break;
      }
    });
    return () => setUnauthorizedHandler(() => undefined);
  }, [queryClient, navigate]);

  return null;
}
