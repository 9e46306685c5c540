/** A quick horizontal swipe on a touch screen turns the page (only while the page is fitted). */

export interface SwipeSample {
  x: number;
  y: number;
  time: number;
}

/** Shortest travel, in CSS pixels, that counts as a swipe. */
export const SWIPE_MIN_DISTANCE = 50;
/** Longest a swipe may take, in milliseconds; slower is a pan. */
export const SWIPE_MAX_DURATION = 800;

/**
 * The page move of a touch that went from `start` to `end`, or null. The book reads right to left, so
 * the next page lies to the left: a finger drawn to the right pulls the next page in.
 */
export function swipeMove(start: SwipeSample, end: SwipeSample): 'next' | 'previous' | null {
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  if (end.time - start.time > SWIPE_MAX_DURATION) return null;
  if (Math.abs(dx) < SWIPE_MIN_DISTANCE || Math.abs(dx) < 1.5 * Math.abs(dy)) return null;
  return dx > 0 ? 'next' : 'previous';
}
