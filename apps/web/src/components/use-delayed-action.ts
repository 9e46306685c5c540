import { useCallback, useEffect, useRef } from 'react';

/**
 * Runs an action after a delay (the spec's 1–2 s redirects after a success message), and cancels
 * it if the component goes away first.
 */
export function useDelayedAction(): (action: () => void, delayMs: number) => void {
  const timers = useRef(new Set<number>());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      pending.forEach((timer) => window.clearTimeout(timer));
      pending.clear();
    };
  }, []);
  return useCallback((action: () => void, delayMs: number) => {
    const timer = window.setTimeout(() => {
      timers.current.delete(timer);
      action();
    }, delayMs);
    timers.current.add(timer);
  }, []);
}
