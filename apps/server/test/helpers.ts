import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../src/config.ts';
import { createContext, type AppContext, type ContextOverrides } from '../src/context.ts';
import type { Dialect } from '../src/db/database.ts';
import type { Clock } from '../src/lib/clock.ts';

/** Both dialects; repository tests run once per entry (DESIGN.md §12). */
export const DIALECTS: Dialect[] = ['sqlite', 'postgres'];

/** A clock the test moves by hand. */
export class FakeClock implements Clock {
  constructor(private current = new Date('2026-06-01T08:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(seconds: number): void {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}

/**
 * A fresh database of the given dialect (a new PostgreSQL database per call, on the shared test server
 * or on `postgresAdminUrl`'s) and its config.
 */
export async function testConfig(
  dialect: Dialect,
  env: Record<string, string> = {},
  postgresAdminUrl?: string,
): Promise<{ config: Config; cleanup: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-test-'));
  const base = {
    DATA_DIR: dataDir,
    SESSION_SECRET: 'test-secret',
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web'),
    // Tests that want OCR jobs turn this on; the rest should not wait for the engine.
    OCR_ON_INGEST: 'false',
    ...env,
  };
  if (dialect === 'sqlite') {
    return {
      config: loadConfig({ ...base, DATABASE_URL: `sqlite:${path.join(dataDir, 'test.sqlite')}` }),
      cleanup: () => Promise.resolve(fs.rmSync(dataDir, { recursive: true, force: true })),
    };
  }
  const adminUrl = postgresAdminUrl ?? inject('postgresUrl');
  const name = `guji_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template template0 encoding 'UTF8'`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    config: loadConfig({ ...base, DATABASE_URL: url.toString() }),
    cleanup: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The message `loadConfig` refuses this environment with, or undefined when it takes it. */
export function configError(env: Record<string, string>): string | undefined {
  try {
    loadConfig(env);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

export interface TestContext {
  context: AppContext;
  clock: FakeClock;
  close(): Promise<void>;
}

export async function createTestContext(
  dialect: Dialect,
  env: Record<string, string> = {},
  overrides: ContextOverrides = {},
  postgresAdminUrl?: string,
): Promise<TestContext> {
  const { config, cleanup } = await testConfig(dialect, env, postgresAdminUrl);
  const clock = new FakeClock();
  const context = await createContext(config, { clock, ...overrides });
  return {
    context,
    clock,
    close: async () => {
      await context.close();
      await cleanup();
    },
  };
}
