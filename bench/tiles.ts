/**
 * IIIF tile benchmark (DESIGN.md §11: cold p50 ≤ 15 ms; faster than IIPImage on the same image).
 *
 * Makes the demo library in a fresh DATA_DIR (`demo`), starts `serve` on loopback, and IIPImage
 * (Debian's iipsrv.fcgi behind lighttpd's mod_fastcgi) over the very same pyramidal TIFFs, then measures
 * 512×512 full-resolution regions: cold (never requested: not in our disk cache), warm (the same URLs
 * again), and requests per second with 8 concurrent keep-alive clients, on a fixed URL set and on
 * never-seen random regions. Sequential requests alternate between the two servers so background load
 * on the machine hits both alike.
 *
 * Environment: BENCH_SECONDS (load duration, default 10), BENCH_IIP_PROCS (iipsrv processes, default
 * the number of CPUs), BENCH_IIPSRV (path of iipsrv.fcgi), BENCH_IIP_TIFF=vips (give IIPImage TIFFs made by `vips tiffsave` from the masters
 * instead of our own pyramids), BENCH_NO_INSTALL=1 (never run apt-get), BENCH_KEEP=1 (keep the folder).
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Agent } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  type BenchResult,
  type Budget,
  type HttpResult,
  type LoadResult,
  type Machine,
  type RequestSet,
  type Summary,
  LOOPBACK,
  SERVER_MAIN,
  aptInstall,
  cpuMeter,
  fmtMs,
  freePort,
  get,
  hasCommand,
  jpegSize,
  loadTest,
  machine,
  newAgent,
  printResult,
  prng,
  ratio,
  removeDir,
  runToEnd,
  serverEnv,
  shuffle,
  startProcess,
  stopAll,
  summarize,
  tempDir,
  waitFor,
  waitForIdleJobs,
  writeResult,
} from './lib.ts';

const TILE = 512;
const WARMUP_PAGES = 4;
const FIXED_SET = 64;
const CONNECTIONS = 8;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const IIPSRV = process.env.BENCH_IIPSRV ?? '/usr/lib/iipimage-server/iipsrv.fcgi';
const IIP_PACKAGES = ['iipimage-server', 'lighttpd', 'libvips-tools'];

export interface Page {
  id: number;
  width: number;
  height: number;
  master_key: string;
  pyramid_key: string;
}

interface Target {
  id: number;
  region: string;
  ours: string;
  iip: string;
  /** The JPEG size both servers must answer with. */
  width: number;
  height: number;
  /** The first region of its page in the request order (pays for opening the image). */
  firstOnPage: boolean;
}

interface ServerFigures {
  cold: Summary;
  coldFirstOnPage: Summary;
  /** Server CPU per request (ms) of the first region of a page, and of the other cold regions. */
  coldFirstCpuMsPerRequest: number;
  coldOtherCpuMsPerRequest: number;
  coldOtherRegions: Summary;
  warm: Summary;
  coldCpuMsPerRequest: number;
  warmCpuMsPerRequest: number;
  meanBytes: number;
  rpsFixed: Load;
  rpsNeverSeen: Load;
}

const log = (line: string) => console.log(`[tiles] ${line}`);

/** Public pages (anyone may read their tiles) whose pyramid is ready. */
export function publicPages(dataDir: string): Page[] {
  const db = new Database(path.join(dataDir, 'library.sqlite'), { readonly: true });
  try {
    return db
      .prepare(
        `select p.id, p.width, p.height, p.master_key, p.pyramid_key from pages p join books b on b.id = p.book_id
         where b.is_visible = 1 and b.audit_status = '2' and b.is_open = 1 and p.status = 'ready'
           and p.pyramid_key is not null order by p.id`,
      )
      .all() as Page[];
  } finally {
    db.close();
  }
}

function gridRegions(page: Page): string[] {
  const regions: string[] = [];
  for (let y = 0; y + TILE <= page.height; y += TILE)
    for (let x = 0; x + TILE <= page.width; x += TILE) regions.push(`${x},${y},${TILE},${TILE}`);
  return regions;
}

/**
 * The tiles a IIIF viewer asks for on a page: the info.json grid (512², every scale factor down to
 * a 64-pixel-wide image), edges included, each sized `w,h` = ceil(region / scale factor).
 */
export function viewerTiles(
  page: Page,
): Array<{ region: string; size: string; width: number; height: number }> {
  const tiles = [];
  for (let scale = 1; Math.floor(page.width / scale) >= 64; scale *= 2) {
    const span = TILE * scale;
    for (let y = 0; y < page.height; y += span) {
      for (let x = 0; x < page.width; x += span) {
        const w = Math.min(span, page.width - x);
        const h = Math.min(span, page.height - y);
        const width = Math.ceil(w / scale);
        const height = Math.ceil(h / scale);
        tiles.push({ region: `${x},${y},${w},${h}`, size: `${width},${height}`, width, height });
      }
    }
  }
  return tiles;
}

