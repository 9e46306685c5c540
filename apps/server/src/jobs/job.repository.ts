import { sql } from 'kysely';
import type { Db, DbOrTx, Dialect } from '../db/database.ts';
import { nowIso } from '../db/database.ts';
import { countedPage } from '../db/query.ts';
import type { JobRow } from '../db/schema.ts';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface EnqueueOptions {
  name: string;
  data: unknown;
  maxAttempts: number;
  runAt?: string;
  /** When set, no second job with this key is queued while one is queued or running. */
  dedupeKey?: string;
  /** The request that queues it, carried into the worker's log lines. */
  requestId?: string;
}

/** The durable job table. Claiming is a single statement, safe with several workers. */
export class JobRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  async enqueue(options: EnqueueOptions, tx: DbOrTx): Promise<number> {
    const now = nowIso();
    if (options.dedupeKey) {
      const existing = await tx
        .selectFrom('jobs')
        .select('id')
        .where('dedupe_key', '=', options.dedupeKey)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
      if (existing) return existing.id;
    }
    const row = await tx
      .insertInto('jobs')
      .values({
        name: options.name,
        data: JSON.stringify(options.data ?? null),
        status: 'queued',
        max_attempts: options.maxAttempts,
        run_at: options.runAt ?? now,
        dedupe_key: options.dedupeKey ?? null,
        request_id: options.requestId ?? null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * Takes the next due job for this worker: a queued job whose time has come, or a running job whose
   * worker stopped reporting before `staleBefore` (it died). PostgreSQL skips rows other workers lock.
   */
  async claim(workerId: string, now: string, staleBefore: string): Promise<JobRow | undefined> {
    const lock = this.dialect === 'postgres' ? sql`for update skip locked` : sql``;
    const result = await sql<JobRow>`
      update jobs
         set status = 'running', locked_by = ${workerId}, locked_at = ${now},
             attempts = attempts + 1, updated_at = ${now}
       where id = (
         select id from jobs
          where (status = 'queued' and run_at <= ${now})
             or (status = 'running' and locked_at < ${staleBefore})
          order by run_at, id
          limit 1
          ${lock}
       )
      returning *`.execute(this.db);
    return result.rows[0];
  }

  async reportProgress(
    id: number,
    workerId: string,
    progress: number,
    message: string | null,
  ): Promise<void> {
    const now = nowIso();
    await this.db
      .updateTable('jobs')
      .set({ progress, progress_message: message, locked_at: now, updated_at: now })
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .execute();
  }

  /** Tells the queue this job's worker is alive (its lease runs on); false when another took it over. */
  async renewLease(id: number, workerId: string): Promise<boolean> {
    const now = nowIso();
    const result = await this.db
      .updateTable('jobs')
      .set({ locked_at: now, updated_at: now })
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Marks the job done; false when this worker no longer holds it (taken over, or done already). */
  async complete(id: number, workerId: string, result: unknown, tx: DbOrTx): Promise<boolean> {
    const now = nowIso();
    const updated = await tx
      .updateTable('jobs')
      .set({
        status: 'succeeded',
        progress: 100,
        result: result === undefined ? null : JSON.stringify(result),
        last_error: null,
        locked_by: null,
        locked_at: null,
        finished_at: now,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1;
  }

  /** Marks the job done on its own: a job that has no effect, or whose effect committed already. */
  finish(id: number, workerId: string, result: unknown): Promise<boolean> {
    return this.complete(id, workerId, result, this.db);
  }

  /** Records a failure: back to the queue at `retryAt`, or failed for good when `retryAt` is null. */
  async fail(id: number, workerId: string, error: string, retryAt: string | null): Promise<void> {
    const now = nowIso();
    await this.db
      .updateTable('jobs')
      .set({
        status: retryAt ? 'queued' : 'failed',
        run_at: retryAt ?? now,
        last_error: error.slice(0, 4000),
        locked_by: null,
        locked_at: null,
        finished_at: retryAt ? null : now,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .execute();
  }

  async findById(id: number, tx: DbOrTx = this.db): Promise<JobRow | undefined> {
    return tx.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async countByStatus(tx: DbOrTx = this.db): Promise<Record<JobStatus, number>> {
    const rows = await tx
      .selectFrom('jobs')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    const counts: Record<JobStatus, number> = { queued: 0, running: 0, succeeded: 0, failed: 0 };
    for (const row of rows) {
      if (row.status in counts) counts[row.status as JobStatus] = Number(row.n);
    }
    return counts;
  }

  /** One page of jobs, newest first, optionally of one status; with the count of all. */
  async page(
    query: { status?: string | undefined; offset: number; limit: number },
    tx: DbOrTx = this.db,
  ): Promise<{ rows: JobRow[]; total: number }> {
    let base = tx.selectFrom('jobs');
    if (query.status) base = base.where('status', '=', query.status);
    return countedPage(base, (list) => list.selectAll().orderBy('id', 'desc'), query);
  }

  /** Jobs of each name that succeeded since the time given. */
  async succeededSince(since: string, tx: DbOrTx = this.db): Promise<Record<string, number>> {
    const rows = await tx
      .selectFrom('jobs')
      .select((eb) => ['name', eb.fn.countAll<number>().as('n')])
      .where('status', '=', 'succeeded')
      .where('finished_at', '>=', since)
      .groupBy('name')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
  }

  /** A failed job queued again from its first attempt; false when the job is not failed. */
  async requeueFailed(id: number, now: string, tx: DbOrTx): Promise<boolean> {
    const result = await tx
      .updateTable('jobs')
      .set({
        status: 'queued',
        attempts: 0,
        run_at: now,
        locked_by: null,
        locked_at: null,
        updated_at: now,
        finished_at: null,
      })
      .where('id', '=', id)
      .where('status', '=', 'failed')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** A queued job ended as failed with the reason; false when the job is not queued. */
  async cancelQueued(id: number, reason: string, now: string, tx: DbOrTx): Promise<boolean> {
    const result = await tx
      .updateTable('jobs')
      .set({ status: 'failed', last_error: reason, updated_at: now, finished_at: now })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The status of the newest job with each of the keys given (keys with no job are left out). */
  async statusByDedupeKey(keys: string[], tx: DbOrTx = this.db): Promise<Map<string, string>> {
    if (keys.length === 0) return new Map();
    const rows = await tx
      .selectFrom('jobs')
      .select(['dedupe_key', 'status'])
      .where('dedupe_key', 'in', keys)
      .orderBy('id')
      .execute();
    return new Map(rows.flatMap((j) => (j.dedupe_key === null ? [] : [[j.dedupe_key, j.status] as const])));
  }
}
