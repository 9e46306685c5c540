/**
 * Helpers shared by the benchmarks: statistics, child processes that are always stopped, loopback HTTP
 * with timing, JPEG size checks, load generation (wrk or Node), machine description and result files.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

export const ROOT = path.resolve(import.meta.dirname, '..');
/** Results go to /tmp (bench/results would need a .gitignore entry). */
export const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? path.join(os.tmpdir(), 'guji-bench-results');
export const LOOPBACK = '127.0.0.1';

// Statistics

export interface Summary {
  n: number;
  min: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of sorted samples. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    n: sorted.length,
    min: r(sorted[0] ?? NaN),
    p50: r(percentile(sorted, 50)),
    p95: r(percentile(sorted, 95)),
    p99: r(percentile(sorted, 99)),
    max: r(sorted[sorted.length - 1] ?? NaN),
    mean: r(sorted.reduce((s, x) => s + x, 0) / Math.max(1, sorted.length)),
  };
}

export const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;

/** A small deterministic PRNG (mulberry32) so every run measures the same requests. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

// Child processes: every one started here is stopped at the end, also on error or Ctrl-C.

const children = new Set<ChildProcess>();

export interface StartOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** stdout and stderr are appended here. */
  logFile: string;
}

export function startProcess(command: string, args: string[], options: StartOptions): ChildProcess {
  const log = fs.openSync(options.logFile, 'a');
  const child = spawn(command, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** SIGTERM, then SIGKILL after the grace period. */
export async function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (exited(child)) return;
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await done;
  clearTimeout(timer);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((child) => stopProcess(child)));
}

/** Runs a command to completion; rejects with its log tail on a non-zero exit or after the timeout. */
export async function runToEnd(
  command: string,
  args: string[],
  options: StartOptions & { timeoutMs?: number },
): Promise<void> {
  const child = startProcess(command, args, options);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  const timer = setTimeout(() => void stopProcess(child, 2000), options.timeoutMs ?? 30 * 60_000);
  const code = await exit;
  clearTimeout(timer);
  if (code !== 0) {
    const tail = fs.readFileSync(options.logFile, 'utf8').split('\n').slice(-15).join('\n');
    throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${tail}`);
  }
}

process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the processes the benchmark started…`);
    void stopAll().finally(() => {
      for (const dir of [...tempDirs]) removeDir(dir);
      process.exit(130);
    });
  });
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ; 100 on Linux everywhere that matters). */
const CLOCK_TICKS = 100;

/**
 * CPU seconds (user + system, all threads) the processes have used so far, from /proc/<pid>/stat. The
 * difference over a phase divided by its requests is the CPU cost of a request, which background load on
 * the machine disturbs far less than latency or throughput.
 */
export function cpuSeconds(pids: Array<number | undefined>): number {
  let ticks = 0;
  for (const pid of pids) {
    if (pid === undefined) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // After the command: state is field 3, utime 14 and stime 15 (1-based, of the whole line).
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Exited, or not Linux.
    }
  }
  return ticks / CLOCK_TICKS;
}

/** Nanoseconds on a CPU of every thread of the processes (/proc/<pid>/task/<tid>/schedstat), by thread. */
function threadTimes(pids: Array<number | undefined>): Map<string, number> | undefined {
  const times = new Map<string, number>();
  try {
    for (const pid of pids) {
      if (pid === undefined) continue;
      for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
        const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8');
        times.set(`${pid}/${tid}`, Number(stat.split(' ')[0]));
      }
    }
  } catch {
    return undefined; // a process or thread went away meanwhile, or not Linux
  }
  return times;
}

/**
 * Measures the CPU seconds the processes use from now on: exactly (the nanoseconds of their threads)
 * when no thread came or went in between, else from /proc/<pid>/stat's 10 ms ticks (cpuSeconds), too
 * coarse for a phase of a few dozen short requests.
 */
export function cpuMeter(pids: Array<number | undefined>): () => number {
  const ticks = cpuSeconds(pids);
  const before = threadTimes(pids);
  return () => {
    const after = threadTimes(pids);
    const same =
      before && after && before.size === after.size && [...before.keys()].every((k) => after.has(k));
    if (!same) return cpuSeconds(pids) - ticks;
    let ns = 0;
    for (const [thread, time] of after) ns += time - before.get(thread)!;
    return ns / 1e9;
  };
}

