/** The reader's display mode and its zoom, kept apart for the image, the text and side by side. */
import { useCallback, useState } from 'react';
import { ZOOM_LEVELS } from '@guji/shared';
import { INITIAL_ZOOM, stepZoom, type DisplayMode, type ZoomByMode } from '../reader-navigation.ts';

export function useReaderZoom() {
  const [mode, setMode] = useState<DisplayMode>('image');
  const [zoom, setZoom] = useState<ZoomByMode>(INITIAL_ZOOM);
  const zoomPercent = zoom[mode];
  const setModeZoom = useCallback(
    (percent: number) => setZoom((old) => ({ ...old, [mode]: percent })),
    [mode],
  );
  // The image reports its zoom for the image and the side-by-side modes; hidden (text only) it is quiet.
  const setViewerZoom = useCallback(
    (percent: number) => {
      if (mode !== 'text') setZoom((old) => ({ ...old, [mode]: percent }));
    },
    [mode],
  );
  const changeZoom = useCallback(
    (direction: 'in' | 'out') => {
      const from = zoomPercent ?? ZOOM_LEVELS[0]!;
      setModeZoom(stepZoom(from, direction));
    },
    [zoomPercent, setModeZoom],
  );
  return { mode, setMode, zoom, zoomPercent, setModeZoom, setViewerZoom, changeZoom };
}
