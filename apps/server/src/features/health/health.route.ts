import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthApi, HealthResponse, ProbeResponse } from '@guji/shared';
import { VerticalPageEngine } from '../../ocr/engine.ts';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';

const VERSION = '0.1.0';
/** How long readiness waits for the file store: a probe answers quickly, whatever the store does. */
const STORAGE_CHECK_MS = 3000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * GET /api/health: database reachability, the job queue's state, the OCR engine and the payment provider.
 * GET /api/health/live and /api/health/ready: the probes of a supervisor or load balancer. Live is the
 * process answering at all (restart it otherwise); ready is being able to serve: the database answers
 * and the file store (local disk or object store) and the process is not shutting down (take it out of
 * rotation otherwise, but do not restart it).
 */
export const healthRoutes: RouteModule = (app, { context, worker }) => {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.withTypeProvider<ZodTypeProvider>().route({
    ...routeOf(healthApi.live),
    handler: () => ({ status: 'ok' as const }),
  });
  app.withTypeProvider<ZodTypeProvider>().route({
    ...routeOf(healthApi.ready, { 503: ProbeResponse }),
    handler: async (_request, reply) => {
      if (closing) return reply.status(503).send({ status: 'unavailable', reason: '服务正在停止' });
      try {
        await context.database.ping();
      } catch {
        return reply.status(503).send({ status: 'unavailable', reason: '数据库无法连接' });
      }
      try {
        await withTimeout(context.storage.check(), STORAGE_CHECK_MS);
      } catch {
        const store = context.storage.kind === 's3' ? '对象存储' : '文件存储';
        return reply.status(503).send({ status: 'unavailable', reason: `${store}无法连接` });
      }
      return { status: 'ok' as const };
    },
  });
  // What the OCR engine will run does not change while the server runs: ask once.
  const ocr = VerticalPageEngine.describe();
  app.withTypeProvider<ZodTypeProvider>().route({
    ...routeOf(healthApi.check, { 503: HealthResponse }),
    handler: async (_request, reply) => {
      let dbOk = true;
      let counts = { queued: 0, running: 0, succeeded: 0, failed: 0 };
      try {
        await context.database.ping();
        counts = await context.queue.countByStatus();
      } catch {
        dbOk = false;
      }
      const body: HealthResponse = {
        status: dbOk ? 'ok' : 'degraded',
        database: { ok: dbOk, dialect: context.database.dialect },
        jobs: {
          workerRunning: worker?.isRunning ?? false,
          queued: counts.queued,
          running: counts.running,
          failed: counts.failed,
        },
        ocr,
        payment: { provider: context.config.paymentProvider },
        version: VERSION,
      };
      return reply.status(dbOk ? 200 : 503).send(body);
    },
  });
};
