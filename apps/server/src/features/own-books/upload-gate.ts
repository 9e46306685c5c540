import { randomUUID } from 'node:crypto';
import { MSG } from '@guji/shared';
import { tooMany } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { UploadSlotRepository } from './upload-slot.repository.ts';

/** Uploads (zips, page images, import packages) one user may have in progress at once. */
export const UPLOADS_PER_USER = 2;
/** How long a slot stays held without a renewal: what a process that died mid-upload costs its user. */
export const UPLOAD_LEASE_MS = 60_000;

export interface UploadGateOptions {
  perUser: number;
  leaseMs: number;
  /** How often a running upload renews its lease (a third of the lease by default). */
  renewEveryMs: number;
}

/**
 * Counts each user's uploads in progress across every process (slots in the database, issue 17) and refuses
 * one more than `UPLOADS_PER_USER` with 429, so one account cannot tie up the disk, memory and CPU with many
 * parallel uploads (DESIGN.md §8). A running upload renews its slot's lease; a crashed process's slot frees
 * itself when the lease ends.
 */
export class UploadGate {
  private readonly options: UploadGateOptions;

  constructor(
    private readonly slots: UploadSlotRepository,
    private readonly clock: Clock,
    options: Partial<UploadGateOptions> = {},
  ) {
    const leaseMs = options.leaseMs ?? UPLOAD_LEASE_MS;
    this.options = {
      perUser: options.perUser ?? UPLOADS_PER_USER,
      leaseMs,
      renewEveryMs: options.renewEveryMs ?? Math.floor(leaseMs / 3),
    };
  }

  /** Takes a slot for the user, or throws 429; call the returned function when the upload is over. */
  async enter(userId: number): Promise<() => Promise<void>> {
    const { perUser, leaseMs, renewEveryMs } = this.options;
    const holder = randomUUID();
    for (let slot = 0; slot < perUser; slot++) {
      const now = this.clock.now().getTime();
      if (!(await this.slots.claim(userId, slot, holder, now, now + leaseMs))) continue;
      const timer = setInterval(() => {
        const expiresAt = this.clock.now().getTime() + leaseMs;
        // A failed renewal (database briefly away) is retried at the next tick; the lease outlives two.
        this.slots.renew(userId, slot, holder, expiresAt).catch(() => undefined);
      }, renewEveryMs);
      timer.unref();
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        clearInterval(timer);
        await this.slots.release(userId, slot, holder);
      };
    }
    throw tooMany(MSG.uploadBusy, 10);
  }

  /** Runs an upload inside a slot. */
  async run<T>(userId: number, work: () => Promise<T>): Promise<T> {
    const release = await this.enter(userId);
    try {
      return await work();
    } finally {
      // Not giving the slot back (database away) must not hide the upload's own outcome: the lease ends it.
      await release().catch(() => undefined);
    }
  }

  /** Uploads the user has in progress in any process (for tests and monitoring). */
  inProgress(userId: number): Promise<number> {
    return this.slots.held(userId, this.clock.now().getTime());
  }
}
