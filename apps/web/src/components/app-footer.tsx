import { Link } from 'react-router';
import { PUBLIC_API_PAGE } from '@guji/shared';
import { useSiteSettings } from '../api/site.ts';

/** The footer: copyright line, filing number and funding note (spec §1). */
export function AppFooter() {
  const site = useSiteSettings().data;
  // Researchers find the public data API from every page.
  const apiLink = (
    <p>
      <Link to={PUBLIC_API_PAGE}>数据接口（API）</Link>
    </p>
  );
  if (!site) return <footer className="site-footer">{apiLink}</footer>;
  return (
    <footer className="site-footer">
      {site.copyright && <p>{site.copyright}</p>}
      {site.filingNumber && <p>{site.filingNumber}</p>}
      {site.fundingNote && <p>{site.fundingNote}</p>}
      {apiLink}
    </footer>
  );
}
