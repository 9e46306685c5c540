import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../test/memory-storage.ts';
import {
  PANE_SIMPLIFIED_STORAGE_KEY,
  parsePaneSimplified,
  readPaneSimplified,
  serializePaneSimplified,
  storePaneSimplified,
} from './pane-simplified.ts';

describe('the text pane option 简体显示', () => {
  it('is off unless stored as on', () => {
    expect(parsePaneSimplified(null)).toBe(false);
    expect(parsePaneSimplified(undefined)).toBe(false);
    expect(parsePaneSimplified('')).toBe(false);
    expect(parsePaneSimplified('0')).toBe(false);
    expect(parsePaneSimplified('true')).toBe(false);
    expect(parsePaneSimplified('1')).toBe(true);
  });

  it('round-trips through storage under its own key', () => {
    const storage = memoryStorage();
    expect(readPaneSimplified(storage)).toBe(false);
    storePaneSimplified(storage, true);
    expect(storage.values.get(PANE_SIMPLIFIED_STORAGE_KEY)).toBe(serializePaneSimplified(true));
    expect(readPaneSimplified(storage)).toBe(true);
    storePaneSimplified(storage, false);
    expect(readPaneSimplified(storage)).toBe(false);
  });

  it('is off and quiet where storage is missing or refuses', () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(readPaneSimplified(undefined)).toBe(false);
    expect(readPaneSimplified(refusing)).toBe(false);
    expect(() => storePaneSimplified(refusing, true)).not.toThrow();
    expect(() => storePaneSimplified(undefined, true)).not.toThrow();
  });
});
