import { ZOOM_LEVELS, type DirectoryNode, type PageImage } from '@guji/shared';
import { entryStartPage, findEntry } from './directory.ts';

/** Toolbar page moves. */
export type PageMove = 'first' | 'previous' | 'next' | 'last';

/** What a key does in the reader. */
export type KeyCommand = PageMove | 'zoomIn' | 'zoomOut';

/**
 * The command of a key (DESIGN.md §10). The book reads right to left, so the next page lies to the
 * left: ← turns forward and → turns back. + and − zoom; Home and End go to the first and last page.
 */
export function keyCommand(key: string): KeyCommand | null {
  switch (key) {
    case 'ArrowLeft':
    case 'PageDown':
      return 'next';
    case 'ArrowRight':
    case 'PageUp':
      return 'previous';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    case '+':
    case '=':
    case 'Add':
      return 'zoomIn';
    case '-':
    case '_':
    case 'Subtract':
      return 'zoomOut';
    default:
      return null;
  }
}

/**
 * The page (1-based) a move leads to from `current` in a volume of `total` pages; `step` is 2 when two
 * pages are shown as a spread.
 */
export function movePage(move: PageMove, current: number, total: number, step = 1): number {
  const last = Math.max(1, total);
  switch (move) {
    case 'first':
      return 1;
    case 'previous':
      return Math.max(1, current - step);
    case 'next':
      return Math.min(last, current + step);
    case 'last':
      return last;
  }
}

/**
 * The page the reader opens on: the page of `imageId` when it is in this volume, else the start of the
 * directory entry `directoryId`, else the first page.
 */
export function startPage(
  pages: readonly PageImage[],
  directory: readonly DirectoryNode[],
  imageId: number | null,
  directoryId: number | null,
): number {
  if (imageId != null) {
    const index = pages.findIndex((page) => page.imageId === imageId);
    if (index >= 0) return index + 1;
  }
  if (directoryId != null) {
    const entry = findEntry(directory, directoryId);
    const page = entry ? entryStartPage(entry) : null;
    if (page != null && page >= 1 && page <= pages.length) return page;
  }
  return 1;
}

/** The next zoom level above (`in`) or below (`out`) a percentage, staying within ZOOM_LEVELS. */
export function stepZoom(current: number, direction: 'in' | 'out'): number {
  const first = ZOOM_LEVELS[0]!;
  const last = ZOOM_LEVELS[ZOOM_LEVELS.length - 1]!;
  if (direction === 'in') return ZOOM_LEVELS.find((level) => level > current + 0.5) ?? last;
  return [...ZOOM_LEVELS].reverse().find((level) => level < current - 0.5) ?? first;
}

/** Keeps a zoom percentage within the reader's range (spec §9: 10–200). */
export function clampZoom(percent: number): number {
  const first = ZOOM_LEVELS[0]!;
  const last = ZOOM_LEVELS[ZOOM_LEVELS.length - 1]!;
  return Math.min(last, Math.max(first, Math.round(percent)));
}

/** Display modes of the reader (spec §4): the page image, the recognised text, or both side by side. */
export const DISPLAY_MODES = [
  { value: 'image', label: '图像' },
  { value: 'text', label: '文字' },
  { value: 'both', label: '图文' },
] as const;
export type DisplayMode = (typeof DISPLAY_MODES)[number]['value'];

/**
 * A mode's zoom: `fit` shows the whole page in its pane (re-fitted on every page and resize, any
 * percentage, centred), or a chosen percentage of the image's own size (a menu level, or any value
 * reached by wheel or pinch).
 */
export type ZoomChoice = 'fit' | number;

/** Zoom is kept per display mode (spec §4); every mode opens fitted to its pane. */
export type ZoomByMode = Record<DisplayMode, ZoomChoice>;

export const INITIAL_ZOOM: ZoomByMode = { image: 'fit', text: 'fit', both: 'fit' };

/** The reader's view as kept in its address: `mode` (text, both; image when absent) and `zoom` (a
 * percentage; fitted when absent), so a reload or a shared link opens the same view (issue 32). */
export function viewFromParams(params: URLSearchParams): { mode: DisplayMode; zoom: ZoomChoice } {
  const raw = params.get('mode');
  const mode = DISPLAY_MODES.find((m) => m.value === raw)?.value ?? 'image';
  const zoomRaw = params.get('zoom');
  const zoom = zoomRaw && /^\d{1,4}$/.test(zoomRaw) ? clampZoom(Number(zoomRaw)) : 'fit';
  return { mode, zoom };
}

/** Writes a view into the address's parameters (the defaults left out); other parameters are kept. */
export function writeView(params: URLSearchParams, mode: DisplayMode, zoom: ZoomChoice): URLSearchParams {
  const next = new URLSearchParams(params);
  if (mode === 'image') next.delete('mode');
  else next.set('mode', mode);
  if (zoom === 'fit') next.delete('zoom');
  else next.set('zoom', String(zoom));
  return next;
}

/**
 * The page the next turn starts from, when keys are pressed faster than the reader renders: the page last
 * asked for until the reader shows it, the page shown once every turn asked has arrived, and the page
 * shown after any other way there (Back, a link). Each turn carries an id in its history entry, so a render
 * of a page on the way (a turn before the last) is told from one the reader went to by other means; a
 * render that shows a page on the way must not move the origin back (PageDown, PageDown, PageUp from page 1
 * ended on page 1, not 2, when the first turn's render came after the second key).
 */
export class TurnOrigin {
  private pending: number[] = [];
  private nextId = 1;

  constructor(public page: number) {}

  /** A turn to `target` is asked: its id, to go with the navigation. */
  ask(target: number): number {
    const id = this.nextId++;
    this.pending.push(id);
    this.page = target;
    return id;
  }

  /** The reader shows `page`, reached by the turn `id`, or by something else (undefined, or an id not pending). */
  shown(page: number, id: number | undefined): void {
    const at = id === undefined ? -1 : this.pending.indexOf(id);
    if (at === -1) {
      this.pending = [];
      this.page = page;
      return;
    }
    // Turns up to this one have arrived (a render skipped on the way counts too).
    this.pending.splice(0, at + 1);
    if (this.pending.length === 0) this.page = page;
  }
}
