import { useEffect, useRef, useState } from 'react';
import { fittingZoom, type OcrJson, type OcrWord } from '@guji/shared';

/** Spec §9: the recognised text is drawn at 0.7 of its measured size. */
export const OCR_FONT_SCALE = 0.7;

/** Spec §9: confidence at or below 0.5 is shown red, up to 0.7 yellow. */
export function confidenceClass(confidence: number): 'ocr-low' | 'ocr-mid' | undefined {
  if (confidence <= 0.5) return 'ocr-low';
  if (confidence <= 0.7) return 'ocr-mid';
  return undefined;
}

export interface OcrTextPaneProps {
  ocr: OcrJson | null;
  loading: boolean;
  /** Percent of the page's own size; null fits the page into the pane and reports that zoom. */
  zoomPercent: number | null;
  onZoomChange: (percent: number) => void;
  label: string;
}

/**
 * The text pane (spec §4): the page's recognised characters where they stand on the page, in vertical
 * columns right to left, each at 0.7 of its measured size, doubtful ones coloured by confidence. The
 * DOM holds the columns in reading order, so a selection copies as text in reading order.
 */
export function OcrTextPane({ ocr, loading, zoomPercent, onZoomChange, label }: OcrTextPaneProps) {
  const paneRef = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    const pane = paneRef.current;
    if (!pane) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setSize({ width: entry.contentRect.width, height: entry.contentRect.height });
    });
    observer.observe(pane);
    return () => observer.disconnect();
  }, []);

  // With no zoom chosen for this mode yet, take the largest level that fits (spec §9), as the image does.
  useEffect(() => {
    if (zoomPercent == null && ocr && size && size.width > 0) {
      onZoomChange(fittingZoom(ocr.imginfo, size));
    }
  }, [zoomPercent, ocr, size, onZoomChange]);

  const scale = (zoomPercent ?? 100) / 100;
  // A page is read from its top right corner: show that first.
  useEffect(() => {
    const pane = paneRef.current;
    if (pane) pane.scrollTo({ left: pane.scrollWidth, top: 0 });
  }, [ocr, scale]);
  return (
    <div ref={paneRef} className="ocr-pane" role="region" aria-label={label} tabIndex={0}>
      {ocr == null ? (
        <p className="ocr-empty" role="status">
          {loading ? '正在加载文字…' : '本页暂无识别文字'}
        </p>
      ) : (
        <div
          className="ocr-sheet"
          lang="zh-Hant"
          style={{ width: ocr.imginfo.width * scale, height: ocr.imginfo.height * scale }}
        >
          {ocr.ocr_res.content.map((line, index) => (
            <div key={index} className="ocr-column">
              {line.words.map((word, i) => (
                <OcrChar key={i} word={word} scale={scale} />
              ))}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

function OcrChar({ word, scale }: { word: OcrWord; scale: number }) {
  const { left, top, right, bottom } = word.points;
  const className = [
    'ocr-char',
    word.type === 'note' ? 'ocr-note' : undefined,
    confidenceClass(word.confidence),
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <span
      className={className}
      title={`置信度 ${word.confidence.toFixed(2)}`}
      style={{
        left: left * scale,
        top: top * scale,
        width: (right - left) * scale,
        height: (bottom - top) * scale,
        fontSize: Math.max(4, word.fontSize * OCR_FONT_SCALE * scale),
      }}
    >
      {word.word}
    </span>
  );
}
