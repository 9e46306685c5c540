import { MSG } from '@guji/shared';
import { loginPathFor } from '../account/index.ts';
import { LOGIN_REDIRECT_DELAY_MS } from '../catalog/index.ts';

/** DESIGN.md §7: the reader returns home 1 s after its notice. */
export const HOME_REDIRECT_DELAY_MS = 1000;

/** What the reader does when GET /api/reader refuses or fails. */
export interface ReaderRefusal {
  tone: 'warning' | 'error';
  notice: string;
  /** Where to go after `delayMs`; null to stay and offer a retry. */
  to: string | null;
  delayMs: number;
}

/**
 * Maps a failed reader call (its HTTP status and error code) to the notice and redirect of
 * DESIGN.md §7; `readerUrl` is where a login returns to.
 */
export function readerRefusal(
  status: number,
  code: string,
  message: string,
  readerUrl: string,
): ReaderRefusal {
  if (code === 'LOGIN_REQUIRED' || status === 401) {
    return {
      tone: 'warning',
      notice: MSG.loginRequiredNotice,
      to: loginPathFor(readerUrl),
      delayMs: LOGIN_REDIRECT_DELAY_MS,
    };
  }
  if (code === 'NO_DATA' || status === 404) {
    return { tone: 'warning', notice: MSG.noData, to: '/', delayMs: HOME_REDIRECT_DELAY_MS };
  }
  if (code === 'READING_ROOM_ONLY' || status === 403) {
    return { tone: 'error', notice: MSG.noPermission, to: '/', delayMs: HOME_REDIRECT_DELAY_MS };
  }
  return { tone: 'error', notice: message || MSG.serverException, to: null, delayMs: 0 };
}
