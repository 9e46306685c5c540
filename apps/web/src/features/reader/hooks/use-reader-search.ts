/** In-book search in the reader (reading room only): the hits in the side panel, each occurrence framed in turn. */
import { useCallback, useMemo, useState } from 'react';
import type { NavigateFunction } from 'react-router';
import type { TextHit } from '@guji/shared';
import { readerPath } from '../../../lib/reader-url.ts';
import { usePageMatches } from '../queries.ts';
import { useHitNavigation } from './use-hit-navigation.ts';

export interface ReaderSearchOptions {
  catalogId: number;
  /** The page shown, if any (null while a volume loads). */
  shownImageId: number | null;
  /** Text a search found on this page, to frame on the image (from the address). */
  highlight: string | null;
  navigate: NavigateFunction;
  /** The address with the reader's view (mode, zoom) in it (useReaderZoom). */
  withView: (path: string) => string;
}

/**
 * The text searched for in the book (empty: no search), the stepping through its hits, and the boxes of
 * the occurrences on the page shown; opening a hit turns to its page with the text framed.
 */
export function useReaderSearch({
  catalogId,
  shownImageId,
  highlight,
  navigate,
  withView,
}: ReaderSearchOptions) {
  const [searchText, setSearchText] = useState('');
  const openHit = useCallback(
    (hit: TextHit) =>
      void navigate(
        withView(
          readerPath({
            catalogId,
            fascicleId: hit.fascicleId,
            directoryId: hit.directoryId,
            imageId: hit.imageId,
            highlight: searchText,
          }),
        ),
      ),
    [navigate, withView, catalogId, searchText],
  );
  const matches = usePageMatches(shownImageId, highlight);
  const hitNav = useHitNavigation(catalogId, searchText, shownImageId, matches.data?.matches, openHit);
  const highlights = useMemo(() => matches.data?.matches.flat() ?? [], [matches.data]);
  return { searchText, setSearchText, matches, hitNav, highlights };
}
