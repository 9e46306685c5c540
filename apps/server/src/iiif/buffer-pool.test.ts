import { describe, expect, it } from 'vitest';
import { BufferPool } from './buffer-pool.ts';

describe('scratch buffers lent to renders', () => {
  it('lends a buffer at least as large as asked, and the same one again once it is given back', () => {
    const pool = new BufferPool();
    const first = pool.take(100_000);
    expect(first.length).toBeGreaterThanOrEqual(100_000);
    expect(pool.take(10)).not.toBe(first);
    pool.give(first);
    expect(pool.take(90_000)).toBe(first);
  });

  it('never lends one buffer twice at a time, and gives back everything a piece of work took', () => {
    const pool = new BufferPool();
    const work = pool.lender();
    const a = work.take(1000);
    const b = work.take(1000);
    expect(a).not.toBe(b);
    work.giveBack();
    const next = pool.lender();
    const lent = [next.take(1000), next.take(1000), next.take(1000)];
    expect(new Set(lent).size).toBe(3);
    expect(lent).toEqual(expect.arrayContaining([a, b]));
  });

  it('keeps no more buffers, and none larger, than it was told', () => {
    const pool = new BufferPool(2, 1024 * 1024);
    const big = pool.take(2 * 1024 * 1024);
    pool.give(big);
    expect(pool.take(2 * 1024 * 1024)).not.toBe(big);
    const kept = [pool.take(10), pool.take(10), pool.take(10)];
    kept.forEach((buffer) => pool.give(buffer));
    const again = [pool.take(10), pool.take(10), pool.take(10)];
    expect(again.filter((buffer) => kept.includes(buffer))).toHaveLength(2);
  });
});
