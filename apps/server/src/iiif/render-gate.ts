import { AppError } from '../errors.ts';

/** How long a client refused for a full queue is asked to wait. */
export const RENDER_BUSY_RETRY_SECONDS = 5;

/**
 * Bounds the IIIF renders (decode, scale, rotate, encode with sharp) that run at once in a process.
 * Each sharp pipeline holds one thread of libuv's pool (4 by default), the pool that file reads use
 * too: unbounded renders would make stored tiles and cache hits, which only read a file, wait for
 * them. At most `concurrency` renders run; up to `queue` more wait in order; beyond that a render is
 * refused at once with 503 and Retry-After. Only renders pass through the gate.
 */
export class RenderGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /** The most renders that ran at once (for tests and benchmarks). */
  peak = 0;

  constructor(
    readonly concurrency = 2,
    readonly queue = 16,
  ) {}

  /** Renders running now and waiting for a slot. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queue)
        throw new AppError(503, 'IIIF_RENDER_BUSY', '图像渲染繁忙，请稍后再试（浏览图块不受影响）', {
          retryAfterSeconds: RENDER_BUSY_RETRY_SECONDS,
        });
      // The slot is handed over by the render that finishes (running stays counted).
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    this.peak = Math.max(this.peak, this.running);
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
