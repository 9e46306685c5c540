/**
 * Load (DESIGN.md §11: 200 simulated readers on 2 cores, 0 errors, page turn p95 ≤ 300 ms; issue 17 part 4).
 *
 * Simulated readers (load-client.ts) open a book, turn its pages fetching the tiles the viewer would,
 * search the full text and the book, add a page to the print list and check out, with a think time of
 * 1–3 s; their number is ramped 25 → 50 → 100 → 200, each step a fixed time. Against the embedded default
 * (`serve` on SQLite started here on a fresh demo library), or, with BENCH_LOAD_URL, against a running
 * stack (scripts/prod-like.sh: nginx, two `serve`, a `worker`, PostgreSQL, the S3 server), whose database
 * (BENCH_LOAD_DATABASE_URL), session secret (BENCH_LOAD_SECRET) and processes (BENCH_LOAD_PIDS,
 * `name:pid,…`) it is told. Reports per step and action p50/p95/p99 and errors, throughput, and each
 * process's CPU and memory; draws p95 against readers into docs/load-<stack>.svg (see writeChart).
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  type BenchResult,
  childPids,
  cpuSeconds,
  freePort,
  get,
  LOOPBACK,
  machine,
  newAgent,
  printResult,
  prng,
  removeDir,
  residentMb,
  RESULTS_DIR,
  ROOT,
  SERVER_MAIN,
  serverEnv,
  startProcess,
  stopProcess,
  summarize,
  tempDir,
  waitFor,
  waitForIdleJobs,
  writeResult,
} from './lib.ts';
import { ACTIONS, errorsSeen, readerAgent, send, sent, SimulatedReader, type Sample } from './load-client.ts';
import { openLibraryDb, readerSessions, type LibraryDb } from './load-accounts.ts';
import { latencyChart } from './load-chart.ts';

const TURN_BUDGET_MS = 300;
const STEPS = (process.env.BENCH_LOAD_STEPS ?? '25,50,100,200').split(',').map(Number);
const STEP_SECONDS = Number(process.env.BENCH_LOAD_STEP_SECONDS ?? 40);
/** Limits the benchmark raises: every simulated reader comes from one address (see docs/benchmarks.md). */
const RAISED_LIMITS = { AUTH_RATE_LIMIT_PER_MINUTE: '100000', IIIF_RENDER_RATE_LIMIT_PER_MINUTE: '100000' };
const log = (line: string) => console.log(`[load] ${line}`);

interface Target {
  stack: 'embedded' | 'prod-like';
  origin: string;
  db: LibraryDb;
  secret: string;
  /** The processes to watch, by name. */
  processes: Array<{ name: string; pid: number }>;
  close(): Promise<void>;
}

async function embedded(): Promise<Target> {
  const work = tempDir('guji-bench-load-');
  const dataDir = path.join(work, 'data');
  const port = await freePort();
  const origin = `http://${LOOPBACK}:${port}`;
  const env: Record<string, string> = { ...serverEnv(dataDir, port), ...RAISED_LIMITS };
  const server = startProcess(process.execPath, [...SERVER_MAIN, 'serve'], {
    env,
    logFile: path.join(work, 'serve.log'),
  });
  const agent = newAgent();
  await waitFor(
    'the server',
    async () => (await get(`${origin}/api/health`, agent)).status === 200,
    180_000,
    server,
  );
  log('waiting for the demo library to be tiled and read…');
  await waitForIdleJobs(origin, agent, 900_000, server);
  agent.destroy();
  const db = openLibraryDb({ sqliteFile: path.join(dataDir, 'library.sqlite') });
  return {
    stack: 'embedded',
    origin,
    db,
    secret: env.SESSION_SECRET ?? '',
    processes: [{ name: 'serve (SQLite, jobs in-process)', pid: server.pid! }],
    close: async () => {
      await db.close();
      await stopProcess(server);
      removeDir(work);
    },
  };
}

