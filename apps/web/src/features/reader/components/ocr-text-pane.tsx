import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { fittingZoom, type OcrJson, type OcrPoints } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { usePaneSimplified } from '../hooks/use-pane-simplified.ts';
import { selectedKeys, useTextPaneLinks } from '../hooks/use-text-pane-links.ts';
import { useTextView } from '../hooks/use-text-view.ts';
import { wordsInBoxes, type WordKey } from '../text-links.ts';
import { LayoutText } from './layout-text.tsx';
import { ReadingText } from './reading-text.tsx';
import { OCR_FONT_SCALE, pageText } from './text-chars.ts';
import { layoutOpeningZoom } from '../text-view.ts';
import { stepZoom } from '../reader-navigation.ts';
import { TextPaneBar } from './text-pane-bar.tsx';

export { charClassName, confidenceClass, OCR_FONT_SCALE, pageText } from './text-chars.ts';

export interface TextPaneProps {
  ocr: OcrJson | null;
  loading: boolean;
  label: string;
  /** Percent of the page's own size for the 版式 view; null fits the page into the pane and reports that zoom. */
  zoomPercent: number | null;
  onZoomChange: (percent: number) => void;
  /** Search hits on this page, as boxes in image px: their characters are marked. */
  hitBoxes?: readonly OcrPoints[];
  /** The character linked from the image: highlighted, and scrolled into view if hidden. */
  linked?: WordKey | null;
  /** The character the pointer enters, a tap or focus is on; null when the pointer leaves the text. */
  onLink?: (key: WordKey | null) => void;
  /** The characters of the text selection inside the pane, in reading order; [] when none. */
  onSelect?: (keys: WordKey[]) => void;
  /** The page's citation, copied under the text by 复制全文. */
  citation?: () => string;
  /** 纠错 on the characters selected when it is pressed (signed-in readers); null or absent hides it. */
  onCorrect?: ((selected: WordKey[]) => void) | null;
}

const NO_HITS: ReadonlySet<WordKey> = new Set();

/** Whether the pane can scroll further left (-1) or right (+1), whichever way its writing runs. */
function canScroll(pane: HTMLElement, direction: -1 | 1): boolean {
  const range = pane.scrollWidth - pane.clientWidth;
  // Right-to-left scrolling (vertical-rl): 0 at the right edge, negative to the left.
  const [min, max] = getComputedStyle(pane).writingMode === 'vertical-rl' ? [-range, 0] : [0, range];
  return direction < 0 ? pane.scrollLeft > min + 0.5 : pane.scrollLeft < max - 0.5;
}

/**
 * The text pane (spec §4): the page's recognised text, either as reading text (阅读: the columns as
 * lines, vertical right to left or horizontal, at the reader's size) or as on the page (版式: each
 * character where it stands, at 0.7 of its size, following the zoom). Doubtful characters are
 * coloured by confidence (spec §9), search hits marked, and each character is linked with the page
 * image. The text is the book's own: the interface's 简/繁 toggle leaves it as recorded; the pane's
 * option 「简体显示」 shows it in simplified characters. A selection copies in reading order.
 */
export function TextPane({
  ocr,
  loading,
  label,
  zoomPercent,
  onZoomChange,
  hitBoxes,
  linked,
  onLink,
  onSelect,
  citation,
  onCorrect,
}: TextPaneProps) {
  const paneRef = useRef<HTMLDivElement>(null);
  const textView = useTextView();
  const simplified = usePaneSimplified();
  const reading = textView.view === 'reading';
  const vertical = reading && textView.writing === 'vertical';

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
  const scale = percent / 100;
  const stepLayout = (direction: 'in' | 'out') => {
    const next = stepZoom(percent, direction);
    setOwnZoom(next);
    onZoomChange(next);
  };

  // A page is read from its top right corner: show that first (in vertical-rl, left 0 is the right edge).
  // Reading text keeps its place when resized; the page as laid out starts again at each zoom.
  const layoutScale = reading ? null : scale;
  useEffect(() => {
    const pane = paneRef.current;
    if (pane) pane.scrollTo({ left: reading && !vertical ? 0 : pane.scrollWidth, top: 0 });
  }, [ocr, reading, vertical, layoutScale]);

  // Vertical reading text runs leftwards: the wheel moves along it.
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
  }, [vertical]);

  const hits = useMemo(
    () => (ocr && hitBoxes && hitBoxes.length > 0 ? wordsInBoxes(ocr, hitBoxes) : NO_HITS),
    [ocr, hitBoxes],
  );
  const convert = simplified.convert;
  const hasText = ocr?.ocr_res.content.some((line) => line.words.length > 0) ?? false;
  const linkHandlers = useTextPaneLinks(
    paneRef,
    { linked, onLink, onSelect },
    useMemo(() => [ocr, convert, textView.view], [ocr, convert, textView.view]),
  );

  const copy = useCallback(() => {
    if (!ocr) return;
    const text = pageText(ocr, convert);
    const cited = citation?.() ?? '';
    navigator.clipboard.writeText(cited ? `${text}\n\n${cited}` : text).then(
      () => toast.success(cited ? '已复制全文与引用' : '已复制'),
      () => toast.error('无法写入剪贴板，请选中文字后手动复制'),
    );
  }, [ocr, convert, citation]);

  /** ← and → scroll the text while it can scroll that way; at its end they turn the page as elsewhere. */
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    const direction = event.key === 'ArrowLeft' ? -1 : event.key === 'ArrowRight' ? 1 : 0;
    if (direction !== 0 && canScroll(event.currentTarget, direction)) event.stopPropagation();
  };

  return (
    <div className="text-pane" data-view={textView.view}>
      <TextPaneBar
        textView={textView}
        simplified={simplified}
        onCopy={hasText ? copy : null}
        layoutZoom={{ percent, step: stepLayout }}
        onCorrect={
          hasText && onCorrect
            ? () => onCorrect(paneRef.current ? selectedKeys(paneRef.current, document.getSelection()) : [])
            : null
        }
      />
      <div
        ref={paneRef}
        className="text-pane-scroll"
        data-writing={reading ? textView.writing : undefined}
        role="region"
        aria-label={label}
        tabIndex={0}
        onKeyDown={onKeyDown}
        {...linkHandlers}
      >
        {!ocr || !hasText ? (
          <p className="text-pane-empty" role="status">
            {loading ? '正在加载文字…' : '本页暂无识别文字'}
          </p>
        ) : reading ? (
          <ReadingText
            ocr={ocr}
            convert={convert}
            hits={hits}
            writing={textView.writing}
            size={textView.size}
          />
        ) : (
          <LayoutText ocr={ocr} convert={convert} hits={hits} scale={scale} />
        )}
      </div>
    </div>
  );
}
