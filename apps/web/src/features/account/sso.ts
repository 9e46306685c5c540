import type { SsoRequest } from '@guji/shared';

/** Query parameters of a signed single-sign-on link (DESIGN.md §8). */
export const SSO_PARAMS = ['loginName', 'phoneNum', 'expires', 'nonce', 'signature'] as const;

/** Never used, but removed from the address bar so a password does not stay in the history. */
const IGNORED_PARAMS = ['loginPassword'];

export interface SsoLink {
  request: SsoRequest;
  /** The query string without the sign-on parameters ('' or starting with '?'). */
  remainingSearch: string;
}

/** The sign-on request a URL's query carries, when it has all five parameters; otherwise null. */
export function readSsoLink(search: string): SsoLink | null {
  const params = new URLSearchParams(search);
  const values = SSO_PARAMS.map((name) => params.get(name));
  const [loginName, phoneNum, expires, nonce, signature] = values;
  if (!loginName || !phoneNum || !expires || !nonce || !signature) return null;
  for (const name of [...SSO_PARAMS, ...IGNORED_PARAMS]) params.delete(name);
  const rest = params.toString();
  return {
    request: { loginName, phoneNum, expires: Number(expires), nonce, signature },
    remainingSearch: rest ? `?${rest}` : '',
  };
}