const oursPath = (id: number, region: string, size = `${TILE},`) =>
  `/iiif/3/${id}/${region}/${size}/0/default.jpg`;
const iipPath = (id: number, region: string, size = `${TILE},`) =>
  `/iiif/p${id}.tif/${region}/${size}/0/default.jpg`;

/** Status 200 and a JPEG of the expected size, or a description of what came back. */
function checkTile(response: HttpResult, width: number, height: number): string | undefined {
  if (response.status !== 200)
    return `status ${response.status}: ${response.body.toString('utf8').slice(0, 200)}`;
  const size = jpegSize(response.body);
  if (!size) return `not a JPEG (content-type ${response.headers['content-type']})`;
  if (size.width !== width || size.height !== height)
    return `JPEG is ${size.width}×${size.height}, expected ${width}×${height}`;
  return undefined;
}

/** Makes sure iipsrv and lighttpd are installed; returns why not when they cannot be. */
function ensureIipImage(work: string): Promise<string | undefined> {
  return aptInstall(work, IIP_PACKAGES, () => !fs.existsSync(IIPSRV) || !hasCommand('lighttpd'), log);
}

/** The TIFFs IIPImage reads, one per page: our own pyramids linked, or (BENCH_IIP_TIFF=vips) made by vips. */
async function prepareIipImages(work: string, pages: Page[], dataDir: string): Promise<string> {
  const images = path.join(work, 'iip-images');
  fs.mkdirSync(images, { recursive: true });
  if (process.env.BENCH_IIP_TIFF === 'vips') {
    if (!hasCommand('vips'))
      throw new Error('BENCH_IIP_TIFF=vips needs vips (apt-get install libvips-tools)');
    log(`making ${pages.length} pyramidal TIFFs with vips tiffsave…`);
    for (const page of pages) {
      await runToEnd(
        'vips',
        [
          'tiffsave',
          path.join(dataDir, page.master_key),
          path.join(images, `p${page.id}.tif`),
          '--tile',
          '--pyramid',
          '--compression',
          'jpeg',
          '--Q',
          '88',
          '--tile-width',
          '256',
          '--tile-height',
          '256',
        ],
        { logFile: path.join(work, 'vips.log') },
      );
    }
  } else {
    // The same files our server reads: the comparison is on identical bytes.
    for (const page of pages)
      fs.symlinkSync(path.join(dataDir, page.pyramid_key), path.join(images, `p${page.id}.tif`));
  }
  return images;
}

/** Starts BENCH_IIP_PROCS iipsrv FastCGI processes on free ports; returns their ports and pids. */
async function startIipsrv(
  work: string,
  images: string,
): Promise<{ fcgiPorts: number[]; pids: Array<number | undefined> }> {
  const procs = Number(process.env.BENCH_IIP_PROCS ?? os.availableParallelism());
  const fcgiPorts: number[] = [];
  const pids: Array<number | undefined> = [];
  for (let i = 0; i < procs; i++) {
    const port = await freePort();
    fcgiPorts.push(port);
    const iipsrv = startProcess(IIPSRV, ['--bind', `${LOOPBACK}:${port}`, '--backlog', '1024'], {
      logFile: path.join(work, `iipsrv-${i}.log`),
      env: {
        FILESYSTEM_PREFIX: `${images}/`,
        URI_MAP: 'iiif=>IIIF',
        // Our server encodes at quality 85; the same here so both send comparable bytes.
        JPEG_QUALITY: '85',
        VERBOSITY: '0',
      },
    });
    pids.push(iipsrv.pid);
  }
  return { fcgiPorts, pids };
}

/** Writes lighttpd's configuration: /iiif on `port`, balanced over the iipsrv processes. */
function writeLighttpdConf(work: string, port: number, fcgiPorts: number[]): string {
  const conf = path.join(work, 'lighttpd.conf');
  fs.writeFileSync(
    conf,
    [
      'server.modules = ( "mod_fastcgi" )',
      `server.document-root = "${work}"`,
      `server.bind = "${LOOPBACK}"`,
      `server.port = ${port}`,
      `server.errorlog = "${path.join(work, 'lighttpd-error.log')}"`,
      'server.max-keep-alive-requests = 1000000',
      'server.max-keep-alive-idle = 120',
      'fastcgi.balance = "least-connection"',
      'fastcgi.server = ( "/iiif" => (',
      ...fcgiPorts.map(
        (p, i) =>
          `  "iip${i}" => ( "host" => "${LOOPBACK}", "port" => ${p}, "check-local" => "disable" )${i < fcgiPorts.length - 1 ? ',' : ''}`,
      ),
      ') )',
      '',
    ].join('\n'),
  );
  return conf;
}

