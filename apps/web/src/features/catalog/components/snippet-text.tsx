import type { Snippet } from '@guji/shared';
import { BookText } from '../../../components/book-text.tsx';
import { snippetParts } from '../snippet-parts.ts';

/** A snippet of recognised text with every occurrence of the search marked (overlapping ones as one). */
export function SnippetText({ snippet }: { snippet: Snippet }) {
  return (
    <BookText>
      {snippetParts(snippet).map((part, i) => (part.marked ? <mark key={i}>{part.text}</mark> : part.text))}
    </BookText>
  );
}
