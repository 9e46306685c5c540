import { useEffect, useState, type ReactNode } from 'react';
import { Spin } from 'antd';

/** Spec §2/§9: the search tip clears after 1 s. */
export const SEARCH_TIP_MS = 1000;

/**
 * The «正在检索…» tip of spec §2: a status line above the results for 1 s after each search (mount it
 * with the search as its key) and while a search is loading. It never covers the results: results
 * that have arrived are shown and usable at once, under the tip, not dimmed behind an overlay.
 */
export function SearchTip({ fetching, children }: { fetching: boolean; children: ReactNode }) {
  const [fresh, setFresh] = useState(true);
  useEffect(() => {
    const timer = window.setTimeout(() => setFresh(false), SEARCH_TIP_MS);
    return () => window.clearTimeout(timer);
  }, []);
  const shown = fresh || fetching;
  return (
    <div className="search-tip-area">
      <p className="search-tip" role="status" aria-live="polite">
        {shown && (
          <>
            <Spin size="small" aria-hidden /> 正在检索…
          </>
        )}
      </p>
      {children}
    </div>
  );
}
