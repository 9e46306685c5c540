import { describe, expect, it } from 'vitest';
import { swipeMove } from './swipe.ts';

const at = (x: number, y: number, time: number) => ({ x, y, time });

describe('swiping a right-to-left book', () => {
  it('turns to the next page when the finger moves right, back when it moves left', () => {
    expect(swipeMove(at(100, 300, 0), at(260, 310, 200))).toBe('next');
    expect(swipeMove(at(300, 300, 0), at(120, 290, 200))).toBe('previous');
  });

  it('ignores short, slow or mostly vertical moves', () => {
    expect(swipeMove(at(100, 300, 0), at(130, 300, 100))).toBeNull();
    expect(swipeMove(at(100, 300, 0), at(300, 300, 2000))).toBeNull();
    expect(swipeMove(at(100, 100, 0), at(180, 300, 200))).toBeNull();
  });
});
