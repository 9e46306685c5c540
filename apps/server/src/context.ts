import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { migrateToLatest } from './db/migrator.ts';
import { transactor } from './db/query.ts';
import type { SmsProvider } from './features/accounts/sms.service.ts';
import { Metrics } from './features/metrics/metrics.ts';
import { IiifImageService } from './iiif/image.service.ts';
import { JobQueue } from './jobs/queue.ts';
import { JobWorker } from './jobs/worker.ts';
import { createJobHandlers } from './wiring/job-handlers.ts';
import type { JobDataMap } from './jobs/registry.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { resolveSecret } from './lib/session-secret.ts';
import type { OcrEngine } from './ocr/engine.ts';
import { ThreadedOcrEngine } from './ocr/engine-thread.ts';
import type { TextIndex } from './search/text-index.ts';
import { SqliteTextIndex } from './search/text-index.sqlite.ts';
import { PostgresTextIndex } from './search/text-index.postgres.ts';
import type { FileStorage } from './storage/storage.ts';
import { openStorage } from './storage/open-storage.ts';
import { createRepositories, type Repositories } from './wiring/repositories.ts';
import { createServices, type AppServices } from './wiring/services.ts';

/** Everything the HTTP server, the worker and the CLI share: one composition root. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  storage: FileStorage;
  /** For jobs, the CLI, the demo and tests; routes reach the database only through `services`. */
  repos: Repositories;
  services: AppServices;
  textIndex: TextIndex;
  iiifImages: IiifImageService;
  queue: JobQueue;
  /** Prometheus metrics of this process (GET /metrics). */
  metrics: Metrics;
  createWorker(log: FastifyBaseLogger): JobWorker<JobDataMap>;
  /** The OCR engine (loaded on first use by a worker; tests may replace it). */
  createOcrEngine(): Promise<OcrEngine>;
  close(): Promise<void>;
}

export interface ContextOverrides {
  clock?: Clock;
  smsProvider?: SmsProvider;
  database?: DatabaseHandle;
  ocrEngine?: () => Promise<OcrEngine>;
}

/** Opens the database, runs migrations and wires repositories and services. */
export async function createContext(config: Config, overrides: ContextOverrides = {}): Promise<AppContext> {
  const database = overrides.database ?? openDatabase(config.database);
  await migrateToLatest(database.db, database.dialect);
  const { db, dialect } = database;
  const clock = overrides.clock ?? systemClock;
  const storage = openStorage(config);
  const repos = createRepositories(db, dialect);
  const textIndex: TextIndex = dialect === 'sqlite' ? new SqliteTextIndex(db) : new PostgresTextIndex(db);
  const queue = new JobQueue(repos.jobs);
  const services = createServices(
    {
      config,
      repos,
      clock,
      secret: resolveSecret(config),
      storage,
      transact: transactor(db, () => database.catalogueWrites.transactionEnded()),
      catalogueWrites: database.catalogueWrites,
    },
    textIndex,
    queue,
    overrides.smsProvider,
  );
  const metrics = new Metrics(repos.jobs, database);
  const context: AppContext = {
    config,
    database,
    clock,
    storage,
    repos,
    services,
    textIndex,
    iiifImages: new IiifImageService(config.dataDir, {
      maxCacheBytes: config.iiifCacheMaxBytes,
      renderConcurrency: config.iiifRenderConcurrency,
      renderQueue: config.iiifRenderQueue,
      storage,
    }),
    queue,
    metrics,
    createWorker: (log) =>
      new JobWorker<JobDataMap>(repos.jobs, createJobHandlers(context), log, {
        observer: metrics,
        leaseMs: config.jobLeaseMs,
      }),
    // Recognition runs in its own thread, never on the thread that answers requests (issue 13 item 6).
    createOcrEngine: overrides.ocrEngine ?? (() => ThreadedOcrEngine.create()),
    close: async () => {
      // Counted page views and searches not yet written (UsageService keeps them a few seconds).
      await context.services.usage.close().catch(() => undefined);
      context.iiifImages.close();
      storage.close?.();
      await database.destroy();
    },
  };
  return context;
}
