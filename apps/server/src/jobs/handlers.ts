import type { AppContext } from '../context.ts';
import type { JobDataMap } from './registry.ts';
import type { JobHandlers } from './worker.ts';

/** The handler of every job in the registry. Handlers are idempotent: a rerun does no harm. */
export function createJobHandlers(context: AppContext): JobHandlers<JobDataMap> {
  return {
    'maintenance.purge': async (_data, job) => {
      const now = context.clock.now().toISOString();
      await context.repos.sessions.purgeExpired(now);
      await job.progress(50, 'sessions');
      await context.repos.captchas.purgeExpired(now);
      return { purgedBefore: now };
    },
  };
}
