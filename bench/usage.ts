/**
 * Usage counters and the console dashboard (issue 7). The reader and the searches count events; since
 * issue 17 they are kept in memory and written every few seconds, one upsert per day and metric (before,
 * one `usage_daily` upsert and one `usage_readers` insert per event), so this measures what counting adds
 * to a page turn or a search, the write of all the events counted, and how long the dashboard takes over
 * a busy library's quarter.
 *
 * A fresh SQLite database through the server's own createContext: BENCH_USAGE_EVENTS (default 20,000)
 * counted events from 500 readers; then 90 days of history (orders, payments, registrations, OCR runs:
 * BENCH_USAGE_ROWS rows each, default 50,000) and the 7-, 30- and 90-day dashboards, 30 runs each.
 */
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../apps/server/src/config.ts';
import { createContext, type AppContext } from '../apps/server/src/context.ts';
import type { Clock } from '../apps/server/src/lib/clock.ts';
import {
  type BenchResult,
  fmtMs,
  machine,
  printResult,
  prng,
  removeDir,
  summarize,
  type Summary,
  tempDir,
  writeResult,
} from './lib.ts';

/** A fresh SQLite library in `dir` whose clock stands still at `now`. */
function usageContext(dir: string, now: Date): Promise<AppContext> {
  const clock: Clock = { now: () => now };
  return createContext(
    loadConfig({
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${path.join(dir, 'library.sqlite')}`,
      SESSION_SECRET: 'x',
      LOG_LEVEL: 'silent',
      DEMO_LIBRARY: 'false',
    }),
    { clock },
  );
}

/** 500 readers; returns their ids. */
async function createReaders(context: AppContext): Promise<number[]> {
  const users: number[] = [];
  for (let i = 0; i < 500; i++)
    users.push(
      await context.repos.users.create(
        { login_name: `bench${i}`, password_hash: 'x' },
        ['reader'],
        context.database.db,
      ),
    );
  return users;
}

/** Counts `events` events as the routes count them, each timed; then times writing them all. */
async function timeCounting(
  context: AppContext,
  users: number[],
  events: number,
  random: () => number,
): Promise<Summary> {
  const metrics = ['pageViews', 'pageViews', 'pageViews', 'bookOpens', 'searches'] as const;
  const samples: number[] = [];
  for (let i = 0; i < events; i++) {
    const metric = metrics[Math.floor(random() * metrics.length)]!;
    const user = users[Math.floor(random() * users.length)]!;
    const t = performance.now();
    await context.services.usage.count(metric, user);
    samples.push(performance.now() - t);
  }
  const count = summarize(samples);
  const flushStart = performance.now();
  await context.services.usage.flush();
  console.log(`[usage] writing ${events} counted events: ${(performance.now() - flushStart).toFixed(1)} ms`);
  return count;
}

/** One print order per number, created at `created`, a third of them unpaid. */
const printOrders = (batch: number[], users: number[], at: () => string) =>
  batch.map((i) => {
    const created = at();
    return {
      order_num: `B${i}`,
      user_id: users[i % users.length]!,
      extract: 0,
      payment: 1,
      is_invoice: 0,
      invoice_title: null,
      consignee: null,
      consignee_phone: null,
      delivery_address: null,
      total_fen: 100 + (i % 900),
      pay_status: i % 3 === 0 ? 0 : 1,
      paid_at: i % 3 === 0 ? null : created,
      created_at: created,
      updated_at: created,
    };
  });

/**
 * A quarter of history in the tables the dashboard reads: `rows` print orders and as many OCR runs. The
 * OCR runs point at page ids that need no rows here (only their times are read), so this throw-away
 * database skips the key check.
 */
async function addHistory(
  context: AppContext,
  users: number[],
  rows: number,
  now: Date,
  random: () => number,
): Promise<void> {
  const db = context.database.db;
  await sql`pragma foreign_keys = off`.execute(db);
  const day = 86_400_000;
  const at = () => new Date(now.getTime() - Math.floor(random() * 90 * day)).toISOString();
  for (let start = 0; start < rows; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, rows - start) }, (_, i) => start + i);
    await db
      .insertInto('print_orders')
      .values(printOrders(batch, users, at))
      .execute();
    await db
      .insertInto('ocr_versions')
      .values(
        batch.map((i) => ({
          page_id: i,
          version: 1,
          source: 'ocr:ppocrv4',
          ocr_json: '{}',
          created_by: null,
          created_at: at(),
        })),
      )
      .execute();
  }
}

/** The 7-, 30- and 90-day dashboards, 30 runs each. */
async function timeDashboards(context: AppContext): Promise<Record<number, Summary>> {
  const dashboards: Record<number, Summary> = {};
  for (const days of [7, 30, 90]) {
    const runs: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t = performance.now();
      await context.services.usage.dashboard(days);
      runs.push(performance.now() - t);
    }
    dashboards[days] = summarize(runs);
  }
  return dashboards;
}

/** The result: counting one event (no budget), and each dashboard. */
function usageReport(
  started: number,
  count: Summary,
  dashboards: Record<number, Summary>,
  events: number,
  rows: number,
): BenchResult {
  return {
    name: 'usage',
    startedAt: new Date(started).toISOString(),
    seconds: (Date.now() - started) / 1000,
    machine: machine(),
    budgets: [
      {
        what: 'counting one page view or search (added to the request)',
        budget: 'no budget; small against catalogue p95 20 ms',
        measured: fmtMs(count),
        met: null,
      },
    ],
    table: [
      ['events counted', String(events)],
      ['counting one event', fmtMs(count)],
      ['history rows (orders, OCR runs)', `${rows} each`],
      ...[7, 30, 90].map((days): [string, string] => [`dashboard, ${days} days`, fmtMs(dashboards[days]!)]),
    ],
    data: { count, dashboards, events, rows },
  };
}

/** Runs the usage benchmark: counting events, writing them, and the dashboards over a quarter of history. */
export async function runUsage(): Promise<BenchResult> {
  const started = Date.now();
  const events = Number(process.env.BENCH_USAGE_EVENTS ?? 20_000);
  const rows = Number(process.env.BENCH_USAGE_ROWS ?? 50_000);
  const dir = tempDir('guji-bench-usage-');
  const now = new Date('2026-06-30T06:00:00Z');
  const context = await usageContext(dir, now);
  const random = prng(7);
  try {
    // Readers, then counted events as the routes count them.
    const users = await createReaders(context);
    const count = await timeCounting(context, users, events, random);
    await addHistory(context, users, rows, now, random);
    const dashboards = await timeDashboards(context);
    return usageReport(started, count, dashboards, events, rows);
  } finally {
    await context.close();
    removeDir(dir);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runUsage();
  printResult(result);
  writeResult(result);
}
