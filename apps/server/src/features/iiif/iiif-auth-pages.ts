/** The HTML pages and token errors of the IIIF Authorization services (iiif-auth.route.ts). */
import { createHash } from 'node:crypto';
import { AUTH2_CONTEXT } from './iiif-auth.ts';

/** The login window's last page closes itself: the one script it runs, allowed by its hash. */
export const CLOSE_SCRIPT = 'window.close();';
const BUTTON_SCRIPT = `document.getElementById('close').addEventListener('click', () => { ${CLOSE_SCRIPT} });`;
export const CLOSE_HASH = createHash('sha256').update(CLOSE_SCRIPT).digest('base64');
export const BUTTON_HASH = createHash('sha256').update(BUTTON_SCRIPT).digest('base64');

/** An access token service's error: Auth 1.0 §4.3, or Auth 2.0's AuthAccessTokenError2. */
export function tokenError(version: 1 | 2, error: string, description: string, heading = description) {
  if (version === 1) return { error, description };
  const profile =
    error === 'missingCredentials'
      ? 'missingAspect'
      : error === 'invalidCredentials'
        ? 'invalidAspect'
        : error;
  return {
    '@context': AUTH2_CONTEXT,
    type: 'AuthAccessTokenError2',
    profile,
    heading: { zh: [heading] },
    note: { zh: [description] },
  };
}

/** The origin of a URL (scheme://host[:port]), lower-case, or undefined. */
export function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin.toLowerCase();
  } catch {
    return undefined;
  }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * A small page of these services (login window, token iframe, logout window). With `onButton` the script
 * runs when the reader presses 关闭窗口 (the button is wired by the page's one script, no inline handler).
 */
export function page(
  title: string,
  text: string,
  script?: string,
  nonce?: string,
  onButton = false,
  /** Markup of this file's own (never user input) after the text. */
  extra = '',
): string {
  const body = onButton
    ? `<p role="alert">${escapeHtml(text)}</p><button type="button" id="close">关闭窗口</button>`
    : `<p>${escapeHtml(text)}</p>${extra}`;
  const code = onButton ? BUTTON_SCRIPT : script;
  const tag = code ? `<script${nonce ? ` nonce="${nonce}"` : ''}>${code}</script>` : '';
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)} - 古籍数字图书馆</title></head><body style="font-family:sans-serif;padding:2em;line-height:1.8;font-size:16px">${body}${tag}</body></html>`;
}
