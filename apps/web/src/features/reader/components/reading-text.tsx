import { memo } from 'react';
import type { OcrJson } from '@guji/shared';
import { noConvert } from '../../../components/book-text.tsx';
import type { TextConverter } from '../../language/index.ts';
import { wordKey, type WordKey } from '../text-links.ts';
import type { TextWriting } from '../text-view.ts';
import { charClassName, charText, charTitle } from './text-chars.ts';

export interface ReadingTextProps {
  ocr: OcrJson;
  /** The t→s converter while 「简体显示」 is on; null shows the text as recorded. */
  convert: TextConverter | null;
  /** Characters a search found on this page. */
  hits: ReadonlySet<WordKey>;
  writing: TextWriting;
  /** Main text size in CSS px; notes are smaller, as on the page. */
  size: number;
}

/**
 * 阅读: the page's recognised text as reading text, one column of the page a line, in reading order,
 * notes (小注) in smaller type, unsure characters coloured (spec §9). Vertical lines run right to left.
 */
export const ReadingText = memo(function ReadingText({
  ocr,
  convert,
  hits,
  writing,
  size,
}: ReadingTextProps) {
  return (
    <div
      className="text-pane-body reading-text"
      data-writing={writing}
      lang={convert ? 'zh-Hans' : 'zh-Hant'}
      {...noConvert}
      style={{ fontSize: size }}
    >
      {ocr.ocr_res.content.map((line, l) => (
        <div key={l} className="reading-line">
          {line.words.map((word, w) => {
            const key = wordKey(l, w);
            return (
              <span
                key={w}
                data-word={key}
                className={charClassName('reading-char', word, hits.has(key))}
                title={charTitle(word)}
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