function external(origin: string): Target {
  const url = process.env.BENCH_LOAD_DATABASE_URL;
  const secret = process.env.BENCH_LOAD_SECRET;
  if (!url || !secret) throw new Error('BENCH_LOAD_URL needs BENCH_LOAD_DATABASE_URL and BENCH_LOAD_SECRET');
  const db = openLibraryDb(url.startsWith('postgres') ? { postgresUrl: url } : { sqliteFile: url });
  const processes = (process.env.BENCH_LOAD_PIDS ?? '')
    .split(',')
    .filter(Boolean)
    .map((entry) => {
      const at = entry.lastIndexOf(':');
      return { name: entry.slice(0, at), pid: Number(entry.slice(at + 1)) };
    });
  return { stack: 'prod-like', origin, db, secret, processes, close: () => db.close() };
}

/** The books a reader may open (visible, open for reading, with pages), from the catalogue. */
async function readableBooks(origin: string, cookie: string): Promise<number[]> {
  const agent = readerAgent(origin);
  try {
    const reply = await send(origin, agent, 'GET', '/api/books?pageSize=50', { cookie });
    const page = JSON.parse(reply.body.toString('utf8')) as { records: Array<{ catalogId: number }> };
    const books: number[] = [];
    for (const { catalogId } of page.records) {
      const reader = await send(origin, agent, 'GET', `/api/reader?catalogId=${catalogId}`, { cookie });
      if (reader.status !== 200) continue;
      const data = JSON.parse(reader.body.toString('utf8')) as { pages: unknown[] };
      if (data.pages.length >= 2) books.push(catalogId);
    }
    return books;
  } finally {
    agent.destroy();
  }
}

interface ProcessUse {
  name: string;
  /** Share of one core over the step, in %. */
  cpuPercent: number;
  rssMb: number;
}

/** CPU seconds of a process and its children (nginx and PostgreSQL work in their children). */
const treeCpu = (pid: number) => cpuSeconds([pid, ...childPids(pid)]);
const treeRss = (pid: number) =>
  [pid, ...childPids(pid)].reduce((sum, p) => {
    try {
      return sum + residentMb(p).rssMb;
    } catch {
      return sum;
    }
  }, 0);

interface StepResult {
  readers: number;
  seconds: number;
  requestsPerSecond: number;
  actionsPerSecond: number;
  errors: number;
  actions: Record<string, { n: number; errors: number; p50: number; p95: number; p99: number }>;
  processes: ProcessUse[];
  benchCpuPercent: number;
}

/** The ramp's shared state: the readers running, their samples and the run's clock. */
interface Ramp {
  target: Target;
  cookies: string[];
  books: number[];
  samples: Sample[];
  /** Milliseconds since the ramp began. */
  clock: () => number;
  /** When every reader stops, on the ramp's clock. */
  stopAt: number;
  running: Array<Promise<void>>;
}

/** Starts simulated readers until `readers` are running. */
function addReaders(r: Ramp, readers: number): void {
  while (r.running.length < readers) {
    const n = r.running.length;
    const reader = new SimulatedReader(
      r.target.origin,
      r.cookies[n]!,
      r.books,
      prng(1000 + n),
      (sample) => r.samples.push(sample),
      r.clock,
    );
    // New readers arrive over the first seconds of the step, not all in the same millisecond.
    r.running.push(
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 3000));
        await reader.run(() => r.stopAt);
      })(),
    );
  }
}

/** Each action's count, errors and latency of the successful ones, over a step's samples. */
function stepActions(inStep: Sample[]): StepResult['actions'] {
  const actions: StepResult['actions'] = {};
  for (const action of [...ACTIONS, 'footprint' as const]) {
    const mine = inStep.filter((s) => s.action === action);
    const good = summarize(mine.filter((s) => s.ok).map((s) => s.ms));
    actions[action] = {
      n: mine.length,
      errors: mine.filter((s) => !s.ok).length,
      p50: good.p50,
      p95: good.p95,
      p99: good.p99,
    };
  }
  return actions;
}

