/** Scrolling the text pane: from the page's top right corner, and along vertical text with the wheel and keys. */
import { useEffect, type KeyboardEvent, type RefObject } from 'react';
import type { OcrJson } from '@guji/shared';

/** Whether the pane can scroll further left (-1) or right (+1), whichever way its writing runs. */
function canScroll(pane: HTMLElement, direction: -1 | 1): boolean {
  const range = pane.scrollWidth - pane.clientWidth;
  // Right-to-left scrolling (vertical-rl): 0 at the right edge, negative to the left.
  const [min, max] = getComputedStyle(pane).writingMode === 'vertical-rl' ? [-range, 0] : [0, range];
  return direction < 0 ? pane.scrollLeft > min + 0.5 : pane.scrollLeft < max - 0.5;
}

/** ← and → scroll the text while it can scroll that way; at its end they turn the page as elsewhere. */
export function scrollTextKeys(event: KeyboardEvent<HTMLDivElement>): void {
  if (event.target !== event.currentTarget) return;
  const direction = event.key === 'ArrowLeft' ? -1 : event.key === 'ArrowRight' ? 1 : 0;
  if (direction !== 0 && canScroll(event.currentTarget, direction)) event.stopPropagation();
}

/**
 * A page is read from its top right corner: the pane shows that first (in vertical-rl, left 0 is the
 * right edge). Reading text keeps its place when resized (`layoutScale` null); the page as laid out starts
 * again at each zoom. Vertical reading text runs leftwards: the wheel moves along it.
 */
export function useTextPaneScroll(
  paneRef: RefObject<HTMLElement | null>,
  ocr: OcrJson | null,
  { reading, vertical, layoutScale }: { reading: boolean; vertical: boolean; layoutScale: number | null },
) {
  useEffect(() => {
    const pane = paneRef.current;
    if (pane) pane.scrollTo({ left: reading && !vertical ? 0 : pane.scrollWidth, top: 0 });
  }, [paneRef, ocr, reading, vertical, layoutScale]);

  useEffect(() => {
    const pane = paneRef.current;
    if (!pane || !vertical) return;
    const onWheel = (event: WheelEvent) => {
      if (event.ctrlKey || Math.abs(event.deltaX) >= Math.abs(event.deltaY)) return;
      if (pane.scrollHeight > pane.clientHeight + 1 || pane.scrollWidth <= pane.clientWidth) return;
      const unit = event.deltaMode === 1 ? 20 : event.deltaMode === 2 ? pane.clientWidth : 1;
      const direction = event.deltaY > 0 ? -1 : 1;
      if (!canScroll(pane, direction)) return;
      event.preventDefault();
      pane.scrollBy({ left: -event.deltaY * unit });
    };
    pane.addEventListener('wheel', onWheel, { passive: false });
    return () => pane.removeEventListener('wheel', onWheel);
  }, [paneRef, vertical]);
}
