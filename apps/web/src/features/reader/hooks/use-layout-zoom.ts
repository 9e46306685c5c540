/** The zoom of the text pane's 版式 view (the page as laid out), chosen by the reader or fitted to the pane. */
import { useEffect, useMemo, useState, type RefObject } from 'react';
import { fittingZoom, type OcrJson } from '@guji/shared';
import { OCR_FONT_SCALE } from '../components/text-chars.ts';
import { layoutOpeningZoom } from '../text-view.ts';
import { stepZoom } from '../reader-navigation.ts';

/**
 * `zoomPercent` is the mode's zoom (null: none chosen yet). With none, the view opens at the largest
 * level that fits the pane and reports it. Returns the percent shown and its steps (A−/A+).
 */
export function useLayoutZoom(
  paneRef: RefObject<HTMLElement | null>,
  ocr: OcrJson | null,
  zoomPercent: number | null,
  onZoomChange: (percent: number) => void,
) {
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    const pane = paneRef.current;
    if (!pane) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setSize({ width: entry.contentRect.width, height: entry.contentRect.height });
    });
    observer.observe(pane);
    return () => observer.disconnect();
  }, [paneRef]);
  // With no zoom chosen yet, the 版式 view opens at the largest level that fits (spec §9), as the image
  // does, unless its characters would then be too small to read (issue 32). Side by side the mode's zoom
  // is the image's, so the pane keeps its own (fitted, or stepped with its A−/A+).
  const opening = useMemo(
    () =>
      ocr && size && size.width > 0
        ? layoutOpeningZoom(
            fittingZoom(ocr.imginfo, size),
            ocr.ocr_res.content.flatMap((line) => line.words.map((word) => word.fontSize)),
            OCR_FONT_SCALE,
          )
        : null,
    [ocr, size],
  );
  useEffect(() => {
    if (zoomPercent == null && opening != null) onZoomChange(opening);
  }, [zoomPercent, opening, onZoomChange]);
  const [ownZoom, setOwnZoom] = useState<number | null>(null);
  const percent = zoomPercent ?? ownZoom ?? opening ?? 100;
  const step = (direction: 'in' | 'out') => {
    const next = stepZoom(percent, direction);
    setOwnZoom(next);
    onZoomChange(next);
  };
  return { percent, step };
}
