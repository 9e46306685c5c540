import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../src/config.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const main = path.join(repoRoot, 'apps/server/src/main.ts');

/** A `serve` or `worker` process of the real program, started by a fault test. */
export interface ServerProcess {
  pid: number;
  /** Its base URL (`serve` only). */
  url: string;
  /** Everything it wrote to stdout and stderr so far (for failure messages). */
  output(): string;
  /** Settles with the exit code (null when killed by a signal) once it has exited. */
  exited: Promise<number | null>;
  /** True while it runs. */
  alive(): boolean;
  /** Ends it with kill -9 (nothing flushed, no shutdown hook) and waits until it has gone. */
  kill9(): Promise<void>;
}

/** The environment that gives a child process the same library (database, DATA_DIR) as `config`. */
export function envOf(config: Config, extra: Record<string, string> = {}): Record<string, string> {
  const database =
    config.database.dialect === 'postgres' ? config.database.url : `sqlite:${config.database.file}`;
  return {
    DATA_DIR: config.dataDir,
    DATABASE_URL: database,
    SESSION_SECRET: 'test-secret',
    WEB_DIST: config.webDist,
    DEMO_LIBRARY: 'false',
    OCR_ON_INGEST: 'false',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/** A TCP port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` every 50 ms until it returns a value other than undefined/false, or throws after `ms`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 20_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts and tracks the processes of one test file; `stopAll` (in afterAll) kill -9s every one still
 * running, so a failing test leaves none behind.
 */
export class Processes {
  private readonly started: ServerProcess[] = [];

  /** Starts `node main.ts <role>` with `env` (on top of this process's environment). */
  start(role: 'serve' | 'worker', env: Record<string, string>): ServerProcess {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', main, role], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let running = true;
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => {
        running = false;
        resolve(code);
      }),
    );
    const proc: ServerProcess = {
      pid: child.pid!,
      url: `http://127.0.0.1:${env.PORT ?? ''}`,
      output: () => output,
      exited,
      alive: () => running,
      kill9: async () => {
        if (running) child.kill('SIGKILL');
        await exited;
      },
    };
    this.started.push(proc);
    return proc;
  }

  /** Starts `serve` on a free port and waits until it answers `/api/health/live`. */
  async serve(env: Record<string, string>): Promise<ServerProcess> {
    const proc = this.start('serve', { ...env, PORT: String(await freePort()) });
    await waitFor(
      `serve to answer (${proc.output()})`,
      async () => {
        if (!proc.alive()) throw new Error(`serve exited: ${proc.output()}`);
        const response = await fetch(`${proc.url}/api/health/live`).catch(() => undefined);
        return response?.ok;
      },
      60_000,
    );
    return proc;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.started.map((proc) => proc.kill9()));
  }
}
