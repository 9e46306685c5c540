import type { Snippet } from '@guji/shared';

/**
 * A snippet of recognised text with the match marked. Positions count code points, so rare characters
 * outside the basic plane stay whole.
 */
export function SnippetText({ snippet }: { snippet: Snippet }) {
  const chars = [...snippet.text];
  if (snippet.highlightStart < 0 || snippet.highlightLength <= 0) return <span>{snippet.text}</span>;
  const end = snippet.highlightStart + snippet.highlightLength;
  return (
    <span>
      {chars.slice(0, snippet.highlightStart).join('')}
      <mark>{chars.slice(snippet.highlightStart, end).join('')}</mark>
      {chars.slice(end).join('')}
    </span>
  );
}
