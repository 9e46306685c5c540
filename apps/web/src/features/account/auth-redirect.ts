/** Where a signed-out user goes, and where a sign-in may return to (spec §8). */

/** Pages that hold personal data or a payment: an ended session there goes home with a reload. */
const RELOAD_HOME_PREFIXES = ['/personalpage', '/paymentsucceeded', '/order'];

function hasPrefix(pathname: string, prefix: string): boolean {
  const lower = pathname.toLowerCase();
  return lower === prefix || lower.startsWith(`${prefix}/`) || lower.startsWith(`${prefix}?`);
}

export type SignedOutAction = 'home-reload' | 'login' | 'stay';

/**
 * What to do when a call finds the session ended: personal, payment-succeeded and order pages go
 * home and reload; other pages go to /Login, unless already there.
 */
export function signedOutAction(pathname: string): SignedOutAction {
  if (RELOAD_HOME_PREFIXES.some((prefix) => hasPrefix(pathname, prefix))) return 'home-reload';
  if (hasPrefix(pathname, '/login')) return 'stay';
  return 'login';
}

/**
 * The in-app path a `redirect` query parameter asks to return to, or '/' when it is missing or could
 * leave the site (absolute URLs, protocol-relative `//host`, backslashes, control characters).
 */
export function safeRedirect(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return '/';
  // Tabs, line breaks and other control characters or spaces: a browser drops some of them from a URL
  // (`/\t/host` becomes `//host`), and the router cannot take them.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u001f\u007f\s]/u.test(raw)) return '/';
  if (/^\/(login|register)(\/|\?|$)/i.test(raw)) return '/';
  return raw;
}

/** The /Login address that returns to `path` after signing in. */
export function loginPathFor(path: string): string {
  return path === '/' ? '/Login' : `/Login?redirect=${encodeURIComponent(path)}`;
}
