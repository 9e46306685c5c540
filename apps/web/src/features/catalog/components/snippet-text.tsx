import type { ReactNode } from 'react';
import type { Snippet } from '@guji/shared';
import { BookText } from '../../../components/book-text.tsx';

/**
 * A snippet of recognised text with every occurrence of the search marked. Positions count code
 * points, so rare characters outside the basic plane stay whole.
 */
export function SnippetText({ snippet }: { snippet: Snippet }) {
  const chars = [...snippet.text];
  const marks =
    snippet.highlights.length > 0
      ? snippet.highlights
      : snippet.highlightStart >= 0 && snippet.highlightLength > 0
        ? [{ start: snippet.highlightStart, length: snippet.highlightLength }]
        : [];
  const parts: ReactNode[] = [];
  let at = 0;
  for (const mark of [...marks].sort((a, b) => a.start - b.start)) {
    if (mark.start < at) continue;
    parts.push(chars.slice(at, mark.start).join(''));
    parts.push(<mark key={mark.start}>{chars.slice(mark.start, mark.start + mark.length).join('')}</mark>);
    at = mark.start + mark.length;
  }
  parts.push(chars.slice(at).join(''));
  return <BookText>{parts}</BookText>;
}
