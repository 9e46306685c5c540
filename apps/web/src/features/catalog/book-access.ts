import { MSG, type Access } from '@guji/shared';
import { loginPathFor } from '../account/index.ts';

/** DESIGN.md §7: the login notice waits 1.5 s before going to /Login. */
export const LOGIN_REDIRECT_DELAY_MS = 1500;

/** What opening a page from the directory tree does, given the book's access for this user. */
export type OpenOutcome =
  | { kind: 'read'; to: string }
  | { kind: 'login'; notice: string; to: string; delayMs: number }
  | { kind: 'refuse'; notice: string };

/** Mirrors DESIGN.md §7 for the tree: read, log in first, or a notice (no data, reading room only). */
export function openOutcome(access: Access, readerUrl: string): OpenOutcome {
  switch (access.reason) {
    case 'ok':
      return { kind: 'read', to: readerUrl };
    case 'login':
      return {
        kind: 'login',
        notice: MSG.loginRequiredNotice,
        to: loginPathFor(readerUrl),
        delayMs: LOGIN_REDIRECT_DELAY_MS,
      };
    case 'noData':
      return { kind: 'refuse', notice: MSG.noData };
    case 'readingRoom':
      return { kind: 'refuse', notice: MSG.readingRoomOnly };
  }
}

/** The text of an optional field, or the placeholder 暂无 (spec §2). */
export function orNone(value: string | number | null | undefined): string {
  if (value == null) return '暂无';
  const text = String(value).trim();
  return text === '' ? '暂无' : text;
}
