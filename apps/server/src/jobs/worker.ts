import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { JobRepository } from './job.repository.ts';
import { nowIso, type DbOrTx } from '../db/database.ts';
import { backoffDelayMs, RETRY } from './registry.ts';

export interface JobContext {
  jobId: number;
  attempt: number;
  /** Reports progress 0–100 with an optional message; also tells the queue this worker is alive. */
  progress(percent: number, message?: string): Promise<void>;
  /**
   * Marks the job succeeded with `result` inside the caller's transaction, so the job's effect and its
   * completion commit together; throws (rolling the transaction back) when another worker holds the job.
   */
  completeIn(tx: DbOrTx, result: unknown): Promise<void>;
}

/** How a job ended, for the duration histogram. */
export type JobOutcome = 'succeeded' | 'failed';

/** What the worker reports of each job it runs (features/metrics implements it). */
export interface JobObserver {
  jobFinished(kind: string, outcome: JobOutcome, seconds: number): void;
}

export type JobHandler<D> = (data: D, context: JobContext) => Promise<unknown>;
export type JobHandlers<M> = { [K in keyof M]: JobHandler<M[K]> };

export interface WorkerOptions {
  pollIntervalMs?: number;
  /** A running job whose worker has not reported for this long is taken over by another worker. */
  leaseMs?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Told how long each job took and how it ended (the process's metrics). */
  observer?: JobObserver;
}

/** Works jobs from the durable queue, one at a time, until stopped. */
export class JobWorker<M extends object> {
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly observer: JobObserver | undefined;

  constructor(
    private readonly jobs: JobRepository,
    private readonly handlers: JobHandlers<M>,
    private readonly log: FastifyBaseLogger,
    options: WorkerOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 10 * 60_000;
    this.baseDelayMs = options.baseDelayMs ?? RETRY.baseDelayMs;
    this.maxDelayMs = options.maxDelayMs ?? RETRY.maxDelayMs;
    this.observer = options.observer;
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Asks the loop to look for work now (after an enqueue in this process). */
  notify(): void {
    this.wake?.();
  }

  /** Stops taking jobs and waits for the current one to finish. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  /** Claims and runs one job; false when none was due. Exposed for the `worker --once` command and tests. */
  async runOnce(): Promise<boolean> {
    const now = new Date();
    const job = await this.jobs.claim(this.id, nowIso(now), nowIso(new Date(now.getTime() - this.leaseMs)));
    if (!job) return false;
    const handler = (this.handlers as Record<string, JobHandler<unknown> | undefined>)[job.name];
    const log = this.log.child({
      jobId: job.id,
      job: job.name,
      attempt: job.attempts,
      ...(job.request_id ? { reqId: job.request_id } : {}),
    });
    if (!handler) {
      await this.jobs.fail(job.id, this.id, `没有名为 ${job.name} 的任务处理程序`, null);
      log.error('no handler for job');
      return true;
    }
    const context: JobContext = {
      jobId: job.id,
      attempt: job.attempts,
      progress: (percent, message) =>
        this.jobs.reportProgress(
          job.id,
          this.id,
          Math.max(0, Math.min(100, Math.round(percent))),
          message ?? null,
        ),
      completeIn: async (tx, result) => {
        if (!(await this.jobs.complete(job.id, this.id, result, tx)))
          throw new Error('任务已由其他后台进程接手');
      },
    };
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    // A live worker keeps its lease however long the job takes (an OCR of a large leaf, a slow store):
    // only a worker that died, or cannot reach the database, has its job taken over.
    const heartbeat = setInterval(
      () => {
        this.jobs.renewLease(job.id, this.id).catch((error: unknown) => {
          log.warn({ err: error }, 'job lease not renewed');
        });
      },
      Math.max(100, Math.floor(this.leaseMs / 3)),
    );
    try {
      const result = await handler(JSON.parse(job.data) as unknown, context);
      await this.jobs.finish(job.id, this.id, result);
      this.observer?.jobFinished(job.name, 'succeeded', seconds());
      log.info('job succeeded');
    } catch (error) {
      this.observer?.jobFinished(job.name, 'failed', seconds());
      const reason = error instanceof Error ? error.message : String(error);
      const retry = job.attempts < job.max_attempts;
      const retryAt = retry
        ? nowIso(new Date(Date.now() + backoffDelayMs(job.attempts, this.baseDelayMs, this.maxDelayMs)))
        : null;
      await this.jobs.fail(job.id, this.id, reason, retryAt);
      log.warn({ err: error, retryAt }, retry ? 'job failed, will retry' : 'job failed for good');
    } finally {
      clearInterval(heartbeat);
    }
    return true;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = await this.runOnce();
      } catch (error) {
        this.log.error({ err: error }, 'job worker could not claim a job');
      }
      if (!worked && this.running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.pollIntervalMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
      }
    }
  }
}

export { RETRY };
