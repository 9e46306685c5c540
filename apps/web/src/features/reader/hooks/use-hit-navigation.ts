import { useCallback, useEffect, useMemo, useState } from 'react';
import { PAGE_SIZES, type OcrPoints, type TextHit } from '@guji/shared';
import { useInBookSearch } from '../../catalog/index.ts';
import { nextHit, previousHit, type HitStep } from '../hit-steps.ts';

interface Focus {
  imageId: number;
  occurrence: number | 'last';
}

export interface HitNavigation {
  /** The hit list's page (8 hits a page). */
  resultPage: number;
  setResultPage: (page: number) => void;
  /** The occurrence visited on the page shown (0-based) and its boxes, framed and brought into view. */
  occurrence: number;
  focusBoxes: readonly OcrPoints[] | undefined;
  /** Opens a hit of the list at its first occurrence. */
  open: (hit: TextHit) => void;
  next: (() => void) | null;
  previous: (() => void) | null;
}

/**
 * `matches` are the occurrences on the page shown (from the page's match boxes); `openHit` turns to a
 * hit's page with the search text framed.
 */
export function useHitNavigation(
  catalogId: number,
  text: string,
  imageId: number | null,
  matches: readonly (readonly OcrPoints[])[] | undefined,
  openHit: (hit: TextHit) => void,
): HitNavigation {
  const [resultPage, setResultPageState] = useState(1);
  const [focus, setFocus] = useState<Focus | null>(null);
  /** A step that waits for the next or previous page of results to arrive. */
  const [pending, setPending] = useState<'first' | 'last' | null>(null);
  const results = useInBookSearch(catalogId, text, resultPage);
  useEffect(() => {
    setResultPageState(1);
    setFocus(null);
  }, [text]);

  const hits = useMemo(
    () => (results.isPlaceholderData ? [] : (results.data?.records ?? [])),
    [results.isPlaceholderData, results.data],
  );
  const count = matches?.length ?? 0;
  const wanted = focus && focus.imageId === imageId ? focus.occurrence : 0;
  const occurrence = wanted === 'last' ? Math.max(0, count - 1) : Math.min(wanted, Math.max(0, count - 1));
  const focusBoxes = text && count > 0 ? matches?.[occurrence] : undefined;

  const openAt = useCallback(
    (hit: TextHit, at: 'first' | 'last') => {
      setFocus({ imageId: hit.imageId, occurrence: at === 'first' ? 0 : 'last' });
      openHit(hit);
    },
    [openHit],
  );
  useEffect(() => {
    if (!pending || hits.length === 0) return;
    setPending(null);
    openAt(pending === 'first' ? hits[0]! : hits[hits.length - 1]!, pending);
  }, [pending, hits, openAt]);

  const position = {
    hitIndex: hits.findIndex((hit) => hit.imageId === imageId),
    occurrence,
    occurrences: count,
    hitCount: hits.length,
    resultPage,
    resultPages: Math.ceil((results.data?.total ?? 0) / PAGE_SIZES.advanced),
  };
  const go = (step: HitStep) => {
    if (!step) return null;
    return () => {
      if (step.kind === 'occurrence' && imageId != null) setFocus({ imageId, occurrence: step.index });
      else if (step.kind === 'hit') openAt(hits[step.hitIndex]!, step.occurrence);
      else if (step.kind === 'resultPage') {
        setResultPageState(step.resultPage);
        setPending(step.occurrence);
      }
    };
  };
  return {
    resultPage,
    setResultPage: setResultPageState,
    occurrence,
    focusBoxes,
    open: (hit) => openAt(hit, 'first'),
    next: text && hits.length > 0 ? go(nextHit(position)) : null,
    previous: text && hits.length > 0 ? go(previousHit(position)) : null,
  };
}