/** Waits for the end of step k; returns its throughput, latencies and the processes' CPU and memory. */
async function measureStep(r: Ramp, k: number, readers: number): Promise<StepResult> {
  const { target, samples, clock } = r;
  const stepStart = k * STEP_SECONDS * 1000;
  const cpuBefore = target.processes.map((p) => treeCpu(p.pid));
  const benchBefore = process.cpuUsage();
  const requestsBefore = sent.requests;
  const wallBefore = performance.now();
  await new Promise((resolve) => setTimeout(resolve, stepStart + STEP_SECONDS * 1000 - clock()));
  const seconds = (performance.now() - wallBefore) / 1000;
  const bench = process.cpuUsage(benchBefore);
  const inStep = samples.filter((s) => s.at >= stepStart && s.at < stepStart + STEP_SECONDS * 1000);
  return {
    readers,
    seconds: Math.round(seconds),
    requestsPerSecond: Math.round((sent.requests - requestsBefore) / seconds),
    actionsPerSecond: Math.round((inStep.length / seconds) * 10) / 10,
    errors: inStep.filter((s) => !s.ok).length,
    actions: stepActions(inStep),
    processes: target.processes.map((p, i) => ({
      name: p.name,
      cpuPercent: Math.round(((treeCpu(p.pid) - cpuBefore[i]!) / seconds) * 100),
      rssMb: Math.round(treeRss(p.pid)),
    })),
    benchCpuPercent: Math.round(((bench.user + bench.system) / 1e6 / seconds) * 100),
  };
}

/** Ramps the readers up step by step, measuring each step; waits for the last actions to end. */
async function rampUp(target: Target, cookies: string[], books: number[]): Promise<StepResult[]> {
  const runStart = performance.now();
  const r: Ramp = {
    target,
    cookies,
    books,
    samples: [],
    clock: () => performance.now() - runStart,
    stopAt: STEPS.length * STEP_SECONDS * 1000,
    running: [],
  };
  const steps: StepResult[] = [];
  for (const [k, readers] of STEPS.entries()) {
    addReaders(r, readers);
    const step = await measureStep(r, k, readers);
    steps.push(step);
    log(
      `${readers} readers: ${step.requestsPerSecond} req/s, turn p95 ${step.actions.turn?.p95} ms, errors ${step.errors}; ` +
        step.processes.map((p) => `${p.name} ${p.cpuPercent}% ${p.rssMb} MB`).join(', '),
    );
  }
  log('waiting for the readers to finish their last action…');
  await Promise.all(r.running);
  return steps;
}

/**
 * Draws p95 against readers into docs/load-<stack>.svg — only for a run of the documented steps; a run with
 * BENCH_LOAD_STEPS or BENCH_LOAD_STEP_SECONDS (a quick check) draws into the results folder instead, so the
 * chart docs/benchmarks.md shows is not replaced by it. Returns the file.
 */
function writeChart(target: Target, steps: StepResult[]): string {
  const documented = !process.env.BENCH_LOAD_STEPS && !process.env.BENCH_LOAD_STEP_SECONDS;
  const folder = documented ? path.join(ROOT, 'docs') : RESULTS_DIR;
  fs.mkdirSync(folder, { recursive: true });
  const chartFile = path.join(folder, `load-${target.stack}.svg`);
  fs.writeFileSync(
    chartFile,
    latencyChart({
      title: `bench/load, ${target.stack === 'embedded' ? 'embedded default (SQLite, one serve)' : 'production-shaped stack (nginx, 2 serve, worker, PostgreSQL, S3)'}`,
      readers: steps.map((s) => s.readers),
      series: ACTIONS.map((action) => ({
        name: action,
        values: steps.map((s) => s.actions[action]?.p95 ?? NaN),
      })),
      budgetMs: TURN_BUDGET_MS,
      budgetLabel: `page turn budget ${TURN_BUDGET_MS} ms`,
    }),
  );
  return chartFile;
}

