/** The reader's display mode and its zoom, kept apart for the image, the text and side by side. */
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ZOOM_LEVELS } from '@guji/shared';
import {
  INITIAL_ZOOM,
  stepZoom,
  viewFromParams,
  writeView,
  type DisplayMode,
  type ZoomByMode,
} from '../reader-navigation.ts';
import type { ZoomChoice } from '../reader-navigation.ts';

/**
 * The mode and the zoom chosen for it are kept in the address (`mode`, `zoom`), replaced in place as
 * they change, so a reload or a shared link opens the same view; a page turn keeps them.
 */
export function useReaderZoom() {
  const [params, setParams] = useSearchParams();
  const [initial] = useState(() => viewFromParams(params));
  const [mode, setMode] = useState<DisplayMode>(initial.mode);
  const [zoom, setZoom] = useState<ZoomByMode>({ ...INITIAL_ZOOM, [initial.mode]: initial.zoom });
  /** The percentage each mode shows now (a fitted page reports what fitting gave). */
  const [shown, setShown] = useState<Partial<Record<DisplayMode, number>>>({});
  const choice = zoom[mode];
  const shownPercent = typeof choice === 'number' ? choice : (shown[mode] ?? null);

  // The address follows the view (and gets it back after a page turn wrote a new address).
  const search = params.toString();
  useEffect(() => {
    const current = new URLSearchParams(search);
    const next = writeView(current, mode, choice);
    if (next.toString() !== current.toString()) setParams(next, { replace: true });
  }, [search, mode, choice, setParams]);

  /** The reader chose a zoom for the mode shown (menu, buttons, keys, wheel or pinch). */
  const choose = useCallback((next: ZoomChoice) => setZoom((old) => ({ ...old, [mode]: next })), [mode]);
  /** What the pane shows, reported after fitting or a gesture; does not change the choice. */
  const reportShown = useCallback(
    (percent: number) => setShown((old) => (old[mode] === percent ? old : { ...old, [mode]: percent })),
    [mode],
  );
  const changeZoom = useCallback(
    (direction: 'in' | 'out') => choose(stepZoom(shownPercent ?? ZOOM_LEVELS[0]!, direction)),
    [shownPercent, choose],
  );
  return { mode, setMode, zoom, choice, shownPercent, choose, reportShown, changeZoom };
}
