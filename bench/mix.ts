/**
 * The public GET mix (issue 34 part 5): 200 keep-alive connections for 30 s (wrk) over what readers,
 * outside viewers and harvesters ask of a library without signing in — the tiles of every public page at
 * every scale factor, info.json, manifests, catalogue searches, book details and cover thumbnails —
 * against `serve` on a fresh demo library at its default settings (log level included).
 *
 * Every URL is asked once first (each must answer 200), so the run measures a library in use, not its
 * first minute. Reports requests per second, latency p50/p99, errors and timeouts (wrk's 2 s, its own
 * default), and the server's CPU per request. Needs wrk (installed with apt-get unless BENCH_NO_INSTALL=1).
 *
 * Environment: BENCH_MIX_CONNECTIONS (default 200), BENCH_MIX_SECONDS (default 30).
 */
import path from 'node:path';
import type { BookPage, Volume } from '@guji/shared';
import {
  aptInstall,
  type BenchResult,
  cpuMeter,
  get,
  hasCommand,
  loadTest,
  machine,
  newAgent,
  printResult,
  prng,
  removeDir,
  shuffle,
  stopAll,
  tempDir,
  writeResult,
} from './lib.ts';
import { makeDemoLibrary, startOurServer, viewerTiles, type Page } from './tiles.ts';

const CONNECTIONS = Number(process.env.BENCH_MIX_CONNECTIONS ?? 200);
const SECONDS = Number(process.env.BENCH_MIX_SECONDS ?? 30);
/** Budgets of issue 34: the mix at 200 connections. */
const BUDGET = { rps: 2000, timeouts: 0 };
/** Catalogue searches of the mix (titles in the demo library, one that finds nothing, and none). */
const SEARCHES = ['', '史記', '詩', '目錄', '金光明', '不存在的书名'];

const log = (line: string) => console.log(`[mix] ${line}`);

type Kind = 'tile' | 'info.json' | 'manifest' | 'search' | 'book' | 'cover';

/**
 * The mix: per public page its info.json and every viewer tile; per volume its manifest three times
 * (several readers open it); per book its detail and cover five times; each catalogue search 20 times.
 */
async function mixPaths(
  origin: string,
  pages: Page[],
): Promise<{ paths: string[]; kinds: Map<string, Kind> }> {
  const agent = newAgent();
  const kinds = new Map<string, Kind>();
  const paths: string[] = [];
  const add = (kind: Kind, url: string, times = 1) => {
    kinds.set(url, kind);
    for (let i = 0; i < times; i++) paths.push(url);
  };
  for (const page of pages) {
    add('info.json', `/iiif/3/${page.id}/info.json`);
    for (const tile of viewerTiles(page))
      add('tile', `/iiif/3/${page.id}/${tile.region}/${tile.size}/0/default.jpg`);
  }
  for (const title of SEARCHES)
    add('search', `/api/books?pageSize=6${title ? `&title=${encodeURIComponent(title)}` : ''}`, 20);
  const listed = await get(`${origin}/api/books?pageSize=50`, agent);
  const books = (JSON.parse(listed.body.toString('utf8')) as BookPage).records;
  for (const book of books) {
    add('book', `/api/books/${book.catalogId}`, 5);
    if (book.coverUrl) add('cover', new URL(book.coverUrl, origin).pathname, 5);
    const volumes = await get(`${origin}/api/books/${book.catalogId}/volumes`, agent);
    for (const volume of JSON.parse(volumes.body.toString('utf8')) as Volume[])
      add('manifest', new URL(volume.manifestUrl, origin).pathname, 3);
  }
  agent.destroy();
  return { paths: shuffle(paths, prng(34)), kinds };
}

/** Asks every URL once, in order; each must answer 200. */
async function warmUp(origin: string, paths: string[]): Promise<void> {
  const agent = newAgent();
  for (const url of new Set(paths)) {
    const response = await get(`${origin}${url}`, agent);
    if (response.status !== 200)
      throw new Error(`${url}: ${response.status} ${response.body.toString('utf8').slice(0, 200)}`);
  }
  agent.destroy();
}

/** Runs the mix against a fresh demo library. */
export async function runMix(): Promise<BenchResult> {
  const started = new Date();
  const t0 = performance.now();
  const info = machine();
  const work = tempDir('guji-bench-mix-');
  const dataDir = path.join(work, 'data');
  try {
    const noWrk = await aptInstall(work, ['wrk'], () => !hasCommand('wrk'), log);
    if (noWrk) throw new Error(`wrk is needed for 200 connections: ${noWrk}`);
    const { pages } = await makeDemoLibrary(work, dataDir);
    // At the server's default log level: the mix is what a production server sees.
    const { ours, server, agentOurs } = await startOurServer(work, dataDir, { LOG_LEVEL: undefined });
    agentOurs.destroy();
    const { paths, kinds } = await mixPaths(ours, pages);
    const shares = new Map<Kind, number>();
    for (const url of paths) shares.set(kinds.get(url)!, (shares.get(kinds.get(url)!) ?? 0) + 1);
    log(`${paths.length} requests in the cycle: ${[...shares].map(([k, n]) => `${n} ${k}`).join(', ')}`);
    log('warming up: every URL once…');
    await warmUp(ours, paths);
    log(`${CONNECTIONS} connections, ${SECONDS} s…`);
    const meter = cpuMeter([server.pid]);
    const result = await loadTest(
      ours,
      { kind: 'fixed', paths },
      { connections: CONNECTIONS, seconds: SECONDS, workDir: work, seed: 1, timeoutSeconds: 2 },
    );
    const cpuMs = (meter() * 1000) / Math.max(1, result.requests);
    await stopAll();
    return {
      name: 'mix',
      startedAt: started.toISOString(),
      seconds: (performance.now() - t0) / 1000,
      machine: info,
      budgets: [
        {
          what: 'public GET mix, 200 connections',
          budget: `≥ ${BUDGET.rps} req/s, ${BUDGET.timeouts} timeouts`,
          measured: `${result.rps} req/s, ${result.timeouts} timeouts`,
          met: result.rps >= BUDGET.rps && result.timeouts <= BUDGET.timeouts,
        },
      ],
      table: [
        ['mix (one cycle)', [...shares].map(([k, n]) => `${n} ${k}`).join(', ')],
        ['requests per second', `${result.rps} (${result.requests} in ${result.seconds} s, ${result.tool})`],
        ['latency p50 / p99', `${result.latencyMs.p50} / ${result.latencyMs.p99} ms`],
        ['errors / timeouts (2 s)', `${result.errors} / ${result.timeouts}`],
        ['server CPU per request', `${Math.round(cpuMs * 1000) / 1000} ms`],
        ['load average (1 min) at the start', info.loadAverage1m.toFixed(2)],
      ],
      data: { ...result, cpuMsPerRequest: cpuMs, shares: Object.fromEntries(shares) },
    };
  } finally {
    await stopAll();
    removeDir(work);
  }
}

if (import.meta.main) {
  const result = await runMix();
  printResult(result);
  console.log(`\nresults: ${writeResult(result)}`);
}
