/**
 * The reader's option 「简体显示」: the text pane shows the page's recognised text converted to
 * simplified characters (t→s). Off by default, remembered in localStorage, independent of the
 * interface's 简/繁 toggle (which never touches the books' own text).
 */
export const PANE_SIMPLIFIED_STORAGE_KEY = 'reader.paneSimplified';

type ReadableStorage = Pick<Storage, 'getItem'>;
type WritableStorage = Pick<Storage, 'setItem'>;

/** The stored choice: on only when stored as '1'. */
export function parsePaneSimplified(raw: string | null | undefined): boolean {
  return raw === '1';
}

/** The stored form of a choice. */
export function serializePaneSimplified(on: boolean): string {
  return on ? '1' : '0';
}

/** The remembered choice; off when storage is missing or refuses. */
export function readPaneSimplified(storage: ReadableStorage | undefined): boolean {
  try {
    return parsePaneSimplified(storage?.getItem(PANE_SIMPLIFIED_STORAGE_KEY));
  } catch {
    return false;
  }
}

/** Remembers a choice; where storage is disabled it lasts until reload. */
export function storePaneSimplified(storage: WritableStorage | undefined, on: boolean): void {
  try {
    storage?.setItem(PANE_SIMPLIFIED_STORAGE_KEY, serializePaneSimplified(on));
  } catch {
    // Storage may be disabled.
  }
}
