/** Links the characters of the text pane and the page image: hover, tap and selection in either. */
import { useCallback, useMemo, useState } from 'react';
import type { OcrJson, OcrPoints } from '@guji/shared';
import { wordAtPoint, wordBox, type WordKey } from '../text-links.ts';

interface PageKeys<T> {
  imageId: number | null;
  value: T;
}

/**
 * The character linked between the panes (hovered or tapped in either) and the characters selected in
 * the text, for the page `imageId` with text `ocr` (null: no text shown, nothing is linked). Both are
 * forgotten when the page changes.
 */
export function useCharacterLinks(ocr: OcrJson | null, imageId: number | null) {
  const [linkedState, setLinkedState] = useState<PageKeys<WordKey | null>>({ imageId: null, value: null });
  const [selectedState, setSelectedState] = useState<PageKeys<WordKey[]>>({ imageId: null, value: [] });
  const linked = ocr && linkedState.imageId === imageId ? linkedState.value : null;
  const selected = useMemo(
    () => (ocr && selectedState.imageId === imageId ? selectedState.value : []),
    [ocr, selectedState, imageId],
  );

  const setLinked = useCallback(
    (key: WordKey | null) =>
      setLinkedState((old) => (old.imageId === imageId && old.value === key ? old : { imageId, value: key })),
    [imageId],
  );
  const setSelected = useCallback((keys: WordKey[]) => setSelectedState({ imageId, value: keys }), [imageId]);
  /** The pointer over the image (image pixels): the character under it, if any, becomes the linked one. */
  const pointAt = useCallback(
    (point: { x: number; y: number } | null) => setLinked(point && ocr ? wordAtPoint(ocr, point) : null),
    [ocr, setLinked],
  );

  const linkBox = useMemo(() => (ocr && linked ? wordBox(ocr, linked) : null), [ocr, linked]);
  const selectedBoxes = useMemo<OcrPoints[]>(
    () => (ocr ? selected.flatMap((key) => wordBox(ocr, key) ?? []) : []),
    [ocr, selected],
  );
  return { linked, setLinked, setSelected, pointAt, linkBox, selectedBoxes };
}
