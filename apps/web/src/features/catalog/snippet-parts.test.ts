import { describe, expect, it } from 'vitest';
import { snippetParts } from './snippet-parts.ts';

const snippet = (text: string, highlights: Array<{ start: number; length: number }>) => ({
  text,
  highlightStart: highlights[0]?.start ?? -1,
  highlightLength: highlights[0]?.length ?? 0,
  highlights,
});
const shown = (parts: ReturnType<typeof snippetParts>) =>
  parts.map((p) => (p.marked ? `[${p.text}]` : p.text)).join('');

describe('snippet parts', () => {
  it('marks every match of every term, in order', () => {
    const parts = snippetParts(
      snippet('子曰學而時習之子曰', [
        { start: 7, length: 2 },
        { start: 0, length: 2 },
        { start: 2, length: 2 },
      ]),
    );
    expect(shown(parts)).toBe('[子曰][學而]時習之[子曰]');
  });

  it('joins overlapping matches into one mark and keeps rare characters whole', () => {
    expect(
      shown(
        snippetParts(
          snippet('子曰學而', [
            { start: 0, length: 2 },
            { start: 1, length: 2 },
          ]),
        ),
      ),
    ).toBe('[子曰學]而');
    expect(shown(snippetParts(snippet('𠀀𠀁天地', [{ start: 1, length: 2 }])))).toBe('𠀀[𠀁天]地');
  });

  it('falls back to the single highlight, and shows plain text without one', () => {
    expect(
      shown(snippetParts({ text: '學而時習', highlightStart: 2, highlightLength: 2, highlights: [] })),
    ).toBe('學而[時習]');
    expect(shown(snippetParts(snippet('學而時習', [])))).toBe('學而時習');
  });
});
