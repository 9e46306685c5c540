import { Link } from 'react-router';
import type { TextHit } from '@guji/shared';
import { readerPath } from '../../../lib/reader-url.ts';
import { PagePlace } from '../../../components/book-text.tsx';
import { SnippetText } from './snippet-text.tsx';

/**
 * One page found: where it is, how often the search occurs on it, and the snippet with every match
 * marked. The whole row opens the reader at that page with the matches framed; its link (the page's
 * place) is what the keyboard reaches, and it covers the row for the mouse.
 */
export function FullTextHit({ hit, query }: { hit: TextHit; query: string }) {
  const to = readerPath({
    catalogId: hit.catalogId,
    fascicleId: hit.fascicleId,
    directoryId: hit.directoryId,
    imageId: hit.imageId,
    highlight: query,
  });
  return (
    <div className="full-text-hit">
      <p className="full-text-where">
        <Link to={to} className="full-text-hit-link">
          <PagePlace names={[hit.fascicleName, hit.directoryName]} pageNumber={hit.pageNumber} />
        </Link>
        <span className="hit-occurrences">本页 {hit.occurrences} 处</span>
      </p>
      <p className="full-text-snippet">
        <SnippetText snippet={hit.snippet} />
      </p>
    </div>
  );
}
