import { useEffect, useRef, useState } from 'react';
import { Switch } from 'antd';
import { fittingZoom, type OcrJson, type OcrWord } from '@guji/shared';
import { noConvert } from '../../../components/book-text.tsx';
import type { TextConverter } from '../../language/index.ts';
import { usePaneSimplified } from '../hooks/use-pane-simplified.ts';

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
 * DOM holds the columns in reading order, so a selection copies as text in reading order. The text
 * is the book's own: the interface's 简/繁 toggle leaves it as recorded; the pane's own option
 * 「简体显示」 shows it in simplified characters.
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

  const simplified = usePaneSimplified();
  const scale = (zoomPercent ?? 100) / 100;
  // A page is read from its top right corner: show that first.
  useEffect(() => {
    const pane = paneRef.current;
    if (pane) pane.scrollTo({ left: pane.scrollWidth, top: 0 });
  }, [ocr, scale]);
  return (
    <div className="ocr-pane-wrap">
      <div className="ocr-pane-bar">
        <label className="ocr-pane-option">
          <Switch size="small" checked={simplified.on} onChange={simplified.setOn} />
          简体显示
        </label>
      </div>
      <div ref={paneRef} className="ocr-pane" role="region" aria-label={label} tabIndex={0}>
        {ocr == null ? (
          <p className="ocr-empty" role="status">
            {loading ? '正在加载文字…' : '本页暂无识别文字'}
          </p>
        ) : (
          <div
            className="ocr-sheet"
            lang={simplified.convert ? 'zh-Hans' : 'zh-Hant'}
            {...noConvert}
            style={{ width: ocr.imginfo.width * scale, height: ocr.imginfo.height * scale }}
          >
            {ocr.ocr_res.content.map((line, index) => (
              <div key={index} className="ocr-column">
                {line.words.map((word, i) => (
                  <OcrChar key={i} word={word} scale={scale} convert={simplified.convert} />
                ))}
              </div>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

interface OcrCharProps {
  word: OcrWord;
  scale: number;
  /** The t→s converter while 「简体显示」 is on; null shows the character as recorded. */
  convert: TextConverter | null;
}

function OcrChar({ word, scale, convert }: OcrCharProps) {
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
      {convert ? convert(word.word) : word.word}
    </span>
  );
}
