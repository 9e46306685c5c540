import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../test/memory-storage.ts';
import {
  DEFAULT_TEXT_VIEW,
  LAYOUT_MIN_TYPE_PX,
  TEXT_SIZE,
  TEXT_VIEW_STORAGE_KEY,
  clampTextSize,
  layoutOpeningZoom,
  parseTextView,
  readTextView,
  serializeTextView,
  stepTextSize,
  storeTextView,
} from './text-view.ts';

describe('the text pane view the reader chose', () => {
  it('opens as vertical reading text at 20 px', () => {
    expect(DEFAULT_TEXT_VIEW).toEqual({ view: 'reading', writing: 'vertical', size: 20 });
    expect(parseTextView(null)).toEqual(DEFAULT_TEXT_VIEW);
    expect(parseTextView(undefined)).toEqual(DEFAULT_TEXT_VIEW);
    expect(parseTextView('')).toEqual(DEFAULT_TEXT_VIEW);
  });

  it('falls back part by part on what it does not understand', () => {
    expect(parseTextView('not json')).toEqual(DEFAULT_TEXT_VIEW);
    expect(parseTextView('"layout"')).toEqual(DEFAULT_TEXT_VIEW);
    expect(parseTextView('null')).toEqual(DEFAULT_TEXT_VIEW);
    expect(parseTextView('{"view":"layout","writing":"diagonal","size":"big"}')).toEqual({
      view: 'layout',
      writing: 'vertical',
      size: 20,
    });
    expect(parseTextView('{"view":"facsimile","writing":"horizontal"}')).toEqual({
      view: 'reading',
      writing: 'horizontal',
      size: 20,
    });
  });

  it('keeps the size between 14 and 40 px, in whole pixels', () => {
    expect(TEXT_SIZE.min).toBe(14);
    expect(TEXT_SIZE.max).toBe(40);
    expect(clampTextSize(8)).toBe(14);
    expect(clampTextSize(99)).toBe(40);
    expect(clampTextSize(23.6)).toBe(24);
    expect(clampTextSize(Number.NaN)).toBe(20);
    expect(clampTextSize(null)).toBe(20);
    expect(parseTextView('{"size":3}').size).toBe(14);
    expect(parseTextView('{"size":300}').size).toBe(40);
  });

  it('steps the size by 2 px and stops at the ends', () => {
    expect(stepTextSize(20, 1)).toBe(22);
    expect(stepTextSize(20, -1)).toBe(18);
    expect(stepTextSize(14, -1)).toBe(14);
    expect(stepTextSize(15, -1)).toBe(14);
    expect(stepTextSize(40, 1)).toBe(40);
  });

  it('round-trips through storage under its own key', () => {
    const storage = memoryStorage();
    expect(readTextView(storage)).toEqual(DEFAULT_TEXT_VIEW);
    const chosen = { view: 'layout', writing: 'horizontal', size: 32 } as const;
    storeTextView(storage, chosen);
    expect(storage.values.get(TEXT_VIEW_STORAGE_KEY)).toBe(serializeTextView(chosen));
    expect(readTextView(storage)).toEqual(chosen);
    storeTextView(storage, DEFAULT_TEXT_VIEW);
    expect(readTextView(storage)).toEqual(DEFAULT_TEXT_VIEW);
  });

  it('uses the defaults, quietly, where storage is missing or refuses', () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(readTextView(undefined)).toEqual(DEFAULT_TEXT_VIEW);
    expect(readTextView(refusing)).toEqual(DEFAULT_TEXT_VIEW);
    expect(() => storeTextView(refusing, DEFAULT_TEXT_VIEW)).not.toThrow();
    expect(() => storeTextView(undefined, DEFAULT_TEXT_VIEW)).not.toThrow();
  });
});

describe('the 版式 view’s opening zoom (issue 32)', () => {
  it('fits the page while its characters stay readable', () => {
    // 40 px characters drawn at 0.7: fitted at 50 % they are 14 px.
    expect(layoutOpeningZoom(50, [40, 40, 38, 42], 0.7)).toBe(50);
  });

  it('opens larger than fitted (the pane scrolls) where fitting would draw them under 10 px', () => {
    // Fitted to a phone at 25 % the median 40 px character would be 7 px.
    const zoom = layoutOpeningZoom(25, [40, 20, 40, 41, 39], 0.7);
    expect(zoom).toBe(Math.ceil((LAYOUT_MIN_TYPE_PX / (40 * 0.7)) * 100));
    expect(40 * 0.7 * (zoom / 100)).toBeGreaterThanOrEqual(LAYOUT_MIN_TYPE_PX);
  });

  it('stays within the zoom range and fits a page without characters', () => {
    expect(layoutOpeningZoom(20, [2, 2, 2], 0.7)).toBe(200);
    expect(layoutOpeningZoom(35, [], 0.7)).toBe(35);
  });
});
