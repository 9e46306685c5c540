/** Stepping through the occurrences of an in-book search: within a page, then on to the next page found. */

/** Where a step leads: another occurrence on this page, a page of the hit list, or the next list page. */
export type HitStep =
  | { kind: 'occurrence'; index: number }
  | { kind: 'hit'; hitIndex: number; occurrence: 'first' | 'last' }
  | { kind: 'resultPage'; resultPage: number; occurrence: 'first' | 'last' }
  | null;

export interface HitPosition {
  /** The position of the page shown in the hit list (-1: not in it). */
  hitIndex: number;
  /** The occurrence visited on the page shown, and how many the page has. */
  occurrence: number;
  occurrences: number;
  hitCount: number;
  resultPage: number;
  resultPages: number;
}

export function nextHit(at: HitPosition): HitStep {
  if (at.hitIndex >= 0 && at.occurrence + 1 < at.occurrences)
    return { kind: 'occurrence', index: at.occurrence + 1 };
  if (at.hitIndex + 1 < at.hitCount) return { kind: 'hit', hitIndex: at.hitIndex + 1, occurrence: 'first' };
  if (at.resultPage < at.resultPages)
    return { kind: 'resultPage', resultPage: at.resultPage + 1, occurrence: 'first' };
  return null;
}

export function previousHit(at: HitPosition): HitStep {
  if (at.hitIndex >= 0 && at.occurrence > 0) return { kind: 'occurrence', index: at.occurrence - 1 };
  if (at.hitIndex > 0) return { kind: 'hit', hitIndex: at.hitIndex - 1, occurrence: 'last' };
  if (at.hitIndex < 0 && at.hitCount > 0)
    return { kind: 'hit', hitIndex: at.hitCount - 1, occurrence: 'last' };
  if (at.resultPage > 1) return { kind: 'resultPage', resultPage: at.resultPage - 1, occurrence: 'last' };
  return null;
}
