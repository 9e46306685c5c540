import type { Snippet } from '@guji/shared';

/** A run of a snippet's text, marked (a match) or not. */
export interface SnippetPart {
  text: string;
  marked: boolean;
}

/**
 * A snippet cut into runs, every match marked: the highlights (or, from an older answer, the one
 * highlight) in order, overlapping ones joined into one mark. Positions count code points, so rare
 * characters outside the basic plane stay whole.
 */
export function snippetParts(snippet: Snippet): SnippetPart[] {
  const chars = [...snippet.text];
  const marks = (
    snippet.highlights.length > 0
      ? snippet.highlights
      : snippet.highlightStart >= 0 && snippet.highlightLength > 0
        ? [{ start: snippet.highlightStart, length: snippet.highlightLength }]
        : []
  )
    .filter((mark) => mark.length > 0)
    .sort((a, b) => a.start - b.start);
  const parts: SnippetPart[] = [];
  let at = 0;
  for (const mark of marks) {
    const end = Math.min(chars.length, mark.start + mark.length);
    if (end <= at) continue;
    const start = Math.max(at, mark.start);
    if (start > at) parts.push({ text: chars.slice(at, start).join(''), marked: false });
    const last = parts.at(-1);
    // A mark that overlaps the one before it extends it.
    if (last?.marked && start === at && mark.start < at) last.text += chars.slice(start, end).join('');
    else parts.push({ text: chars.slice(start, end).join(''), marked: true });
    at = end;
  }
  if (at < chars.length) parts.push({ text: chars.slice(at).join(''), marked: false });
  return parts;
}
