/**
 * Idle memory benchmark (DESIGN.md §11: ≤ 300 MB with the demo library).
 *
 * Starts `serve` on a fresh DATA_DIR, as `npm start` does on a new machine: the server typesets and
 * imports the demo library itself and makes the pyramids in its in-process job worker. When
 * GET /api/health reports no queued or running job, it issues a few ordinary requests (pages, API,
 * IIIF), waits 5 s and reads VmRSS (and the peak, VmHWM) from /proc/<pid>/status. Then it restarts the
 * server on the same, now complete, library and measures again: the steady state after a restart.
 */
import path from 'node:path';
import {
  type BenchResult,
  LOOPBACK,
  SERVER_MAIN,
  childPids,
  freePort,
  get,
  getJson,
  machine,
  newAgent,
  printResult,
  removeDir,
  residentMb,
  serverEnv,
  sleep,
  startProcess,
  stopAll,
  stopProcess,
  tempDir,
  waitFor,
  writeResult,
} from './lib.ts';

const BUDGET_MB = 300;
const IDLE_WAIT_MS = 5000;

const log = (line: string) => console.log(`[memory] ${line}`);

interface Health {
  status: string;
  jobs: { queued: number; running: number; failed: number };
}

interface Reading {
  scenario: string;
  /** Seconds from start until the job queue was empty. */
  readySeconds: number;
  rssMb: number;
  peakMb: number;
  /** Resident memory of child processes (tsx's esbuild service), not counted in the budget. */
  childrenRssMb: number;
  requests: Record<string, number>;
  failedJobs: number;
}

/** What a visitor's first minutes ask for: pages, the catalogue API, and IIIF images and manifests. */
const REQUESTS = [
  '/',
  '/api/site',
  '/api/classifications',
  '/api/books/hot?pageNum=1&pageSize=6',
  `/api/books?title=${encodeURIComponent('論')}&pageNum=1&pageSize=6`,
  '/api/books/1',
  '/iiif/collection/top',
  '/iiif/presentation/volumes/1/manifest.json',
  '/iiif/3/1/info.json',
  '/iiif/3/1/full/!240,240/0/default.jpg',
  '/iiif/3/1/0,0,512,512/512,/0/default.jpg',
  '/iiif/3/2/512,512,512,512/512,/0/default.jpg',
  '/iiif/3/3/full/max/0/default.jpg',
];

async function measure(scenario: string, dataDir: string, work: string): Promise<Reading> {
  const port = await freePort();
  const origin = `http://${LOOPBACK}:${port}`;
  const started = performance.now();
  const server = startProcess(process.execPath, [...SERVER_MAIN, 'serve'], {
    env: serverEnv(dataDir, port),
    logFile: path.join(work, `serve-${scenario}.log`),
  });
  const agent = newAgent();
  try {
    // The first start typesets the demo library before it listens (about 10–20 s).
    await waitFor(
      'the server',
      async () => (await get(`${origin}/api/health`, agent)).status === 200,
      180_000,
      server,
    );
    let health: Health | undefined;
    await waitFor(
      'an empty job queue',
      async () => {
        health = await getJson<Health>(`${origin}/api/health`, agent);
        return health.jobs.queued === 0 && health.jobs.running === 0;
      },
      600_000,
      server,
    );
    const readySeconds = (performance.now() - started) / 1000;
    log(`${scenario}: job queue empty after ${readySeconds.toFixed(1)} s`);
    const requests: Record<string, number> = {};
    for (const url of REQUESTS) requests[url] = (await get(origin + url, agent)).status;
    agent.destroy();
    await sleep(IDLE_WAIT_MS);
    const { rssMb, peakMb } = residentMb(server.pid!);
    const childrenRssMb = childPids(server.pid!).reduce((sum, pid) => {
      try {
        return sum + residentMb(pid).rssMb;
      } catch {
        return sum;
      }
    }, 0);
    log(`${scenario}: VmRSS ${rssMb} MB (peak ${peakMb} MB), children ${childrenRssMb} MB`);
    return {
      scenario,
      readySeconds: Math.round(readySeconds * 10) / 10,
      rssMb,
      peakMb,
      childrenRssMb: Math.round(childrenRssMb * 10) / 10,
      requests,
      failedJobs: health?.jobs.failed ?? 0,
    };
  } finally {
    agent.destroy();
    await stopProcess(server);
  }
}

export async function runMemory(): Promise<BenchResult> {
  const started = new Date();
  const t0 = performance.now();
  const info = machine();
  const work = tempDir('guji-bench-memory-');
  const dataDir = path.join(work, 'data');
  try {
    log(`first start on an empty ${dataDir}: the server imports the demo library and tiles it…`);
    const first = await measure('first-start', dataDir, work);
    log('restart on the same library…');
    const restart = await measure('restart', dataDir, work);
    const worst = Math.max(first.rssMb, restart.rssMb);
    const statuses = (r: Reading) =>
      Object.entries(r.requests)
        .filter(([, status]) => status !== 200)
        .map(([url, status]) => `${url} → ${status}`)
        .join(', ') || 'all 200';
    return {
      name: 'memory',
      startedAt: started.toISOString(),
      seconds: (performance.now() - t0) / 1000,
      machine: info,
      budgets: [
        {
          what: 'server idle memory, demo library',
          budget: `≤ ${BUDGET_MB} MB`,
          measured: `VmRSS ${first.rssMb} MB first start, ${restart.rssMb} MB after restart`,
          met: worst <= BUDGET_MB,
        },
      ],
      table: [
        [
          'first start (imports + tiles the demo)',
          `VmRSS ${first.rssMb} MB, peak ${first.peakMb} MB; queue empty after ${first.readySeconds} s; failed jobs ${first.failedJobs}`,
        ],
        ['  children (esbuild under tsx)', `${first.childrenRssMb} MB`],
        ['  requests', statuses(first)],
        [
          'restart on the same library',
          `VmRSS ${restart.rssMb} MB, peak ${restart.peakMb} MB; ready after ${restart.readySeconds} s`,
        ],
        ['  children (esbuild under tsx)', `${restart.childrenRssMb} MB`],
        ['  requests', statuses(restart)],
      ],
      data: { idleWaitMs: IDLE_WAIT_MS, readings: [first, restart] },
    };
  } finally {
    await stopAll();
    removeDir(work);
  }
}

if (import.meta.main) {
  const result = await runMemory();
  printResult(result);
  console.log(`\nresults: ${writeResult(result)}`);
}
