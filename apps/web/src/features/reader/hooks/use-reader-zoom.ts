/** The reader's display mode and its zoom, kept apart for the image, the text and side by side. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
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
 * The mode and the zoom chosen for it are kept in the address (`mode`, `zoom`), so a reload or a shared
 * link opens the same view. A page turn carries them in its own address (`withView`); the address is
 * replaced in place only when the reader changes the view, never after a turn (where it could race it).
 */
export function useReaderZoom() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [initial] = useState(() => viewFromParams(params));
  const [mode, setMode] = useState<DisplayMode>(initial.mode);
  const [zoom, setZoom] = useState<ZoomByMode>({ ...INITIAL_ZOOM, [initial.mode]: initial.zoom });
  /** The percentage each mode shows now (a fitted page reports what fitting gave). */
  const [shown, setShown] = useState<Partial<Record<DisplayMode, number>>>({});
  const choice = zoom[mode];
  const shownPercent = typeof choice === 'number' ? choice : (shown[mode] ?? null);

  // The view changed: the address shown now (which a turn may have just pushed) gets it, in place.
  const written = useRef({ mode, choice });
  useEffect(() => {
    if (written.current.mode === mode && written.current.choice === choice) return;
    written.current = { mode, choice };
    const current = new URLSearchParams(window.location.search);
    const next = writeView(current, mode, choice);
    if (next.toString() !== current.toString()) {
      void navigate(`${window.location.pathname}?${next.toString()}`, { replace: true });
    }
  }, [mode, choice, navigate]);

  /** A reader address with this view in it (for page turns, volume changes and hits). */
  const withView = useCallback(
    (path: string) => {
      const [pathname, query = ''] = path.split('?');
      return `${pathname}?${writeView(new URLSearchParams(query), mode, choice).toString()}`;
    },
    [mode, choice],
  );

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
  return { mode, setMode, zoom, choice, shownPercent, choose, reportShown, changeZoom, withView };
}
