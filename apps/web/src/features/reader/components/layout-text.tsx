import { memo } from 'react';
import type { OcrJson } from '@guji/shared';
import { noConvert } from '../../../components/book-text.tsx';
import type { TextConverter } from '../../language/index.ts';
import { wordKey, type WordKey } from '../text-links.ts';
import { charClassName, charText, charTitle, OCR_FONT_SCALE } from './text-chars.ts';

export interface LayoutTextProps {
  ocr: OcrJson;
  /** The t→s converter while 「简体显示」 is on; null shows the text as recorded. */
  convert: TextConverter | null;
  /** Characters a search found on this page. */
  hits: ReadonlySet<WordKey>;
  /** The zoom: 1 draws the page at its own size in image pixels. */
  scale: number;
}

/**
 * 版式: the page's recognised characters where they stand on the page, each at 0.7 of its measured
 * size (spec §9), unsure ones coloured. The DOM holds the columns in reading order, so a selection
 * copies as text in reading order.
 */
export const LayoutText = memo(function LayoutText({ ocr, convert, hits, scale }: LayoutTextProps) {
  return (
    <div
      className="text-pane-body layout-sheet"
      lang={convert ? 'zh-Hans' : 'zh-Hant'}
      {...noConvert}
      style={{ width: ocr.imginfo.width * scale, height: ocr.imginfo.height * scale }}
    >
      {ocr.ocr_res.content.map((line, l) => (
        <div key={l} className="layout-column">
          {line.words.map((word, w) => {
            const key = wordKey(l, w);
            const { left, top, right, bottom } = word.points;
            return (
              <span
                key={w}
                data-word={key}
                className={charClassName('layout-char', word, hits.has(key))}
                title={charTitle(word)}
                style={{
                  left: left * scale,
                  top: top * scale,
                  width: (right - left) * scale,
                  height: (bottom - top) * scale,
                  fontSize: Math.max(4, word.fontSize * OCR_FONT_SCALE * scale),
                }}
              >
                {charText(word, convert)}
              </span>
            );
          })}
        </div>
      ))}
    </div>
  );
});
