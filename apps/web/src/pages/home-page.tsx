import { Skeleton } from 'antd';
import { useSearchParams } from 'react-router';
import { useSiteSettings } from '../api/site.ts';
import { useDocumentTitle } from '../components/use-document-title.ts';

/**
 * / and /home: the site name and the collection introduction. Search and the hot-browse list come
 * with the search feature.
 *
 * `/?__crash=1` renders a component that throws, so browser tests can see the fallback error page
 * of render crashes; it exposes nothing and changes no data.
 */
export function HomePage() {
  useDocumentTitle();
  const [searchParams] = useSearchParams();
  const site = useSiteSettings();

  return (
    <div className="page home-page">
      {searchParams.get('__crash') === '1' && <CrashTest />}
      {site.data ? (
        <>
          <h1 className="home-title">{site.data.siteName}</h1>
          {site.data.introduction && (
            <section className="home-intro" aria-labelledby="home-intro-title">
              <h2 id="home-intro-title">馆藏介绍</h2>
              {site.data.introduction
                .split(/\n+/)
                .filter((paragraph) => paragraph.trim() !== '')
                .map((paragraph, index) => (
                  <p key={index}>{paragraph}</p>
                ))}
            </section>
          )}
        </>
      ) : (
        <Skeleton active paragraph={{ rows: 4 }} />
      )}
    </div>
  );
}

function CrashTest(): never {
  throw new Error('Crash requested by ?__crash=1');
}