/** Starts iipsrv processes and lighttpd in front of them; returns lighttpd's origin and every pid. */
async function startIipImage(
  work: string,
  pages: Page[],
  dataDir: string,
): Promise<{ origin: string; pids: Array<number | undefined> }> {
  const images = await prepareIipImages(work, pages, dataDir);
  const { fcgiPorts, pids } = await startIipsrv(work, images);
  const port = await freePort();
  const conf = writeLighttpdConf(work, port, fcgiPorts);
  const lighttpd = startProcess('lighttpd', ['-D', '-f', conf], { logFile: path.join(work, 'lighttpd.log') });
  const origin = `http://${LOOPBACK}:${port}`;
  const agent = newAgent();
  await waitFor(
    'IIPImage behind lighttpd',
    async () => (await get(`${origin}/iiif/p${pages[0]!.id}.tif/info.json`, agent)).status === 200,
    20_000,
    lighttpd,
  );
  agent.destroy();
  return { origin, pids: [...pids, lighttpd.pid] };
}

interface Timed {
  ms: number[];
  bytes: number[];
  /** CPU milliseconds the server used per request over the pass. */
  cpuMs: number;
}

type Load = LoadResult & { cpuMsPerRequest: number };

/** Both servers as the measurements use them; `iip` is undefined when IIPImage is unavailable. */
interface Servers {
  work: string;
  ours: string;
  server: ChildProcess;
  agentOurs: Agent;
  iip: string | undefined;
  iipPids: Array<number | undefined>;
  /** Why IIPImage is not measured, when it is not. */
  iipUnavailable: string | undefined;
  agentIip: Agent;
}

/** Makes the demo library (`demo`) in dataDir; returns how long that took and its public pages. */
export async function makeDemoLibrary(
  work: string,
  dataDir: string,
): Promise<{ demoSeconds: number; pages: Page[] }> {
  log(`making the demo library in ${dataDir} (about 20 s)…`);
  const demoStarted = performance.now();
  await runToEnd(process.execPath, [...SERVER_MAIN, 'demo'], {
    env: { ...serverEnv(dataDir, 0), LOG_LEVEL: 'warn' },
    logFile: path.join(work, 'demo.log'),
  });
  const demoSeconds = (performance.now() - demoStarted) / 1000;
  const pages = publicPages(dataDir);
  if (pages.length <= WARMUP_PAGES) throw new Error(`only ${pages.length} public pages with pyramids`);
  return { demoSeconds, pages };
}

/** Starts `serve` on the library and waits until it is up with no background job left. */
export async function startOurServer(
  work: string,
  dataDir: string,
  /** Settings besides the bench's (serverEnv); undefined leaves one at the server's default. */
  settings: Record<string, string | undefined> = {},
): Promise<{ ours: string; server: ChildProcess; agentOurs: Agent }> {
  const port = await freePort();
  const ours = `http://${LOOPBACK}:${port}`;
  const env: Record<string, string | undefined> = { ...serverEnv(dataDir, port), ...settings };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  const server = startProcess(process.execPath, [...SERVER_MAIN, 'serve'], {
    env,
    logFile: path.join(work, 'serve.log'),
  });
  const agentOurs = newAgent();
  await waitFor(
    'our server',
    async () => (await get(`${ours}/api/health`, agentOurs)).status === 200,
    60_000,
    server,
  );
  // No background job may compete with the measurements.
  await waitForIdleJobs(ours, agentOurs, 120_000, server);
  log(`our server is up on ${ours}`);
  return { ours, server, agentOurs };
}

