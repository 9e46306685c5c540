import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '../../db/database.ts';
import type { JobRepository } from '../../jobs/job.repository.ts';
import type { JobObserver, JobOutcome } from '../../jobs/worker.ts';

/** Where an IIIF image response came from: a pyramid tile, the disk cache, or rendered now. */
export type ImageSource = 'tile' | 'cache' | 'render';

/**
 * The process's Prometheus metrics (GET /metrics): request latency by route, job queue depth and job
 * durations by kind, OCR pages, IIIF image sources (the tile cache's hit rate), the PostgreSQL pool, and
 * Node's own (memory, event-loop lag, GC). One registry per process, so tests get their own.
 */
export class Metrics implements JobObserver {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly jobDuration: Histogram<'kind' | 'outcome'>;
  private readonly ocrPages: Counter;
  private readonly images: Counter<'source'>;

  constructor(jobs: JobRepository, database: DatabaseHandle) {
    collectDefaultMetrics({ register: this.registry, prefix: 'guji_' });
    this.httpDuration = new Histogram({
      name: 'guji_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.jobDuration = new Histogram({
      name: 'guji_job_duration_seconds',
      help: 'Time a worker took to run a job, by kind and outcome',
      labelNames: ['kind', 'outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [this.registry],
    });
    this.ocrPages = new Counter({
      name: 'guji_ocr_pages_total',
      help: 'Pages recognised by the OCR in this process (rate() gives pages per second)',
      registers: [this.registry],
    });
    this.images = new Counter({
      name: 'guji_iiif_images_total',
      help: 'IIIF image responses by source: tile (from the pyramid), cache (disk cache hit), render',
      labelNames: ['source'],
      registers: [this.registry],
    });
    new Gauge({
      name: 'guji_jobs',
      help: 'Jobs in the durable queue by status (the whole queue, not only this process)',
      labelNames: ['status'],
      registers: [this.registry],
      async collect() {
        const counts = await jobs.countByStatus();
        for (const [status, count] of Object.entries(counts)) this.set({ status }, count);
      },
    });
    new Gauge({
      name: 'guji_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting queries); absent on SQLite',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const pool = database.poolStats();
        if (!pool) return;
        this.set({ state: 'total' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
      },
    });
  }

  requestFinished(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status: String(status) }, seconds);
  }

  jobFinished(kind: string, outcome: JobOutcome, seconds: number): void {
    this.jobDuration.observe({ kind, outcome }, seconds);
    if (kind === 'ocr.page' && outcome === 'succeeded') this.ocrPages.inc();
  }

  imageServed(source: ImageSource): void {
    this.images.inc({ source });
  }

  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