/** The table: each step with its actions and processes, the errors seen, tiles per page and the chart. */
function loadTable(steps: StepResult[], chartFile: string): Array<[string, string]> {
  const table: Array<[string, string]> = [];
  for (const s of steps) {
    table.push([
      `${s.readers} readers (${s.seconds} s)`,
      `${s.requestsPerSecond} req/s, ${s.actionsPerSecond} actions/s, errors ${s.errors}; client ${s.benchCpuPercent}% CPU`,
    ]);
    for (const action of [...ACTIONS, 'footprint']) {
      const a = s.actions[action]!;
      table.push([
        `  ${action}`,
        `p50 ${a.p50} / p95 ${a.p95} / p99 ${a.p99} ms (n=${a.n}, errors ${a.errors})`,
      ]);
    }
    for (const p of s.processes) table.push([`  ${p.name}`, `${p.cpuPercent}% of a core, ${p.rssMb} MB`]);
  }
  for (const [action, examples] of errorsSeen.examples)
    table.push([`errors of ${action}`, examples.join(' | ')]);
  table.push(['tiles per page shown (fitted zoom)', (sent.tiles / Math.max(1, sent.pages)).toFixed(1)]);
  table.push(['chart', path.relative(ROOT, chartFile)]);
  return table;
}

/** The result: errors and the page turn at the last step against the budgets. */
function loadReport(
  started: Date,
  t0: number,
  target: Target,
  steps: StepResult[],
  table: Array<[string, string]>,
): BenchResult {
  const last = steps.at(-1)!;
  const errors = steps.reduce((sum, s) => sum + s.errors, 0);
  return {
    name: `load-${target.stack}`,
    startedAt: started.toISOString(),
    seconds: (performance.now() - t0) / 1000,
    machine: machine(),
    budgets: [
      {
        what: `load (${target.stack}): errors while ramping to ${last.readers} readers`,
        budget: '0',
        measured: String(errors),
        met: errors === 0,
      },
      {
        what: `load (${target.stack}): page turn at ${last.readers} readers`,
        budget: `p95 ≤ ${TURN_BUDGET_MS} ms`,
        measured: `p95 ${last.actions.turn?.p95} ms (p50 ${last.actions.turn?.p50}, n=${last.actions.turn?.n})`,
        met: (last.actions.turn?.p95 ?? Infinity) <= TURN_BUDGET_MS,
      },
    ],
    table,
    data: {
      stack: target.stack,
      origin: target.origin,
      steps,
      stepSeconds: STEP_SECONDS,
      errors: Object.fromEntries(errorsSeen.examples),
    },
  };
}

/** Runs the load test: simulated readers ramped up step by step against the embedded or a running stack. */
export async function runLoad(): Promise<BenchResult> {
  const started = new Date();
  const t0 = performance.now();
  const base = process.env.BENCH_LOAD_URL;
  const target = base ? external(base.replace(/\/$/, '')) : await embedded();
  try {
    log(`${target.stack} at ${target.origin}; logging ${Math.max(...STEPS)} readers in…`);
    const cookies = await readerSessions(target.origin, target.db, target.secret, Math.max(...STEPS));
    const books = await readableBooks(target.origin, cookies[0]!);
    if (books.length === 0) throw new Error('no readable book in the library');
    log(`${books.length} books to read; steps ${STEPS.join(' → ')} readers, ${STEP_SECONDS} s each`);
    const steps = await rampUp(target, cookies, books);
    const chartFile = writeChart(target, steps);
    return loadReport(started, t0, target, steps, loadTable(steps, chartFile));
  } finally {
    await target.close();
  }
}

if (import.meta.main) {
  const result = await runLoad();
  printResult(result);
  console.log(`\nresults: ${writeResult(result)}`);
}
