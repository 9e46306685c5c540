import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DIALECTS, type TestContext } from '../../test/helpers.ts';
import { JobWorker, type JobHandlers } from './worker.ts';
import { backoffDelayMs } from './registry.ts';

interface TestJobs {
  'test.ok': { value: number };
  'test.flaky': { failTimes: number };
  'test.broken': Record<string, never>;
  'test.slow': { label: string };
}

const silent = pino({ level: 'silent' });

describe('backoff', () => {
  it('doubles from the base delay and stops at the cap', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelayMs(n, 1000, 5000))).toEqual([1000, 2000, 4000, 5000]);
  });
});

describe.each(DIALECTS)('job worker on %s', (dialect) => {
  let t: TestContext;
  const calls: string[] = [];
  const attemptsSeen = new Map<number, number>();
  const handlers: JobHandlers<TestJobs> = {
    'test.ok': async (data, job) => {
      await job.progress(40, 'halfway');
      calls.push(`ok:${data.value}`);
      return { doubled: data.value * 2 };
    },
    'test.flaky': (data, job) => {
      attemptsSeen.set(job.jobId, job.attempt);
      if (job.attempt <= data.failTimes) return Promise.reject(new Error(`第${job.attempt}次失败`));
      return Promise.resolve('done');
    },
    'test.broken': () => Promise.reject(new Error('页面图像已损坏')),
    'test.slow': async (data) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      calls.push(`slow:${data.label}`);
    },
  };
  const newWorker = () =>
    new JobWorker<TestJobs>(t.context.repos.jobs, handlers, silent, {
      baseDelayMs: 0,
      maxDelayMs: 0,
      pollIntervalMs: 10,
    });

  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it('runs a job, records its result and progress 100', async () => {
    const id = await t.context.repos.jobs.enqueue(
      { name: 'test.ok', data: { value: 21 }, maxAttempts: 3 },
      t.context.database.db,
    );
    expect(await newWorker().runOnce()).toBe(true);
    const job = await t.context.repos.jobs.findById(id);
    expect(job?.status).toBe('succeeded');
    expect(job?.progress).toBe(100);
    expect(JSON.parse(job?.result ?? 'null')).toEqual({ doubled: 42 });
    expect(calls).toContain('ok:21');
  });

  it('retries a failing job with backoff until it succeeds', async () => {
    const id = await t.context.repos.jobs.enqueue(
      {
        name: 'test.flaky',
        data: { failTimes: 2 },
        maxAttempts: 5,
      },
      t.context.database.db,
    );
    const worker = newWorker();
    await worker.runOnce();
    let job = await t.context.repos.jobs.findById(id);
    expect(job?.status).toBe('queued');
    expect(job?.last_error).toBe('第1次失败');
    await worker.runOnce();
    await worker.runOnce();
    job = await t.context.repos.jobs.findById(id);
    expect(job?.status).toBe('succeeded');
    expect(job?.attempts).toBe(3);
    expect(attemptsSeen.get(id)).toBe(3);
  });

  it('waits for the retry time before running a job again', async () => {
    const worker = new JobWorker<TestJobs>(t.context.repos.jobs, handlers, silent, { baseDelayMs: 60_000 });
    const id = await t.context.repos.jobs.enqueue(
      {
        name: 'test.flaky',
        data: { failTimes: 1 },
        maxAttempts: 3,
      },
      t.context.database.db,
    );
    await worker.runOnce();
    const job = await t.context.repos.jobs.findById(id);
    expect(job?.status).toBe('queued');
    expect(Date.parse(job!.run_at) - Date.now()).toBeGreaterThan(50_000);
    expect(await worker.runOnce()).toBe(false);
  });

  it('marks a job failed with its reason after the last attempt', async () => {
    const id = await t.context.repos.jobs.enqueue(
      { name: 'test.broken', data: {}, maxAttempts: 2 },
      t.context.database.db,
    );
    const worker = newWorker();
    await worker.runOnce();
    await worker.runOnce();
    const job = await t.context.repos.jobs.findById(id);
    expect(job?.status).toBe('failed');
    expect(job?.last_error).toBe('页面图像已损坏');
    expect(job?.finished_at).not.toBeNull();
    expect(await worker.runOnce()).toBe(false);
  });

  it('fails a job whose name has no handler instead of looping', async () => {
    const id = await t.context.repos.jobs.enqueue(
      { name: 'test.unknown', data: {}, maxAttempts: 5 },
      t.context.database.db,
    );
    await newWorker().runOnce();
    expect((await t.context.repos.jobs.findById(id))?.status).toBe('failed');
  });

  it('does not queue a second job with the same dedupe key while one waits', async () => {
    const first = await t.context.repos.jobs.enqueue(
      {
        name: 'test.ok',
        data: { value: 1 },
        maxAttempts: 1,
        dedupeKey: 'page:1',
      },
      t.context.database.db,
    );
    const second = await t.context.repos.jobs.enqueue(
      {
        name: 'test.ok',
        data: { value: 1 },
        maxAttempts: 1,
        dedupeKey: 'page:1',
      },
      t.context.database.db,
    );
    expect(second).toBe(first);
    await newWorker().runOnce();
    const third = await t.context.repos.jobs.enqueue(
      {
        name: 'test.ok',
        data: { value: 1 },
        maxAttempts: 1,
        dedupeKey: 'page:1',
      },
      t.context.database.db,
    );
    expect(third).not.toBe(first);
    await newWorker().runOnce();
  });

  it('takes over a running job whose worker stopped reporting', async () => {
    // Queued and taken a minute ago by a worker that has not reported since.
    const aMinuteAgo = new Date(Date.now() - 60_000);
    const id = await t.context.repos.jobs.enqueue(
      {
        name: 'test.ok',
        data: { value: 7 },
        maxAttempts: 3,
        runAt: aMinuteAgo.toISOString(),
      },
      t.context.database.db,
    );
    const claimed = await t.context.repos.jobs.claim(
      'dead-worker',
      aMinuteAgo.toISOString(),
      new Date(0).toISOString(),
    );
    expect(claimed?.id).toBe(id);
    // Within its lease (ten minutes by default) the job stays with the worker that took it.
    expect(await newWorker().runOnce()).toBe(false);
    // A worker whose lease is shorter than that minute takes it over.
    const successor = new JobWorker<TestJobs>(t.context.repos.jobs, handlers, silent, { leaseMs: 30_000 });
    expect(await successor.runOnce()).toBe(true);
    expect((await t.context.repos.jobs.findById(id))?.status).toBe('succeeded');
  });

  it('lets several workers share the queue without running a job twice', async () => {
    calls.length = 0;
    const labels = Array.from({ length: 12 }, (_, i) => `j${i}`);
    for (const label of labels)
      await t.context.repos.jobs.enqueue(
        { name: 'test.slow', data: { label }, maxAttempts: 1 },
        t.context.database.db,
      );
    const workers = [newWorker(), newWorker(), newWorker()];
    await Promise.all(
      workers.map(async (worker) => {
        while (await worker.runOnce()) {
          /* keep taking jobs */
        }
      }),
    );
    expect(calls.filter((c) => c.startsWith('slow:')).sort()).toEqual(labels.map((l) => `slow:${l}`).sort());
    expect((await t.context.repos.jobs.countByStatus()).running).toBe(0);
  });

  it('runs in the background and stops cleanly', async () => {
    const worker = newWorker();
    worker.start();
    expect(worker.isRunning).toBe(true);
    const id = await t.context.repos.jobs.enqueue(
      { name: 'test.ok', data: { value: 5 }, maxAttempts: 1 },
      t.context.database.db,
    );
    worker.notify();
    await expect.poll(async () => (await t.context.repos.jobs.findById(id))?.status).toBe('succeeded');
    await worker.stop();
    expect(worker.isRunning).toBe(false);
    expect((await t.context.repos.jobs.findById(id))?.status).toBe('succeeded');
  });
});