/** The resident set size of a process in MB, from /proc/<pid>/status, with its peak. */
export function residentMb(pid: number): { rssMb: number; peakMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rssMb: Math.round(kb('VmRSS') / 102.4) / 10, peakMb: Math.round(kb('VmHWM') / 102.4) / 10 };
}

/** The child processes of a process (e.g. esbuild's service under tsx). */
export function childPids(pid: number): number[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/))
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

export function hasCommand(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until check() is true; throws after the timeout, naming what it waited for. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  child?: ChildProcess,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && exited(child)) throw new Error(`${what}: the process exited (${child.exitCode})`);
    try {
      if (await check()) return;
    } catch {
      // Not up yet.
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(200);
  }
}

/** Waits until the server at `origin` has no job queued or running (nothing competes with a measurement). */
export async function waitForIdleJobs(
  origin: string,
  agent: http.Agent,
  timeoutMs: number,
  child?: ChildProcess,
): Promise<void> {
  await waitFor(
    'an empty job queue',
    async () => {
      const health = await getJson<{ jobs: { queued: number; running: number } }>(
        `${origin}/api/health`,
        agent,
      );
      return health.jobs.queued === 0 && health.jobs.running === 0;
    },
    timeoutMs,
    child,
  );
}

// HTTP over loopback

export interface HttpResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** From sending the request to the last byte of the body. */
  ms: number;
}

/** One keep-alive connection per benchmark client, as a browser tab would hold. */
export const newAgent = () => new http.Agent({ keepAlive: true, maxSockets: 1 });

