import { useSiteSettings } from '../api/site.ts';

/** The footer: copyright line, filing number and funding note (spec §1). */
export function AppFooter() {
  const site = useSiteSettings().data;
  if (!site) return <footer className="site-footer" />;
  return (
    <footer className="site-footer">
      {site.copyright && <p>{site.copyright}</p>}
      {site.filingNumber && <p>{site.filingNumber}</p>}
      {site.fundingNote && <p>{site.fundingNote}</p>}
    </footer>
  );
}
