import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** Rate-limit counters shared by every process (http/rate-limit-store.ts). */
export class RateLimitRepository {
  constructor(private readonly db: Db) {}

  /**
   * Counts one request under `key` and returns the count in the current window and when it ends. A window
   * that has ended starts again at 1. One statement, so concurrent requests from several processes each
   * get their own count.
   */
  async hit(key: string, nowMs: number, windowMs: number): Promise<{ hits: number; windowEnds: number }> {
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, hits: 1, window_ends: nowMs + windowMs })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          hits: sql<number>`case when rate_limits.window_ends <= ${nowMs} then 1 else rate_limits.hits + 1 end`,
          window_ends: sql<number>`case when rate_limits.window_ends <= ${nowMs} then excluded.window_ends else rate_limits.window_ends end`,
        }),
      )
      .returning(['hits', 'window_ends'])
      .executeTakeFirstOrThrow();
    return { hits: Number(row.hits), windowEnds: Number(row.window_ends) };
  }

  /** Forgets windows that ended before `nowMs` (the purge job). */
  async purgeExpired(nowMs: number): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('window_ends', '<=', nowMs).execute();
  }
}
