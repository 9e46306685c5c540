import { describe, expect, it } from 'vitest';
import { nextHit, previousHit, type HitPosition } from './hit-steps.ts';

const at = (overrides: Partial<HitPosition>): HitPosition => ({
  hitIndex: 0,
  occurrence: 0,
  occurrences: 1,
  hitCount: 3,
  resultPage: 1,
  resultPages: 1,
  ...overrides,
});

describe('stepping through in-book search hits', () => {
  it('visits every occurrence on a page before turning to the next page found', () => {
    expect(nextHit(at({ occurrences: 3, occurrence: 1 }))).toEqual({ kind: 'occurrence', index: 2 });
    expect(nextHit(at({ occurrences: 3, occurrence: 2 }))).toEqual({
      kind: 'hit',
      hitIndex: 1,
      occurrence: 'first',
    });
  });

  it('goes back to the last occurrence of the page before', () => {
    expect(previousHit(at({ hitIndex: 2, occurrence: 0 }))).toEqual({
      kind: 'hit',
      hitIndex: 1,
      occurrence: 'last',
    });
    expect(previousHit(at({ hitIndex: 2, occurrence: 1, occurrences: 2 }))).toEqual({
      kind: 'occurrence',
      index: 0,
    });
  });

  it('moves on to the next or previous page of results at the ends of the list', () => {
    expect(nextHit(at({ hitIndex: 2, resultPages: 2 }))).toEqual({
      kind: 'resultPage',
      resultPage: 2,
      occurrence: 'first',
    });
    expect(previousHit(at({ hitIndex: 0, resultPage: 2, resultPages: 2 }))).toEqual({
      kind: 'resultPage',
      resultPage: 1,
      occurrence: 'last',
    });
  });

  it('stops at the first and the last occurrence of the whole search', () => {
    expect(nextHit(at({ hitIndex: 2 }))).toBeNull();
    expect(previousHit(at({ hitIndex: 0 }))).toBeNull();
  });

  it('starts from the list when the page shown is not one of its hits', () => {
    expect(nextHit(at({ hitIndex: -1 }))).toEqual({ kind: 'hit', hitIndex: 0, occurrence: 'first' });
    expect(previousHit(at({ hitIndex: -1 }))).toEqual({ kind: 'hit', hitIndex: 2, occurrence: 'last' });
  });
});
