/**
 * The reader's early page image (issue 32, "the page within 1 s"): for a signed-in reader opening a
 * /Book address with an imageId, the server puts a preload link for the page image into index.html
 * (apps/server/src/features/catalog/reader-image-head.ts), so the browser asks for it before the
 * application's scripts, and index.html's inline script shows it where the image pane will be
 * (`#reader-preview`; `data-reader-preview` and the page's imageId in `data-reader-preview-id` on
 * `<html>`) while the application is still loading. The viewer lays it exactly over its pane when it
 * mounts and removes it once it has drawn the page itself; the reader removes it as soon as it shows
 * anything else (another page, another mode, a refusal, another screen).
 */
const PREVIEW_ID = 'reader-preview';
const MARK = 'data-reader-preview';

function previewBox(): HTMLElement | null {
  return typeof document === 'undefined' ? null : document.getElementById(PREVIEW_ID);
}

/** The early image, if any, no longer stands for the page: it goes at once (and one not shown yet never is). */
export function releaseBootPreview(): void {
  if (typeof document === 'undefined') return;
  document.documentElement.removeAttribute(MARK);
  previewBox()?.remove();
}

/** Keeps the early image only while the reader shows that page as an image; otherwise removes it. */
export function keepBootPreviewFor(imageId: number | null): void {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  if (root.hasAttribute(MARK) && root.dataset.readerPreviewId !== String(imageId)) releaseBootPreview();
}

/** Lays the early image over the viewer's pane (index.html placed it from the layout's usual sizes). */
export function placeBootPreview(pane: HTMLElement | null): void {
  const box = previewBox();
  if (!box || !pane) return;
  const rect = pane.getBoundingClientRect();
  box.style.left = `${rect.left}px`;
  box.style.top = `${rect.top}px`;
  box.style.width = `${rect.width}px`;
  box.style.height = `${rect.height}px`;
}
