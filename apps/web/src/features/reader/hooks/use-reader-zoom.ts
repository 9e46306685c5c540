/** The reader's display mode and its zoom, kept apart for the image, the text and side by side. */
import { useCallback, useState } from 'react';
import { ZOOM_LEVELS } from '@guji/shared';
import {
  INITIAL_ZOOM,
  stepZoom,
  type DisplayMode,
  type ZoomByMode,
  type ZoomChoice,
} from '../reader-navigation.ts';

export function useReaderZoom() {
  const [mode, setMode] = useState<DisplayMode>('image');
  const [zoom, setZoom] = useState<ZoomByMode>(INITIAL_ZOOM);
  /** The percentage each mode shows now (a fitted page reports what fitting gave). */
  const [shown, setShown] = useState<Partial<Record<DisplayMode, number>>>({});
  const choice = zoom[mode];
  const shownPercent = typeof choice === 'number' ? choice : (shown[mode] ?? null);

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
