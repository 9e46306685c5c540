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
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  type BenchResult,
  type Budget,
  type HttpResult,
  type LoadResult,
  type RequestSet,
  type Summary,
  LOOPBACK,
  SERVER_MAIN,
  cpuSeconds,
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

interface Page {
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
function publicPages(dataDir: string): Page[] {
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
function viewerTiles(page: Page): Array<{ region: string; size: string; width: number; height: number }> {
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
async function ensureIipImage(work: string): Promise<string | undefined> {
  const missing = () => !fs.existsSync(IIPSRV) || !hasCommand('lighttpd');
  if (!missing()) return undefined;
  if (process.env.BENCH_NO_INSTALL === '1')
    return 'iipimage-server or lighttpd not installed (BENCH_NO_INSTALL=1)';
  if (process.getuid?.() !== 0 || !hasCommand('apt-get'))
    return `iipimage-server or lighttpd not installed; install with: apt-get install -y ${IIP_PACKAGES.join(' ')}`;
  log(`installing ${IIP_PACKAGES.join(', ')} with apt-get…`);
  const logFile = path.join(work, 'apt.log');
  try {
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    await runToEnd('apt-get', ['update'], { logFile, env, timeoutMs: 5 * 60_000 });
    await runToEnd('apt-get', ['install', '-y', ...IIP_PACKAGES], { logFile, env, timeoutMs: 10 * 60_000 });
  } catch (error) {
    return `apt-get failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
  return missing() ? 'apt-get ran but iipsrv.fcgi or lighttpd is still missing' : undefined;
}

/** Starts iipsrv processes and lighttpd in front of them; returns lighttpd's origin and every pid. */
async function startIipImage(
  work: string,
  pages: Page[],
  dataDir: string,
): Promise<{ origin: string; pids: Array<number | undefined> }> {
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
  const port = await freePort();
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

export async function runTiles(): Promise<BenchResult> {
  const started = new Date();
  const t0 = performance.now();
  const info = machine();
  const work = tempDir('guji-bench-tiles-');
  const dataDir = path.join(work, 'data');
  try {
    log(`making the demo library in ${dataDir} (about 20 s)…`);
    const demoStarted = performance.now();
    await runToEnd(process.execPath, [...SERVER_MAIN, 'demo'], {
      env: { ...serverEnv(dataDir, 0), LOG_LEVEL: 'warn' },
      logFile: path.join(work, 'demo.log'),
    });
    const demoSeconds = (performance.now() - demoStarted) / 1000;
    const pages = publicPages(dataDir);
    if (pages.length <= WARMUP_PAGES) throw new Error(`only ${pages.length} public pages with pyramids`);

    const port = await freePort();
    const ours = `http://${LOOPBACK}:${port}`;
    const server = startProcess(process.execPath, [...SERVER_MAIN, 'serve'], {
      env: serverEnv(dataDir, port),
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
    const agentIip = newAgent();

    // Warm-up on pages kept out of the measurements: JIT, thread pools, connections.
    const warmupPages = pages.slice(0, WARMUP_PAGES);
    for (const page of warmupPages) {
      for (const region of gridRegions(page)) {
        await get(ours + oursPath(page.id, region, '256,'), agentOurs);
        if (iip) await get(iip + iipPath(page.id, region, '256,'), agentIip);
      }
    }
    // Both answer 200 with a 512×512 JPEG before anything is timed.
    const probe = warmupPages[0]!;
    const probeRegion = gridRegions(probe)[0]!;
    const oursProblem = checkTile(await get(ours + oursPath(probe.id, probeRegion), agentOurs), TILE, TILE);
    if (oursProblem) throw new Error(`our server: ${oursPath(probe.id, probeRegion)}: ${oursProblem}`);
    if (iip) {
      const iipProblem = checkTile(await get(iip + iipPath(probe.id, probeRegion), agentIip), TILE, TILE);
      if (iipProblem) {
        iipUnavailable = `IIPImage answered ${iipPath(probe.id, probeRegion)} with ${iipProblem}`;
        iip = undefined;
        log(iipUnavailable);
      }
    }

    // Two cold sets on different pages, each in a shuffled order: every whole 512² region at full
    // resolution of half the pages, and every tile a viewer asks for (all scale factors, edges
    // included) of the other half.
    const measured = pages.slice(WARMUP_PAGES);
    const half = Math.ceil(measured.length / 2);
    const toTargets = (
      list: Array<{ id: number; region: string; size: string; width: number; height: number }>,
      seed: number,
    ): Target[] => {
      const seen = new Set<number>();
      return shuffle(list, prng(seed)).map(({ id, region, size, width, height }) => {
        const firstOnPage = !seen.has(id);
        seen.add(id);
        const ours = oursPath(id, region, size);
        return { id, region, ours, iip: iipPath(id, region, size), firstOnPage, width, height };
      });
    };
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

    const timed = (): Timed => ({ ms: [], bytes: [], cpuMs: 0 });
    const results = {
      oursCold: timed(),
      oursWarm: timed(),
      iipCold: timed(),
      iipWarm: timed(),
      oursViewer: timed(),
      iipViewer: timed(),
    };
    const firstFlags: boolean[] = [];
    // Where each of our answers came from (x-image-source): `tile` (a stored pyramid tile sent as
    // it is), `render` (decoded and encoded) or `cache` (our disk cache of rendered answers).
    const sources = new Map<Timed, Record<string, number>>();
    const measure = async (
      origin: string,
      url: string,
      agent: typeof agentOurs,
      into: Timed,
      target: Target,
    ) => {
      const response = await get(origin + url, agent);
      const problem = checkTile(response, target.width, target.height);
      if (problem) throw new Error(`${origin}${url}: ${problem}`);
      into.ms.push(response.ms);
      into.bytes.push(response.body.length);
      const source = response.headers['x-image-source'];
      if (typeof source === 'string') {
        const counts = sources.get(into) ?? {};
        counts[source] = (counts[source] ?? 0) + 1;
        sources.set(into, counts);
      }
    };
    const pass = async (list: Target[], oursInto: Timed, iipInto: Timed, recordFirst: boolean) => {
      const cpuBefore = { ours: cpuSeconds([server.pid]), iip: cpuSeconds(iipPids) };
      for (const [i, target] of list.entries()) {
        // Alternate which server goes first so neither always follows the other's work.
        if (i % 2 === 0 || !iip) await measure(ours, target.ours, agentOurs, oursInto, target);
        if (iip) await measure(iip, target.iip, agentIip, iipInto, target);
        if (i % 2 === 1 && iip) await measure(ours, target.ours, agentOurs, oursInto, target);
        if (recordFirst) firstFlags.push(target.firstOnPage);
      }
      oursInto.cpuMs = ((cpuSeconds([server.pid]) - cpuBefore.ours) * 1000) / list.length;
      iipInto.cpuMs = ((cpuSeconds(iipPids) - cpuBefore.iip) * 1000) / list.length;
    };
    log('cold pass…');
    await pass(targets, results.oursCold, results.iipCold, true);
    // Cold means never answered before: from the pyramid, not from our cache of rendered answers.
    const coldSources = sources.get(results.oursCold) ?? {};
    if (coldSources.cache) throw new Error(`${coldSources.cache} cold requests were answered from our cache`);
    log(`our cold answers: ${JSON.stringify(coldSources)}`);
    log('warm pass (the same URLs again)…');
    await pass(targets, results.oursWarm, results.iipWarm, false);
    log('viewer tiles pass (cold)…');
    await pass(viewerTargets, results.oursViewer, results.iipViewer, false);
    const viewerSources = sources.get(results.oursViewer) ?? {};
    if (viewerSources.cache)
      throw new Error(`${viewerSources.cache} cold viewer tiles were answered from our cache`);
    const sourceText = (counts: Record<string, number>) =>
      Object.entries(counts)
        .map(([source, n]) => `${n} ${source}`)
        .join(', ');

    const split = (t: Timed, first: boolean) => summarize(t.ms.filter((_, i) => firstFlags[i] === first));
    const mean = (xs: number[]) => Math.round(xs.reduce((sum, x) => sum + x, 0) / Math.max(1, xs.length));
    const fixed = targets.slice(0, FIXED_SET);
    const randomSet = (prefix: (id: number) => string): RequestSet => ({
      kind: 'random',
      prefixes: measured.map((p) => prefix(p.id)),
      suffix: `/${TILE},/0/default.jpg`,
      width: Math.min(...measured.map((p) => p.width)),
      height: Math.min(...measured.map((p) => p.height)),
      tile: TILE,
    });
    const load = async (origin: string, set: RequestSet, pids: Array<number | undefined>, seed: number) => {
      const before = cpuSeconds(pids);
      const result = await loadTest(origin, set, {
        connections: CONNECTIONS,
        seconds: SECONDS,
        workDir: work,
        seed,
      });
      const cpuMs = ((cpuSeconds(pids) - before) * 1000) / Math.max(1, result.requests);
      return { ...result, cpuMsPerRequest: Math.round(cpuMs * 100) / 100 };
    };

    log(`requests per second, ${CONNECTIONS} clients, ${SECONDS} s each…`);
    const oursFixed = await load(ours, { kind: 'fixed', paths: fixed.map((t) => t.ours) }, [server.pid], 1);
    const iipFixed = iip
      ? await load(iip, { kind: 'fixed', paths: fixed.map((t) => t.iip) }, iipPids, 2)
      : undefined;
    const oursRandom = await load(
      ours,
      randomSet((id) => `/iiif/3/${id}/`),
      [server.pid],
      3,
    );
    const iipRandom = iip
      ? await load(
          iip,
          randomSet((id) => `/iiif/p${id}.tif/`),
          iipPids,
          4,
        )
      : undefined;

    const round2 = (x: number) => Math.round(x * 100) / 100;
    const figures = (cold: Timed, warm: Timed, rpsFixed: Load, rpsNeverSeen: Load): ServerFigures => ({
      cold: summarize(cold.ms),
      coldFirstOnPage: split(cold, true),
      coldOtherRegions: split(cold, false),
      warm: summarize(warm.ms),
      coldCpuMsPerRequest: round2(cold.cpuMs),
      warmCpuMsPerRequest: round2(warm.cpuMs),
      meanBytes: mean(cold.bytes),
      rpsFixed,
      rpsNeverSeen,
    });
    const oursFig = figures(results.oursCold, results.oursWarm, oursFixed, oursRandom);
    const iipFig =
      iip && iipFixed && iipRandom
        ? figures(results.iipCold, results.iipWarm, iipFixed, iipRandom)
        : undefined;
    const loadAverageAfter = Math.round(os.loadavg()[0]! * 100) / 100;

    agentOurs.destroy();
    agentIip.destroy();

    const table: Array<[string, string]> = [
      ['demo library made in', `${demoSeconds.toFixed(1)} s (${pages.length} public pages with pyramids)`],
      ['load average 1 min, start / end', `${info.loadAverage1m} / ${loadAverageAfter} (${info.cpus} CPUs)`],
      ['ours: cold 512² region', `${fmtMs(oursFig.cold)}; CPU ${oursFig.coldCpuMsPerRequest} ms/req`],
      ['ours: cold, first region of a page', fmtMs(oursFig.coldFirstOnPage)],
      ['ours: cold, other regions', fmtMs(oursFig.coldOtherRegions)],
      ['ours: cold answers came from', sourceText(coldSources)],
      [
        'ours: viewer tiles (cold, all scale factors)',
        `${fmtMs(summarize(results.oursViewer.ms))}; CPU ${round2(results.oursViewer.cpuMs)} ms/req; ${sourceText(viewerSources)}`,
      ],
      [
        'ours: warm (the same URLs again)',
        `${fmtMs(oursFig.warm)}; CPU ${oursFig.warmCpuMsPerRequest} ms/req`,
      ],
      ['ours: mean JPEG bytes', String(oursFig.meanBytes)],
      ['ours: rps, fixed 64 URLs (repeated)', rpsText(oursFig.rpsFixed)],
      ['ours: rps, never-seen regions', rpsText(oursFig.rpsNeverSeen)],
    ];
    const budgets: Budget[] = [
      {
        what: 'IIIF tile cold p50',
        budget: '≤ 15 ms',
        measured: `${oursFig.cold.p50} ms`,
        met: oursFig.cold.p50 <= 15,
      },
    ];
    if (iipFig) {
      table.push(
        ['IIPImage: first request', `${fmtMs(iipFig.cold)}; CPU ${iipFig.coldCpuMsPerRequest} ms/req`],
        ['IIPImage: first request, first region of a page', fmtMs(iipFig.coldFirstOnPage)],
        [
          'IIPImage: viewer tiles (first request)',
          `${fmtMs(summarize(results.iipViewer.ms))}; CPU ${round2(results.iipViewer.cpuMs)} ms/req`,
        ],
        ['IIPImage: repeated request', `${fmtMs(iipFig.warm)}; CPU ${iipFig.warmCpuMsPerRequest} ms/req`],
        ['IIPImage: mean JPEG bytes', String(iipFig.meanBytes)],
        ['IIPImage: rps, fixed 64 URLs', rpsText(iipFig.rpsFixed)],
        ['IIPImage: rps, never-seen regions', rpsText(iipFig.rpsNeverSeen)],
        ['ratio cold p50 (IIPImage / ours)', String(ratio(iipFig.cold.p50, oursFig.cold.p50))],
        [
          'ratio viewer tiles p50 (IIPImage / ours)',
          String(ratio(summarize(results.iipViewer.ms).p50, summarize(results.oursViewer.ms).p50)),
        ],
        ['ratio cold p95 (IIPImage / ours)', String(ratio(iipFig.cold.p95, oursFig.cold.p95))],
        ['ratio warm p50 (IIPImage / ours)', String(ratio(iipFig.warm.p50, oursFig.warm.p50))],
        [
          'ratio cold CPU/req (IIPImage / ours)',
          String(ratio(iipFig.coldCpuMsPerRequest, oursFig.coldCpuMsPerRequest)),
        ],
        ['ratio rps fixed (ours / IIPImage)', String(ratio(oursFig.rpsFixed.rps, iipFig.rpsFixed.rps))],
        [
          'ratio rps never-seen (ours / IIPImage)',
          String(ratio(oursFig.rpsNeverSeen.rps, iipFig.rpsNeverSeen.rps)),
        ],
      );
      budgets.push(
        {
          what: 'tile faster than IIPImage: cold p50',
          budget: '< IIPImage first request',
          measured: `${oursFig.cold.p50} vs ${iipFig.cold.p50} ms`,
          met: oursFig.cold.p50 < iipFig.cold.p50,
        },
        {
          what: 'tile faster than IIPImage: viewer tiles p50',
          budget: '< IIPImage first request',
          measured: `${summarize(results.oursViewer.ms).p50} vs ${summarize(results.iipViewer.ms).p50} ms`,
          met: summarize(results.oursViewer.ms).p50 < summarize(results.iipViewer.ms).p50,
        },
        {
          what: 'tile faster than IIPImage: rps, fixed URLs',
          budget: '> IIPImage',
          measured: `${oursFig.rpsFixed.rps} vs ${iipFig.rpsFixed.rps}/s`,
          met: oursFig.rpsFixed.rps > iipFig.rpsFixed.rps,
        },
        {
          what: 'tile faster than IIPImage: rps, never-seen',
          budget: '> IIPImage',
          measured: `${oursFig.rpsNeverSeen.rps} vs ${iipFig.rpsNeverSeen.rps}/s`,
          met: oursFig.rpsNeverSeen.rps > iipFig.rpsNeverSeen.rps,
        },
      );
    } else {
      table.push(['IIPImage', `unavailable: ${iipUnavailable}`]);
      budgets.push({
        what: 'tile faster than IIPImage',
        budget: 'side by side',
        measured: 'IIPImage unavailable',
        met: null,
      });
    }
    await stopAll();
    return {
      name: 'tiles',
      startedAt: started.toISOString(),
      seconds: (performance.now() - t0) / 1000,
      machine: info,
      budgets,
      table,
      data: {
        loadAverageAfter,
        pages: pages.length,
        coldRegions: targets.length,
        coldSources,
        viewerTiles: viewerTargets.length,
        viewerSources,
        oursViewer: summarize(results.oursViewer.ms),
        iipViewer: summarize(results.iipViewer.ms),
        tile: TILE,
        iipImage: iipFig
          ? {
              processes: Number(process.env.BENCH_IIP_PROCS ?? os.availableParallelism()),
              tiff: process.env.BENCH_IIP_TIFF === 'vips' ? 'vips tiffsave from the masters' : 'our pyramids',
              ...iipFig,
            }
          : { unavailable: iipUnavailable },
        ours: oursFig,
      },
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
