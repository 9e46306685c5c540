/** Full screen for the reader: the page and its tools fill the screen (the browser's Esc leaves it). */
import { useCallback, useEffect, useState, type RefObject } from 'react';

export function useFullScreen(target: RefObject<HTMLElement | null>) {
  const [full, setFull] = useState(false);
  useEffect(() => {
    const sync = () =>
      setFull(document.fullscreenElement != null && document.fullscreenElement === target.current);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, [target]);
  /** Whether this browser lets a page take the full screen (an iPhone's Safari does not). */
  const supported = typeof document !== 'undefined' && document.fullscreenEnabled;
  const toggle = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void target.current?.requestFullscreen().catch(() => undefined);
  }, [target]);
  return { full, supported, toggle };
}
