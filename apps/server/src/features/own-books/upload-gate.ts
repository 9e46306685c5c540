import { MSG } from '@guji/shared';
import { tooMany } from '../../errors.ts';

/** Uploads (zips, page images, import packages) one user may have in progress at once. */
export const UPLOADS_PER_USER = 2;

/**
 * Counts each user's uploads in progress in this process and refuses one more than
 * `UPLOADS_PER_USER` with 429, so one account cannot tie up the disk, memory and CPU with many
 * parallel uploads (DESIGN.md §8).
 */
export class UploadGate {
  private readonly running = new Map<number, number>();

  constructor(private readonly perUser = UPLOADS_PER_USER) {}

  /** Takes a slot for the user, or throws 429; call the returned function when the upload is over. */
  enter(userId: number): () => void {
    const now = this.running.get(userId) ?? 0;
    if (now >= this.perUser) throw tooMany(MSG.uploadBusy, 10);
    this.running.set(userId, now + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(userId) ?? 1) - 1;
      if (left <= 0) this.running.delete(userId);
      else this.running.set(userId, left);
    };
  }

  /** Runs an upload inside a slot. */
  async run<T>(userId: number, work: () => Promise<T>): Promise<T> {
    const release = this.enter(userId);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Uploads the user has in progress (for tests and monitoring). */
  inProgress(userId: number): number {
    return this.running.get(userId) ?? 0;
  }
}
