/**
 * How the reader's text pane shows a page's text, as the reader chose it: the view (阅读, the text as
 * reading text; 版式, the characters where they stand on the page), the direction of the reading text
 * (竖排 / 横排) and its size. Remembered in localStorage under one key.
 */
export const TEXT_VIEW_STORAGE_KEY = 'reader.textView';

export type TextViewName = 'reading' | 'layout';
export type TextWriting = 'vertical' | 'horizontal';

export interface TextView {
  view: TextViewName;
  writing: TextWriting;
  /** Font size of the reading text's main characters, in CSS px. */
  size: number;
}

/** The reading text's size: never below 14 px (readable), up to 40 px, 20 px at first, in 2 px steps. */
export const TEXT_SIZE = { min: 14, max: 40, initial: 20, step: 2 } as const;

export const DEFAULT_TEXT_VIEW: TextView = { view: 'reading', writing: 'vertical', size: TEXT_SIZE.initial };

type ReadableStorage = Pick<Storage, 'getItem'>;
type WritableStorage = Pick<Storage, 'setItem'>;

/** A size kept within the allowed range, whole pixels; the initial size for anything not a number. */
export function clampTextSize(size: unknown): number {
  if (typeof size !== 'number' || !Number.isFinite(size)) return TEXT_SIZE.initial;
  return Math.min(TEXT_SIZE.max, Math.max(TEXT_SIZE.min, Math.round(size)));
}

/** The size one step smaller (-1) or larger (+1), within the range. */
export function stepTextSize(size: number, direction: -1 | 1): number {
  return clampTextSize(size + direction * TEXT_SIZE.step);
}

/** The stored choice; each part that is missing or not understood falls back to its default. */
export function parseTextView(raw: string | null | undefined): TextView {
  let stored: unknown;
  try {
    stored = raw ? JSON.parse(raw) : null;
  } catch {
    stored = null;
  }
  const value = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  return {
    view: value.view === 'layout' ? 'layout' : 'reading',
    writing: value.writing === 'horizontal' ? 'horizontal' : 'vertical',
    size: value.size === undefined ? TEXT_SIZE.initial : clampTextSize(value.size),
  };
}

/** The stored form of a choice. */
export function serializeTextView(view: TextView): string {
  return JSON.stringify({ view: view.view, writing: view.writing, size: clampTextSize(view.size) });
}

/** The remembered choice; the defaults when storage is missing or refuses. */
export function readTextView(storage: ReadableStorage | undefined): TextView {
  try {
    return parseTextView(storage?.getItem(TEXT_VIEW_STORAGE_KEY));
  } catch {
    return DEFAULT_TEXT_VIEW;
  }
}

/** Remembers a choice; where storage is disabled it lasts until reload. */
export function storeTextView(storage: WritableStorage | undefined, view: TextView): void {
  try {
    storage?.setItem(TEXT_VIEW_STORAGE_KEY, serializeTextView(view));
  } catch {
    // Storage may be disabled.
  }
}

/** The smallest type the 版式 view opens with, in CSS pixels (issue 32: 4 px characters on a phone). */
export const LAYOUT_MIN_TYPE_PX = 10;

/**
 * The zoom (percent) the 版式 view opens at: the page fitted to the pane, but never so small that the
 * page's typical (median) character is drawn under LAYOUT_MIN_TYPE_PX; the pane scrolls instead.
 * `typeScale` is the share of a character's measured size it is drawn at (0.7, spec §9).
 */
export function layoutOpeningZoom(fitted: number, fontSizes: number[], typeScale: number, max = 200): number {
  const sorted = fontSizes.filter((size) => size > 0).sort((a, b) => a - b);
  if (sorted.length === 0) return fitted;
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const readable = Math.ceil((LAYOUT_MIN_TYPE_PX / (median * typeScale)) * 100);
  return Math.min(max, Math.max(fitted, readable));
}
