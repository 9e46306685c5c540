import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { readSsoLink } from '../sso.ts';
import { acceptSignIn, useSsoLogin } from '../queries.ts';

/** Signatures already sent, so a link signs in once even if effects run twice. */
const sentSignatures = new Set<string>();

/**
 * Signs in from a signed single-sign-on link on any page (DESIGN.md §8): sends the five parameters to
 * /api/auth/sso once, then takes them out of the address bar.
 */
export function SsoHandler() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { mutate } = useSsoLogin();

  useEffect(() => {
    const link = readSsoLink(location.search);
    if (!link || sentSignatures.has(link.request.signature)) return;
    sentSignatures.add(link.request.signature);
    mutate(link.request, { onSuccess: (result) => acceptSignIn(queryClient, result.user) });
    void navigate(
      { pathname: location.pathname, search: link.remainingSearch, hash: location.hash },
      { replace: true },
    );
  }, [location, navigate, mutate, queryClient]);

  return null;
}
