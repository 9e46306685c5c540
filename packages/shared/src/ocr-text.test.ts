import { describe, expect, it } from 'vitest';
import { makeSnippet } from './ocr-text.ts';

const text = (n: number) => Array.from({ length: n }, (_, i) => String.fromCodePoint(0x4e00 + i)).join('');

describe('snippet rule of spec §9', () => {
  it('takes the first 140 characters when the match lies within the first 80', () => {
    const source = text(300);
    const snippet = makeSnippet(source, 80, 2);
    expect(snippet.text).toBe(source.slice(0, 140) + '…');
    expect(snippet.highlightStart).toBe(80);
    expect(snippet.highlightLength).toBe(2);
  });

  it('starts 80 before a match past character 80 and is 140 long', () => {
    const source = text(300);
    const snippet = makeSnippet(source, 81, 3);
    expect(snippet.text).toBe('…' + source.slice(1, 141) + '…');
    expect([...snippet.text.slice(1, -1)]).toHaveLength(140);
    expect(snippet.highlightStart).toBe(81);
    expect(snippet.text.slice(snippet.highlightStart, snippet.highlightStart + 3)).toBe(source.slice(81, 84));
  });

  it('has no ellipsis when nothing is cut, and counts rare characters as one', () => {
    expect(makeSnippet('學而時習之', 2, 2)).toEqual({
      text: '學而時習之',
      highlightStart: 2,
      highlightLength: 2,
      highlights: [{ start: 2, length: 2 }],
    });
    const rare = '𠀀𠀁學而';
    expect(makeSnippet(rare, 2, 2)).toMatchObject({ text: rare, highlightStart: 2, highlightLength: 2 });
  });

  it('highlights every occurrence inside the snippet, shifted past the leading ellipsis', () => {
    const source = `${'之'.repeat(100)}學而${'之'.repeat(10)}學而${'之'.repeat(200)}學而`;
    const all = [
      { start: 100, length: 2 },
      { start: 112, length: 2 },
      { start: 314, length: 2 },
    ];
    const snippet = makeSnippet(source, 100, 2, all);
    expect(snippet.text.startsWith('…')).toBe(true);
    // The third lies beyond the snippet's 140 characters.
    expect(snippet.highlights).toEqual([
      { start: snippet.highlightStart, length: 2 },
      { start: snippet.highlightStart + 12, length: 2 },
    ]);
    const chars = [...snippet.text];
    for (const h of snippet.highlights)
      expect(chars.slice(h.start, h.start + h.length).join('')).toBe('學而');
  });
});
