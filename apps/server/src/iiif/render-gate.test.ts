import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { RenderGate } from './render-gate.ts';

describe('RenderGate', () => {
  it('runs at most `concurrency` at once, the next in order, and refuses past the queue with 503', async () => {
    const gate = new RenderGate(2, 1);
    const releases: Array<() => void> = [];
    const started: number[] = [];
    const job = (n: number) =>
      gate.run(async () => {
        started.push(n);
        await new Promise<void>((resolve) => releases.push(resolve));
        return n;
      });
    const first = [job(1), job(2), job(3)];
    await Promise.resolve();
    expect(started).toEqual([1, 2]);
    expect(gate.load).toEqual({ running: 2, waiting: 1 });
    const refused = await job(4).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 503, code: 'IIIF_RENDER_BUSY', extra: { retryAfterSeconds: 5 } });
    releases.shift()!();
    await first[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2, 3]);
    expect(gate.load).toEqual({ running: 2, waiting: 0 });
    releases.forEach((release) => release());
    expect(await Promise.all(first)).toEqual([1, 2, 3]);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
    expect(gate.peak).toBe(2);
  });

  it('frees the slot when a render fails', async () => {
    const gate = new RenderGate(1, 0);
    await expect(gate.run(() => Promise.reject(new Error('bad image')))).rejects.toThrow('bad image');
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
    expect(await gate.run(() => Promise.resolve('ok'))).toBe('ok');
  });
});