/** Installs and starts IIPImage when it can; otherwise says why it is left out. */
async function startIipSide(
  work: string,
  pages: Page[],
  dataDir: string,
): Promise<{
  iip: string | undefined;
  iipPids: Array<number | undefined>;
  iipUnavailable: string | undefined;
}> {
  let iip: string | undefined;
  let iipPids: Array<number | undefined> = [];
  let iipUnavailable = await ensureIipImage(work);
  if (!iipUnavailable) {
    try {
      ({ origin: iip, pids: iipPids } = await startIipImage(work, pages, dataDir));
      log(`IIPImage is up on ${iip}`);
    } catch (error) {
      iipUnavailable = `IIPImage did not start: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  if (iipUnavailable) log(`IIPImage unavailable: ${iipUnavailable}; measuring our server only`);
  return { iip, iipPids, iipUnavailable };
}

/** Starts our server, then IIPImage beside it when available. */
async function startServers(work: string, dataDir: string, pages: Page[]): Promise<Servers> {
  const { ours, server, agentOurs } = await startOurServer(work, dataDir);
  const { iip, iipPids, iipUnavailable } = await startIipSide(work, pages, dataDir);
  const agentIip = newAgent();
  return { work, ours, server, agentOurs, iip, iipPids, iipUnavailable, agentIip };
}

/**
 * Warms both servers up on pages kept out of the measurements, then checks that both answer with a
 * 512×512 JPEG; IIPImage is dropped (s.iip undefined, s.iipUnavailable why) when its answer is wrong.
 */
async function warmUpAndProbe(s: Servers, warmupPages: Page[]): Promise<void> {
  // Warm-up on pages kept out of the measurements: JIT, thread pools, connections.
  for (const page of warmupPages) {
    for (const region of gridRegions(page)) {
      await get(s.ours + oursPath(page.id, region, '256,'), s.agentOurs);
      if (s.iip) await get(s.iip + iipPath(page.id, region, '256,'), s.agentIip);
    }
  }
  // Both answer 200 with a 512×512 JPEG before anything is timed.
  const probe = warmupPages[0]!;
  const probeRegion = gridRegions(probe)[0]!;
  const oursProblem = checkTile(await get(s.ours + oursPath(probe.id, probeRegion), s.agentOurs), TILE, TILE);
  if (oursProblem) throw new Error(`our server: ${oursPath(probe.id, probeRegion)}: ${oursProblem}`);
  if (s.iip) {
    const iipProblem = checkTile(await get(s.iip + iipPath(probe.id, probeRegion), s.agentIip), TILE, TILE);
    if (iipProblem) {
      s.iipUnavailable = `IIPImage answered ${iipPath(probe.id, probeRegion)} with ${iipProblem}`;
      s.iip = undefined;
      log(s.iipUnavailable);
    }
  }
}

/** The requests of a list in a shuffled order, each marked when it is the first of its page. */
function toTargets(
  list: Array<{ id: number; region: string; size: string; width: number; height: number }>,
  seed: number,
): Target[] {
  const seen = new Set<number>();
  return shuffle(list, prng(seed)).map(({ id, region, size, width, height }) => {
    const firstOnPage = !seen.has(id);
    seen.add(id);
    const ours = oursPath(id, region, size);
    return { id, region, ours, iip: iipPath(id, region, size), firstOnPage, width, height };
  });
}

/**
 * Two cold sets on different pages, each in a shuffled order: every whole 512² region at full
 * resolution of half the pages, and every tile a viewer asks for (all scale factors, edges included)
 * of the other half.
 */
function coldSets(measured: Page[]): { targets: Target[]; viewerTargets: Target[] } {
  const half = Math.ceil(measured.length / 2);
  const targets = toTargets(
    measured.slice(0, half).flatMap((page) =>
      gridRegions(page).map((region) => ({
        id: page.id,
        region,
        size: `${TILE},`,
        width: TILE,
        height: TILE,
      })),
    ),
    20_260_101,
  );
  const viewerTargets = toTargets(
    measured.slice(half).flatMap((page) => viewerTiles(page).map((tile) => ({ id: page.id, ...tile }))),
    20_260_102,
  );
  log(
    `${targets.length} cold whole regions on ${half} pages; ${viewerTargets.length} viewer tiles on ${measured.length - half} pages`,
  );
  return { targets, viewerTargets };
}

/** What the sequential passes recorded. */
interface Passes {
  results: Record<'oursCold' | 'oursWarm' | 'iipCold' | 'iipWarm' | 'oursViewer' | 'iipViewer', Timed>;
  /** For each request of the cold pass, whether it was the first of its page. */
  firstFlags: boolean[];
  /**
   * CPU per request (ms) of the first request of each page (in the cold and the viewer passes, run
   * apart from the others), and of the cold pass's other regions.
   */
  coldCpu: { first: { ours: number; iip: number }; other: { ours: number; iip: number } };
  /** Times (ms) of the first request of each page, both passes. */
  firstMs: { ours: number[]; iip: number[] };
  /**
   * Where each of our answers came from (x-image-source): `tile` (a stored pyramid tile sent as it
   * is), `render` (decoded and encoded) or `cache` (our disk cache of rendered answers).
   */
  sources: Map<Timed, Record<string, number>>;
}

/** One checked request, its time and size recorded into `into`. */
async function timeTile(
  passes: Passes,
  origin: string,
  url: string,
  agent: Agent,
  into: Timed,
  target: Target,
): Promise<void> {
  const response = await get(origin + url, agent);
  const problem = checkTile(response, target.width, target.height);
  if (problem) throw new Error(`${origin}${url}: ${problem}`);
  into.ms.push(response.ms);
  into.bytes.push(response.body.length);
  const source = response.headers['x-image-source'];
  if (typeof source === 'string') {
    const counts = passes.sources.get(into) ?? {};
    counts[source] = (counts[source] ?? 0) + 1;
    passes.sources.set(into, counts);
  }
}

/** One sequential pass over the list, alternating between the servers; their CPU (ms) in all. */
async function pass(
  s: Servers,
  passes: Passes,
  list: Target[],
  oursInto: Timed,
  iipInto: Timed,
  recordFirst: boolean,
): Promise<{ ours: number; iip: number }> {
  const meters = { ours: cpuMeter([s.server.pid]), iip: cpuMeter(s.iipPids) };
  for (const [i, target] of list.entries()) {
    // Alternate which server goes first so neither always follows the other's work.
    if (i % 2 === 0 || !s.iip) await timeTile(passes, s.ours, target.ours, s.agentOurs, oursInto, target);
    if (s.iip) await timeTile(passes, s.iip, target.iip, s.agentIip, iipInto, target);
    if (i % 2 === 1 && s.iip) await timeTile(passes, s.ours, target.ours, s.agentOurs, oursInto, target);
    if (recordFirst) passes.firstFlags.push(target.firstOnPage);
  }
  const total = {
    ours: meters.ours() * 1000,
    iip: meters.iip() * 1000,
  };
  oursInto.cpuMs = total.ours / list.length;
  iipInto.cpuMs = total.iip / list.length;
  return total;
}

/** The cold, warm and viewer-tile passes; none of our cold answers may come from our cache. */
async function timedPasses(
  s: Servers,
  targets: Target[],
  viewerTargets: Target[],
): Promise<Passes & { coldSources: Record<string, number>; viewerSources: Record<string, number> }> {
  const timed = (): Timed => ({ ms: [], bytes: [], cpuMs: 0 });
  const passes: Passes = {
    results: {
      oursCold: timed(),
      oursWarm: timed(),
      iipCold: timed(),
      iipWarm: timed(),
      oursViewer: timed(),
      iipViewer: timed(),
    },
    firstFlags: [],
    coldCpu: { first: { ours: 0, iip: 0 }, other: { ours: 0, iip: 0 } },
    firstMs: { ours: [], iip: [] },
    sources: new Map(),
  };
  const { results } = passes;
  // The first region of each page (opening its pyramid) in a pass of their own, so that their CPU is
  // measured apart; then every other region.
  log('cold pass…');
  const firsts = targets.filter((t) => t.firstOnPage);
  const others = targets.filter((t) => !t.firstOnPage);
  const first = await pass(s, passes, firsts, results.oursCold, results.iipCold, true);
  const other = await pass(s, passes, others, results.oursCold, results.iipCold, true);
  const perRequest = (cpu: { ours: number; iip: number }, n: number) => ({
    ours: round2(cpu.ours / n),
    iip: round2(cpu.iip / n),
  });
  passes.coldCpu = { first: perRequest(first, firsts.length), other: perRequest(other, others.length) };
  results.oursCold.cpuMs = (first.ours + other.ours) / targets.length;
  results.iipCold.cpuMs = (first.iip + other.iip) / targets.length;
  // Cold means never answered before: from the pyramid, not from our cache of rendered answers.
  const coldSources = passes.sources.get(results.oursCold) ?? {};
  if (coldSources.cache) throw new Error(`${coldSources.cache} cold requests were answered from our cache`);
  log(`our cold answers: ${JSON.stringify(coldSources)}`);
  log('warm pass (the same URLs again)…');
  await pass(s, passes, [...firsts, ...others], results.oursWarm, results.iipWarm, false);
  log('viewer tiles pass (cold)…');
  const viewerFirsts = viewerTargets.filter((t) => t.firstOnPage);
  const viewerFirst = await pass(s, passes, viewerFirsts, results.oursViewer, results.iipViewer, false);
  const viewerOthers = viewerTargets.filter((t) => !t.firstOnPage);
  const viewerOther = await pass(s, passes, viewerOthers, results.oursViewer, results.iipViewer, false);
  results.oursViewer.cpuMs = (viewerFirst.ours + viewerOther.ours) / viewerTargets.length;
  results.iipViewer.cpuMs = (viewerFirst.iip + viewerOther.iip) / viewerTargets.length;
  // A page's first request, whatever it asks: twice as many samples as the cold pass alone has.
  passes.coldCpu.first = perRequest(
    { ours: first.ours + viewerFirst.ours, iip: first.iip + viewerFirst.iip },
    firsts.length + viewerFirsts.length,
  );
  passes.firstMs = {
    ours: [
      ...results.oursCold.ms.slice(0, firsts.length),
      ...results.oursViewer.ms.slice(0, viewerFirsts.length),
    ],
    iip: [
      ...results.iipCold.ms.slice(0, firsts.length),
      ...results.iipViewer.ms.slice(0, viewerFirsts.length),
    ],
  };
  const viewerSources = passes.sources.get(results.oursViewer) ?? {};
  if (viewerSources.cache)
    throw new Error(`${viewerSources.cache} cold viewer tiles were answered from our cache`);
  return { ...passes, coldSources, viewerSources };
}

const sourceText = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([source, n]) => `${n} ${source}`)
    .join(', ');

/** Never-seen random 512² regions of the measured pages, for the load tests. */
const randomSet = (measured: Page[], prefix: (id: number) => string): RequestSet => ({
  kind: 'random',
  prefixes: measured.map((p) => prefix(p.id)),
  suffix: `/${TILE},/0/default.jpg`,
  width: Math.min(...measured.map((p) => p.width)),
  height: Math.min(...measured.map((p) => p.height)),
  tile: TILE,
});

/** A load test of one server, with the CPU its processes used per request. */
async function load(
  work: string,
  origin: string,
  set: RequestSet,
  pids: Array<number | undefined>,
  seed: number,
): Promise<Load> {
  const meter = cpuMeter(pids);
  const result = await loadTest(origin, set, {
    connections: CONNECTIONS,
    seconds: SECONDS,
    workDir: work,
    seed,
  });
  const cpuMs = (meter() * 1000) / Math.max(1, result.requests);
  return { ...result, cpuMsPerRequest: Math.round(cpuMs * 100) / 100 };
}

/** Requests per second of both servers: a fixed URL set repeated, and never-seen random regions. */
async function loadTests(s: Servers, fixed: Target[], measured: Page[]) {
  log(`requests per second, ${CONNECTIONS} clients, ${SECONDS} s each…`);
  const oursFixed = await load(
    s.work,
    s.ours,
    { kind: 'fixed', paths: fixed.map((t) => t.ours) },
    [s.server.pid],
    1,
  );
  const iipFixed = s.iip
    ? await load(s.work, s.iip, { kind: 'fixed', paths: fixed.map((t) => t.iip) }, s.iipPids, 2)
    : undefined;
  const oursRandom = await load(
    s.work,
    s.ours,
    randomSet(measured, (id) => `/iiif/3/${id}/`),
    [s.server.pid],
    3,
  );
  const iipRandom = s.iip
    ? await load(
        s.work,
        s.iip,
        randomSet(measured, (id) => `/iiif/p${id}.tif/`),
        s.iipPids,
        4,
      )
    : undefined;
  return { oursFixed, iipFixed, oursRandom, iipRandom };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const mean = (xs: number[]) => Math.round(xs.reduce((sum, x) => sum + x, 0) / Math.max(1, xs.length));

/** One server's figures: its cold requests split by first region of a page or not, warm, bytes, load. */
function figures(
  firstFlags: boolean[],
  cold: Timed & { firstCpuMs: number; otherCpuMs: number; firstMs: number[] },
  warm: Timed,
  rpsFixed: Load,
  rpsNeverSeen: Load,
): ServerFigures {
  const split = (t: Timed, first: boolean) => summarize(t.ms.filter((_, i) => firstFlags[i] === first));
  return {
    cold: summarize(cold.ms),
    coldFirstOnPage: summarize(cold.firstMs),
    coldFirstCpuMsPerRequest: cold.firstCpuMs,
    coldOtherCpuMsPerRequest: cold.otherCpuMs,
    coldOtherRegions: split(cold, false),
    warm: summarize(warm.ms),
    coldCpuMsPerRequest: round2(cold.cpuMs),
    warmCpuMsPerRequest: round2(warm.cpuMs),
    meanBytes: mean(cold.bytes),
    rpsFixed,
    rpsNeverSeen,
  };
}

/** Everything the report of a run shows. */
interface TileFigures {
  demoSeconds: number;
  pages: number;
  loadAverageAfter: number;
  coldRegions: number;
  viewerTiles: number;
  coldSources: Record<string, number>;
  viewerSources: Record<string, number>;
  oursViewer: Timed;
  iipViewer: Timed;
  ours: ServerFigures;
  iip: ServerFigures | undefined;
  iipUnavailable: string | undefined;
}

/** The table's rows of our server: CPU per request first (steadier than latency on a shared machine). */
function oursRows(f: TileFigures, info: Machine): Array<[string, string]> {
  const o = f.ours;
  return [
    ['demo library made in', `${f.demoSeconds.toFixed(1)} s (${f.pages} public pages with pyramids)`],
    ['load average 1 min, start / end', `${info.loadAverage1m} / ${f.loadAverageAfter} (${info.cpus} CPUs)`],
    ['ours: cold 512² region', `CPU ${o.coldCpuMsPerRequest} ms/req; ${fmtMs(o.cold)}`],
    [
      'ours: first request of a page',
      `CPU ${o.coldFirstCpuMsPerRequest} ms/req; ${fmtMs(o.coldFirstOnPage)}`,
    ],
    ['ours: cold, other regions', `CPU ${o.coldOtherCpuMsPerRequest} ms/req; ${fmtMs(o.coldOtherRegions)}`],
    ['ours: cold answers came from', sourceText(f.coldSources)],
    [
      'ours: viewer tiles (cold, all scale factors)',
      `CPU ${round2(f.oursViewer.cpuMs)} ms/req; ${fmtMs(summarize(f.oursViewer.ms))}; ${sourceText(f.viewerSources)}`,
    ],
    ['ours: warm (the same URLs again)', `CPU ${o.warmCpuMsPerRequest} ms/req; ${fmtMs(o.warm)}`],
    ['ours: mean JPEG bytes', String(o.meanBytes)],
    ['ours: rps, fixed 64 URLs (repeated)', rpsText(o.rpsFixed)],
    ['ours: rps, never-seen regions', rpsText(o.rpsNeverSeen)],
  ];
}

/** The table's rows of IIPImage and of the two side by side. */
function iipRows(f: TileFigures, iip: ServerFigures): Array<[string, string]> {
  const o = f.ours;
  return [
    ['IIPImage: first request', `CPU ${iip.coldCpuMsPerRequest} ms/req; ${fmtMs(iip.cold)}`],
    [
      'IIPImage: first request of a page',
      `CPU ${iip.coldFirstCpuMsPerRequest} ms/req; ${fmtMs(iip.coldFirstOnPage)}`,
    ],
    [
      'IIPImage: viewer tiles (first request)',
      `CPU ${round2(f.iipViewer.cpuMs)} ms/req; ${fmtMs(summarize(f.iipViewer.ms))}`,
    ],
    ['IIPImage: repeated request', `CPU ${iip.warmCpuMsPerRequest} ms/req; ${fmtMs(iip.warm)}`],
    ['IIPImage: mean JPEG bytes', String(iip.meanBytes)],
    ['IIPImage: rps, fixed 64 URLs', rpsText(iip.rpsFixed)],
    ['IIPImage: rps, never-seen regions', rpsText(iip.rpsNeverSeen)],
    ['ratio cold CPU/req (IIPImage / ours)', String(ratio(iip.coldCpuMsPerRequest, o.coldCpuMsPerRequest))],
    [
      'ratio first-request-of-a-page CPU/req (IIPImage / ours)',
      String(ratio(iip.coldFirstCpuMsPerRequest, o.coldFirstCpuMsPerRequest)),
    ],
    ['ratio viewer tiles CPU/req (IIPImage / ours)', String(ratio(f.iipViewer.cpuMs, f.oursViewer.cpuMs))],
    [
      'ratio never-seen CPU/req (IIPImage / ours)',
      String(ratio(iip.rpsNeverSeen.cpuMsPerRequest, o.rpsNeverSeen.cpuMsPerRequest)),
    ],
    ['ratio rps fixed (ours / IIPImage)', String(ratio(o.rpsFixed.rps, iip.rpsFixed.rps))],
    ['ratio rps never-seen (ours / IIPImage)', String(ratio(o.rpsNeverSeen.rps, iip.rpsNeverSeen.rps))],
    ['ratio cold p50 (IIPImage / ours)', String(ratio(iip.cold.p50, o.cold.p50))],
    [
      'ratio viewer tiles p50 (IIPImage / ours)',
      String(ratio(summarize(f.iipViewer.ms).p50, summarize(f.oursViewer.ms).p50)),
    ],
  ];
}

/** A budget that ours costs no more CPU per request than IIPImage. */
const cpuBudget = (what: string, ours: number, iip: number): Budget => ({
  what: `CPU per request ≤ IIPImage: ${what}`,
  budget: '≤ IIPImage',
  measured: `${round2(ours)} vs ${round2(iip)} ms`,
  met: ours <= iip,
});

/** Issue 34's bars, side by side with IIPImage in this run. */
function iipBudgets(f: TileFigures, iip: ServerFigures): Budget[] {
  const o = f.ours;
  return [
    cpuBudget('cold regions', o.coldCpuMsPerRequest, iip.coldCpuMsPerRequest),
    cpuBudget('first request of a page', o.coldFirstCpuMsPerRequest, iip.coldFirstCpuMsPerRequest),
    cpuBudget('viewer tiles', f.oursViewer.cpuMs, f.iipViewer.cpuMs),
    cpuBudget('never-seen regions', o.rpsNeverSeen.cpuMsPerRequest, iip.rpsNeverSeen.cpuMsPerRequest),
    {
      what: 'req/s on fixed URLs ≥ 3× IIPImage',
      budget: '≥ 3×',
      measured: `${o.rpsFixed.rps} vs ${iip.rpsFixed.rps}/s (${ratio(o.rpsFixed.rps, iip.rpsFixed.rps)}×)`,
      met: o.rpsFixed.rps >= 3 * iip.rpsFixed.rps,
    },
  ];
}

/** The report's table and budgets: our figures, then IIPImage's beside them or why it is missing. */
function tilesReport(f: TileFigures, info: Machine): { table: Array<[string, string]>; budgets: Budget[] } {
  const table = oursRows(f, info);
  const rendered = f.viewerSources.render ?? 0;
  const budgets: Budget[] = [
    {
      what: 'IIIF tile cold p50',
      budget: '≤ 15 ms',
      measured: `${f.ours.cold.p50} ms`,
      met: f.ours.cold.p50 <= 15,
    },
    {
      what: 'viewer tiles rendered (the pyramid holds them all)',
      budget: '0',
      measured: `${rendered} of ${f.viewerTiles}`,
      met: rendered === 0,
    },
    {
      what: 'a cached tile (fixed URLs), server CPU',
      budget: '≤ 0.3 ms',
      measured: `${f.ours.rpsFixed.cpuMsPerRequest} ms`,
      met: f.ours.rpsFixed.cpuMsPerRequest <= 0.3,
    },
  ];
  if (f.iip) {
    table.push(...iipRows(f, f.iip));
    budgets.push(...iipBudgets(f, f.iip));
  } else {
    table.push(['IIPImage', `unavailable: ${f.iipUnavailable}`]);
    budgets.push({
      what: 'tile faster than IIPImage',
      budget: 'side by side',
      measured: 'IIPImage unavailable',
      met: null,
    });
  }
  return { table, budgets };
}

/** The result's data: every figure, IIPImage's with how it was run. */
function tilesData(f: TileFigures): Record<string, unknown> {
  return {
    loadAverageAfter: f.loadAverageAfter,
    pages: f.pages,
    coldRegions: f.coldRegions,
    coldSources: f.coldSources,
    viewerTiles: f.viewerTiles,
    viewerSources: f.viewerSources,
    oursViewer: summarize(f.oursViewer.ms),
    iipViewer: summarize(f.iipViewer.ms),
    tile: TILE,
    iipImage: f.iip
      ? {
          processes: Number(process.env.BENCH_IIP_PROCS ?? os.availableParallelism()),
          tiff: process.env.BENCH_IIP_TIFF === 'vips' ? 'vips tiffsave from the masters' : 'our pyramids',
          ...f.iip,
        }
      : { unavailable: f.iipUnavailable },
    ours: f.ours,
  };
}

/** Everything measured on both servers: the sequential passes, then the load tests. */
async function measureTiles(s: Servers, demoSeconds: number, pages: Page[]): Promise<TileFigures> {
  await warmUpAndProbe(s, pages.slice(0, WARMUP_PAGES));
  const measured = pages.slice(WARMUP_PAGES);
  const { targets, viewerTargets } = coldSets(measured);
  const passes = await timedPasses(s, targets, viewerTargets);
  const { results, firstFlags } = passes;
  const { oursFixed, iipFixed, oursRandom, iipRandom } = await loadTests(
    s,
    targets.slice(0, FIXED_SET),
    measured,
  );
  const { first, other } = passes.coldCpu;
  const oursCold = {
    ...results.oursCold,
    firstCpuMs: first.ours,
    otherCpuMs: other.ours,
    firstMs: passes.firstMs.ours,
  };
  const iipCold = {
    ...results.iipCold,
    firstCpuMs: first.iip,
    otherCpuMs: other.iip,
    firstMs: passes.firstMs.iip,
  };
  const oursFig = figures(firstFlags, oursCold, results.oursWarm, oursFixed, oursRandom);
  const iipFig =
    s.iip && iipFixed && iipRandom
      ? figures(firstFlags, iipCold, results.iipWarm, iipFixed, iipRandom)
      : undefined;
  const loadAverageAfter = Math.round(os.loadavg()[0]! * 100) / 100;
  return {
    demoSeconds,
    pages: pages.length,
    loadAverageAfter,
    coldRegions: targets.length,
    viewerTiles: viewerTargets.length,
    coldSources: passes.coldSources,
    viewerSources: passes.viewerSources,
    oursViewer: results.oursViewer,
    iipViewer: results.iipViewer,
    ours: oursFig,
    iip: iipFig,
    iipUnavailable: s.iipUnavailable,
  };
}

/** Runs the tile benchmark: our server and IIPImage side by side on the demo library's pyramids. */
export async function runTiles(): Promise<BenchResult> {
  const started = new Date();
  const t0 = performance.now();
  const info = machine();
  const work = tempDir('guji-bench-tiles-');
  const dataDir = path.join(work, 'data');
  try {
    const { demoSeconds, pages } = await makeDemoLibrary(work, dataDir);
    const servers = await startServers(work, dataDir, pages);
    const measured = await measureTiles(servers, demoSeconds, pages);
    servers.agentOurs.destroy();
    servers.agentIip.destroy();
    const { table, budgets } = tilesReport(measured, info);
    await stopAll();
    return {
      name: 'tiles',
      startedAt: started.toISOString(),
      seconds: (performance.now() - t0) / 1000,
      machine: info,
      budgets,
      table,
      data: tilesData(measured),
    };
  } finally {
    await stopAll();
    removeDir(work);
  }
}

function rpsText(r: Load): string {
  return `${r.rps}/s, CPU ${r.cpuMsPerRequest} ms/req (${r.requests} in ${r.seconds} s, ${r.connections} clients, latency p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, errors ${r.errors}, ${r.tool})`;
}

if (import.meta.main) {
  const result = await runTiles();
  printResult(result);
  console.log(`\nresults: ${writeResult(result)}`);
}
