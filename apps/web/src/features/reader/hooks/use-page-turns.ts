/** Turning the reader's pages and volumes: each turn is an address of its own. */
import { useCallback, useEffect, useRef } from 'react';
import { useLocation, type NavigateFunction } from 'react-router';
import type { ReaderData } from '@guji/shared';
import { readerPath } from '../../../lib/reader-url.ts';
import { currentEntry } from '../directory.ts';
import { movePage, TurnOrigin, type PageMove } from '../reader-navigation.ts';

export interface PageTurnOptions {
  data: ReaderData;
  /** True while another volume loads: pages do not turn. */
  loadingVolume: boolean;
  pageNumber: number;
  /** Pages a turn moves: 2 in a spread. */
  step: number;
  navigate: NavigateFunction;
  /** The address with the reader's view (mode, zoom) in it (useReaderZoom). */
  withView: (path: string) => string;
}

/**
 * Goes to a page of this volume (`goToPage`, optionally opening a directory entry), a move from the page
 * shown (`move`: next, previous, first, last) or another volume (`openVolume`). Each turn is a history
 * entry, so Back returns to the last page.
 */
export function usePageTurns({ data, loadingVolume, pageNumber, step, navigate, withView }: PageTurnOptions) {
  const { book, volume, directory, pages } = data;
  const total = pages.length;
  // The page shown or already asked for: keys pressed before the next render turn from there. Each turn's
  // history entry carries its id, so a render of a page on the way does not move the origin back.
  const location = useLocation();
  const turnId = (location.state as { turn?: unknown } | null)?.turn;
  const origin = useRef<TurnOrigin>(null);
  origin.current ??= new TurnOrigin(pageNumber);
  useEffect(() => {
    origin.current?.shown(pageNumber, typeof turnId === 'number' ? turnId : undefined);
  }, [pageNumber, turnId, location.key]);

  const goToPage = useCallback(
    (target: number, entryId?: number) => {
      const next = pages[target - 1];
      if (!next || loadingVolume) return;
      const turns = origin.current!;
      if (target === turns.page && entryId === undefined) return;
      const turn = turns.ask(target);
      void navigate(
        withView(
          readerPath({
            catalogId: book.catalogId,
            fascicleId: volume.fascicleId,
            directoryId: entryId ?? currentEntry(directory, target)?.directoryId ?? null,
            imageId: next.imageId,
          }),
        ),
        { replace: false, state: { turn } },
      );
    },
    [pages, loadingVolume, navigate, withView, book.catalogId, volume.fascicleId, directory],
  );
  const move = useCallback(
    (how: PageMove) => goToPage(movePage(how, origin.current!.page, total, step)),
    [goToPage, total, step],
  );
  const openVolume = (fascicleId: number) =>
    void navigate(withView(readerPath({ catalogId: book.catalogId, fascicleId })), { replace: false });
  return { goToPage, move, openVolume };
}
