import { useEffect } from 'react';
import { useSiteSettings } from '../api/site.ts';

const FALLBACK_SITE_NAME = '古籍数字图书馆';

/** Sets the window title to "page - site name" (WCAG 2.4.2), or the site name alone. */
export function useDocumentTitle(page?: string): void {
  const siteName = useSiteSettings().data?.siteName || FALLBACK_SITE_NAME;
  useEffect(() => {
    document.title = page ? `${page} - ${siteName}` : siteName;
  }, [page, siteName]);
}
