import type { Snippet } from '@guji/shared';
import { BookText } from '../../../components/book-text.tsx';

/**
 * A snippet of recognised text with the match marked. Positions count code points, so rare characters
 * outside the basic plane stay whole.
 */
export function SnippetText({ snippet }: { snippet: Snippet }) {
  const chars = [...snippet.text];
  if (snippet.highlightStart < 0 || snippet.highlightLength <= 0) return <BookText>{snippet.text}</BookText>;
  const end = snippet.highlightStart + snippet.highlightLength;
  return (
    <BookText>
      {chars.slice(0, snippet.highlightStart).join('')}
      <mark>{chars.slice(snippet.highlightStart, end).join('')}</mark>
      {chars.slice(end).join('')}
    </BookText>
  );
}
