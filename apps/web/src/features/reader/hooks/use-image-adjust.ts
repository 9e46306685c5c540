/** How the page image is turned and toned for reading: rotation, brightness, contrast (issue 32 part 3). */
import { useCallback, useState } from 'react';

export interface ImageAdjust {
  /** Clockwise, in degrees: 0, 90, 180 or 270. */
  rotation: number;
  /** Percent of the scan's own: 100 leaves it as scanned. */
  brightness: number;
  contrast: number;
}

export const PLAIN_IMAGE: ImageAdjust = { rotation: 0, brightness: 100, contrast: 100 };
/** The range of the brightness and contrast sliders, in percent. */
export const TONE_RANGE = { min: 50, max: 200 } as const;

/** The CSS filter for a tone, or undefined when the scan is shown as it is. */
export function toneFilter(adjust: ImageAdjust): string | undefined {
  if (adjust.brightness === 100 && adjust.contrast === 100) return undefined;
  return `brightness(${adjust.brightness}%) contrast(${adjust.contrast}%)`;
}

/** The next quarter turn clockwise. */
export const turnRight = (rotation: number) => (rotation + 90) % 360;

/**
 * The reader's adjustments of the image. They belong to the reader's sitting, not the page: a faint
 * volume stays brightened from page to page; 复原 gives the scan back as it is.
 */
export function useImageAdjust() {
  const [adjust, setAdjust] = useState<ImageAdjust>(PLAIN_IMAGE);
  const rotate = useCallback(() => setAdjust((old) => ({ ...old, rotation: turnRight(old.rotation) })), []);
  const setTone = useCallback(
    (tone: Partial<Pick<ImageAdjust, 'brightness' | 'contrast'>>) =>
      setAdjust((old) => ({ ...old, ...tone })),
    [],
  );
  const reset = useCallback(() => setAdjust(PLAIN_IMAGE), []);
  return { adjust, rotate, setTone, reset };
}
