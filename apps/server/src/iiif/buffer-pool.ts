/**
 * Scratch buffers reused from one render to the next (issue 34). A never-seen region reads two rows of
 * tiles and writes the JPEG it decodes, ~300 KB a request; as fresh Buffers that memory is counted by V8
 * as external and, at a few hundred renders a second, set off a full garbage collection several times a
 * second. Buffers are lent for the length of one render and given back when its pipeline is done.
 */
export class BufferPool {
  private readonly free: Buffer[] = [];

  /**
   * @param maxKept how many free buffers are kept for the next renders
   * @param maxBytes the largest buffer kept; a larger one is left to the garbage collector
   */
  constructor(
    private readonly maxKept = 8,
    private readonly maxBytes = 4 * 1024 * 1024,
  ) {}

  /** A buffer of at least `size` bytes (its contents are whatever the last user left). */
  take(size: number): Buffer {
    const at = this.free.findIndex((buffer) => buffer.length >= size);
    if (at !== -1) return this.free.splice(at, 1)[0]!;
    // Round up so that a buffer fits the next, slightly larger request too.
    return Buffer.allocUnsafeSlow(Math.max(64 * 1024, 2 ** Math.ceil(Math.log2(size))));
  }

  /** Gives a buffer back; nothing may read or write it afterwards. */
  give(buffer: Buffer): void {
    if (buffer.length > this.maxBytes || this.free.length >= this.maxKept) return;
    this.free.push(buffer);
  }

  /** A lender for one piece of work: `take` as above, `giveBack` returns everything it lent. */
  lender(): { take: (size: number) => Buffer; giveBack: () => void } {
    const lent: Buffer[] = [];
    return {
      take: (size) => {
        const buffer = this.take(size);
        lent.push(buffer);
        return buffer;
      },
      giveBack: () => {
        for (const buffer of lent.splice(0)) this.give(buffer);
      },
    };
  }
}
