import type { DbOrTx } from '../db/database.ts';
import type { JobRepository } from './job.repository.ts';
import { RETRY, type JobDataMap, type JobName } from './registry.ts';
import { currentRequestId } from '../lib/request-context.ts';

/** Enqueues typed jobs; wakes the in-process worker when there is one. */
export class JobQueue {
  private listener: (() => void) | undefined;

  constructor(private readonly jobs: JobRepository) {}

  /** How many jobs are in each state (the health check's figures). */
  countByStatus(): ReturnType<JobRepository['countByStatus']> {
    return this.jobs.countByStatus();
  }

  onEnqueue(listener: () => void): void {
    this.listener = listener;
  }

  async enqueue<N extends JobName>(
    name: N,
    data: JobDataMap[N],
    /** `tx`: the change the job belongs to; it is queued only if that change commits. */
    options: { maxAttempts?: number; dedupeKey?: string; runAt?: string; tx: DbOrTx },
  ): Promise<number> {
    const requestId = currentRequestId();
    const id = await this.jobs.enqueue(
      {
        name,
        data,
        maxAttempts: options.maxAttempts ?? RETRY.defaultMaxAttempts,
        ...(options.dedupeKey ? { dedupeKey: options.dedupeKey } : {}),
        ...(options.runAt ? { runAt: options.runAt } : {}),
        ...(requestId ? { requestId } : {}),
      },
      options.tx,
    );
    this.listener?.();
    return id;
  }
}
