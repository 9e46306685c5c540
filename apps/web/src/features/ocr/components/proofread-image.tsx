import { useMemo } from 'react';
import type { OcrJson } from '@guji/shared';
import { confidenceClass } from '../../reader/index.ts';
import type { CellRef } from '../ocr-edit.ts';

/**
 * The proofread page's image with a button over each recognised character's box, so a character is
 * picked on the page as well as in the text; the selected one is marked.
 */
export function ProofreadImage({
  imageId,
  pageNumber,
  draft,
  selected,
  onSelect,
}: {
  imageId: number;
  pageNumber: number;
  draft: OcrJson;
  selected: CellRef | null;
  onSelect: (cell: CellRef) => void;
}) {
  const { width, height } = draft.imginfo;
  const boxes = useMemo(
    () =>
      draft.ocr_res.content.flatMap((line, l) =>
        line.words.map((word, i) => ({ word, cell: { line: l, index: i } })),
      ),
    [draft],
  );
  return (
    <section className="ocr-page-image" aria-label="页面图像与文字框">
      <div className="ocr-page-figure" style={{ aspectRatio: `${width} / ${height}` }}>
        <img src={`/iiif/3/${imageId}/full/!1200,1200/0/default.jpg`} alt={`第 ${pageNumber} 页图像`} />
        {boxes.map(({ word, cell }) => (
          <button
            key={`${cell.line}-${cell.index}`}
            type="button"
            className={[
              'ocr-box',
              selected?.line === cell.line && selected.index === cell.index ? 'ocr-box-selected' : '',
              confidenceClass(word.confidence) ?? '',
            ].join(' ')}
            aria-label={`第 ${cell.line + 1} 列第 ${cell.index + 1} 字的框`}
            style={{
              left: `${(word.points.left / width) * 100}%`,
              top: `${(word.points.top / height) * 100}%`,
              width: `${((word.points.right - word.points.left) / width) * 100}%`,
              height: `${((word.points.bottom - word.points.top) / height) * 100}%`,
            }}
            onClick={() => onSelect(cell)}
          />
        ))}
      </div>
    </section>
  );
}
