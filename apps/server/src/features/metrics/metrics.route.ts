import { createHash, timingSafeEqual } from 'node:crypto';
import type { RouteModule } from '../../http/route-module.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /metrics in Prometheus's text format, for a scraper that sends `Authorization: Bearer METRICS_TOKEN`.
 * Without METRICS_TOKEN the metrics are not served at all (404, as any unknown path): route names, queue
 * depths and memory are not for the public.
 */
export const metricsRoutes: RouteModule = (app, { context }) => {
  const token = context.config.metricsToken;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!token) {
      return reply.status(404).send({ code: 'NOT_FOUND', message: '接口不存在：GET /metrics' });
    }
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!timingSafeEqual(digest(given), digest(token))) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ code: 'UNAUTHORIZED', message: '需要正确的指标令牌（METRICS_TOKEN）' });
    }
    return reply
      .header('cache-control', 'no-store')
      .type(context.metrics.contentType)
      .send(await context.metrics.text());
  });
};