export function get(url: string, agent: http.Agent): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(url, { agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
          ms: performance.now() - started,
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

export async function getJson<T>(url: string, agent: http.Agent): Promise<T> {
  const response = await get(url, agent);
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
  return JSON.parse(response.body.toString('utf8')) as T;
}

/** Width and height from a JPEG's start-of-frame marker, or undefined when the data is not a JPEG. */
export function jpegSize(data: Buffer): { width: number; height: number } | undefined {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  let i = 2;
  while (i + 9 < data.length) {
    if (data[i] !== 0xff) return undefined;
    const marker = data[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    const length = data.readUInt16BE(i + 2);
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) return { height: data.readUInt16BE(i + 5), width: data.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  return undefined;
}

// Load generation: requests per second with N concurrent keep-alive clients for a fixed time.

export type RequestSet =
  /** Cycle over fixed paths. */
  | { kind: 'fixed'; paths: string[] }
  /** Never-seen regions: `${prefix}${x},${y},${tile},${tile}${suffix}` at random x, y inside the image. */
  | { kind: 'random'; prefixes: string[]; suffix: string; width: number; height: number; tile: number };

export interface LoadResult {
  tool: 'wrk' | 'node';
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  /** Responses that were not 2xx/3xx, plus socket errors (timeouts included). */
  errors: number;
  /** Requests given up after the timeout (wrk's count; the Node client has none). */
  timeouts: number;
  latencyMs: { p50: number; p99: number };
}

export async function loadTest(origin: string, set: RequestSet, options: LoadOptions): Promise<LoadResult> {
  return hasCommand('wrk') ? wrkLoad(origin, set, options) : nodeLoad(origin, set, options);
}

function luaScript(set: RequestSet, seed: number): string {
  if (set.kind === 'fixed') {
    return [
      'local paths = {',
      ...set.paths.map((p) => `  ${JSON.stringify(p)},`),
      '}',
      'local i = 0',
      'function request()',
      '  i = i % #paths + 1',
      '  return wrk.format("GET", paths[i])',
      'end',
      '',
    ].join('\n');
  }
  return [
    'local prefixes = {',
    ...set.prefixes.map((p) => `  ${JSON.stringify(p)},`),
    '}',
    'local counter = 0',
    'function setup(thread)',
    '  counter = counter + 1',
    '  thread:set("seed", counter)',
    'end',
    'function init(args)',
    `  math.randomseed(${seed} * 1000 + seed)`,
    'end',
    'function request()',
    '  local p = prefixes[math.random(#prefixes)]',
    `  local x = math.random(0, ${set.width - set.tile})`,
    `  local y = math.random(0, ${set.height - set.tile})`,
    `  return wrk.format("GET", p .. x .. "," .. y .. ",${set.tile},${set.tile}" .. ${JSON.stringify(set.suffix)})`,
    'end',
    '',
  ].join('\n');
}

function toMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n;
}

/** A load test's clients, duration, files, random seed, and when a request counts as timed out (default 10 s). */
export interface LoadOptions {
  connections: number;
  seconds: number;
  workDir: string;
  seed: number;
  timeoutSeconds?: number;
}

async function wrkLoad(origin: string, set: RequestSet, options: LoadOptions): Promise<LoadResult> {
  const script = path.join(options.workDir, `wrk-${options.seed}.lua`);
  fs.writeFileSync(script, luaScript(set, options.seed));
  const logFile = path.join(options.workDir, `wrk-${options.seed}.out`);
  fs.writeFileSync(logFile, '');
  const threads = Math.min(2, options.connections);
  await runToEnd(
    'wrk',
    [
      `-t${threads}`,
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      '--latency',
      '--timeout',
      `${options.timeoutSeconds ?? 10}s`,
      '-s',
      script,
      `${origin}/`,
    ],
    { logFile },
  );
  const out = fs.readFileSync(logFile, 'utf8');
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = socket ? socket.slice(1).reduce((s, x) => s + Number(x), 0) : 0;
  const latency = (p: string) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s|m)`).exec(out);
    return m ? Math.round(toMs(m[1]!, m[2]!) * 100) / 100 : NaN;
  };
  if (!Number.isFinite(rps)) throw new Error(`could not read wrk's output:\n${out}`);
  return {
    tool: 'wrk',
    connections: options.connections,
    seconds: options.seconds,
    requests,
    rps: Math.round(rps),
    errors: non2xx + socketErrors,
    timeouts: socket ? Number(socket[4]) : 0,
    latencyMs: { p50: latency('50'), p99: latency('99') },
  };
}

async function nodeLoad(
  origin: string,
  set: RequestSet,
  options: { connections: number; seconds: number; seed: number },
): Promise<LoadResult> {
  const random = prng(options.seed);
  let next = 0;
  const nextPath = () => {
    if (set.kind === 'fixed') return set.paths[next++ % set.paths.length]!;
    const prefix = set.prefixes[Math.floor(random() * set.prefixes.length)]!;
    const x = Math.floor(random() * (set.width - set.tile + 1));
    const y = Math.floor(random() * (set.height - set.tile + 1));
    return `${prefix}${x},${y},${set.tile},${set.tile}${set.suffix}`;
  };
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const end = started + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      const agent = newAgent();
      while (performance.now() < end) {
        try {
          const response = await get(origin + nextPath(), agent);
          if (response.status >= 400) errors++;
          latencies.push(response.ms);
        } catch {
          errors++;
        }
      }
      agent.destroy();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const s = summarize(latencies);
  return {
    tool: 'node',
    connections: options.connections,
    seconds: options.seconds,
    requests: latencies.length,
    rps: Math.round(latencies.length / seconds),
    errors,
    timeouts: 0,
    latencyMs: { p50: s.p50, p99: s.p99 },
  };
}

// Machine and results

export interface Machine {
  cpus: number;
  model: string;
  memoryGb: number;
  node: string;
  kernel: string;
  /** 1-minute load average when the benchmark started: other work on the machine shows here. */
  loadAverage1m: number;
}

export function machine(): Machine {
  let model = os.cpus()[0]?.model ?? 'unknown';
  try {
    model = /model name\s*:\s*(.*)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? model;
  } catch {
    // Not Linux.
  }
  return {
    cpus: os.availableParallelism(),
    model,
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    kernel: os.release(),
    loadAverage1m: Math.round(os.loadavg()[0]! * 100) / 100,
  };
}

export interface Budget {
  what: string;
  budget: string;
  measured: string;
  met: boolean | null;
}

export interface BenchResult {
  name: string;
  startedAt: string;
  seconds: number;
  machine: Machine;
  budgets: Budget[];
  /** Rows for the printed table: label and value. */
  table: Array<[string, string]>;
  data: unknown;
}

export function writeResult(result: BenchResult): string {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${result.name}-${result.startedAt.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}

/** Display width: CJK characters take two columns. */
const width = (text: string) =>
  [...text].reduce(
    (w, ch) => w + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/.test(ch) ? 2 : 1),
    0,
  );
const pad = (text: string, n: number) => text + ' '.repeat(Math.max(0, n - width(text)));

export function formatTable(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, width(cell))));
  return rows
    .map((row) =>
      row
        .map((cell, i) => pad(cell, widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function printResult(result: BenchResult): void {
  console.log(`\n== ${result.name} (${result.seconds.toFixed(0)} s) ==`);
  console.log(formatTable(result.table.map(([label, value]) => [label, value])));
  console.log('\nbudgets (DESIGN.md §11):');
  console.log(
    formatTable(
      result.budgets.map((b) => [
        b.met === null ? '  n/a ' : b.met ? '  met ' : '  MISSED',
        b.what,
        b.budget,
        b.measured,
      ]),
    ),
  );
}

export const fmtMs = (s: Summary) => `p50 ${s.p50} ms, p95 ${s.p95} ms (n=${s.n}, max ${s.max})`;

const tempDirs = new Set<string>();

/** Makes a fresh temporary directory; removed by the caller (or on Ctrl-C) unless BENCH_KEEP=1. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export function removeDir(dir: string): void {
  tempDirs.delete(dir);
  if (process.env.BENCH_KEEP === '1') {
    console.log(`(kept ${dir})`);
    return;
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The server's own CLI, as `npm run cli` runs it. */
export const SERVER_MAIN = ['--import', 'tsx', 'apps/server/src/main.ts'];

/** Environment of a server run by a benchmark: its own data folder, loopback only, quiet logs. */
export function serverEnv(dataDir: string, port: number): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: LOOPBACK,
    LOG_LEVEL: 'warn',
    SESSION_SECRET: 'bench-session-secret',
  };
}

/**
 * Logs a demo account in to a benchmark's server (SQLite in `dataDir`), solving the captcha through the
 * database as the browser tests do; returns the session cookie's value.
 */
export async function loginCookie(
  origin: string,
  dataDir: string,
  secret: string,
  loginName: string,
  password: string,
): Promise<string> {
  const captcha = (await (await fetch(`${origin}/api/captcha`)).json()) as { captchaId: string };
  const db = new BetterSqlite3(path.join(dataDir, 'library.sqlite'), { timeout: 5000 });
  const hash = createHmac('sha256', secret).update(`captcha:${captcha.captchaId}:bench`).digest('hex');
  db.prepare('update captchas set answer_hash = ? where id = ?').run(hash, captcha.captchaId);
  db.close();
  const response = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ loginName, password, captchaId: captcha.captchaId, captchaCode: 'bench' }),
  });
  if (!response.ok) throw new Error(`login failed: ${await response.text()}`);
  const cookie = /guji_session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  if (!cookie) throw new Error('no session cookie');
  return cookie;
}

/**
 * Installs Debian packages a benchmark needs when they are missing and it may (root, apt-get there,
 * BENCH_NO_INSTALL unset); returns why they are not there when they cannot be, or undefined.
 */
export async function aptInstall(
  work: string,
  packages: string[],
  missing: () => boolean,
  log: (line: string) => void,
): Promise<string | undefined> {
  if (!missing()) return undefined;
  if (process.env.BENCH_NO_INSTALL === '1')
    return `${packages.join(', ')} not installed (BENCH_NO_INSTALL=1)`;
  if (process.getuid?.() !== 0 || !hasCommand('apt-get'))
    return `${packages.join(', ')} not installed; install with: apt-get install -y ${packages.join(' ')}`;
  log(`installing ${packages.join(', ')} with apt-get…`);
  const logFile = path.join(work, 'apt.log');
  try {
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    await runToEnd('apt-get', ['update'], { logFile, env, timeoutMs: 5 * 60_000 });
    await runToEnd('apt-get', ['install', '-y', ...packages], { logFile, env, timeoutMs: 10 * 60_000 });
  } catch (error) {
    return `apt-get failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
  return missing() ? `apt-get ran but ${packages.join(', ')} is still missing` : undefined;
}
