import { useCallback, useMemo, useRef } from 'react';
import type { OcrJson, OcrPoints } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { useLayoutZoom } from '../hooks/use-layout-zoom.ts';
import { usePaneSimplified } from '../hooks/use-pane-simplified.ts';
import { selectedKeys, useTextPaneLinks } from '../hooks/use-text-pane-links.ts';
import { scrollTextKeys, useTextPaneScroll } from '../hooks/use-text-pane-scroll.ts';
import { useTextView } from '../hooks/use-text-view.ts';
import type { TextConverter } from '../../language/index.ts';
import { wordsInBoxes, type WordKey } from '../text-links.ts';
import { LayoutText } from './layout-text.tsx';
import { ReadingText } from './reading-text.tsx';
import { pageText } from './text-chars.ts';
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

  const layoutZoom = useLayoutZoom(paneRef, ocr, zoomPercent, onZoomChange);
  const scale = layoutZoom.percent / 100;
  useTextPaneScroll(paneRef, ocr, { reading, vertical, layoutScale: reading ? null : scale });

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

  const copy = usePageCopy(ocr, convert, citation);

  return (
    <div className="text-pane" data-view={textView.view}>
      <TextPaneBar
        textView={textView}
        simplified={simplified}
        onCopy={hasText ? copy : null}
        layoutZoom={layoutZoom}
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
        onKeyDown={scrollTextKeys}
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

/** 复制全文: the page's text in reading order, then its citation, as the pane shows it (简体 or not). */
function usePageCopy(
  ocr: OcrJson | null,
  convert: TextConverter | null,
  citation: (() => string) | undefined,
) {
  return useCallback(() => {
    if (!ocr) return;
    const text = pageText(ocr, convert);
    const cited = citation?.() ?? '';
    navigator.clipboard.writeText(cited ? `${text}\n\n${cited}` : text).then(
      () => toast.success(cited ? '已复制全文与引用' : '已复制'),
      () => toast.error('无法写入剪贴板，请选中文字后手动复制'),
    );
  }, [ocr, convert, citation]);
}
