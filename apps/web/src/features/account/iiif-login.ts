/**
 * Where the login window of an outside IIIF viewer goes after signing in: only a IIIF login service
 * path of this site (`/iiif/auth/books/{id}/login…`); anything else (other sites, other pages) is none.
 */
export function iiifLoginTarget(next: string | null | undefined): string | undefined {
  if (!next || next.includes('\\') || next.length > 2000) return undefined;
  return /^\/iiif\/auth\/books\/[1-9]\d{0,15}\/login(\?[^#]*)?$/.test(next) ? next : undefined;
}
