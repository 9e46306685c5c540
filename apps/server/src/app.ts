import { requestForLog } from './http/log-redact.ts';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { AppContext } from './context.ts';
import { assertContractRoutes } from './http/contract-route.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { registerCsrfCheck } from './http/csrf.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerSession } from './http/session.ts';
import { registerAcceptors } from './http/acceptors.ts';
import type { RouteDeps, RouteModule } from './http/route-module.ts';
import type { JobWorker } from './jobs/worker.ts';
import type { JobDataMap } from './jobs/registry.ts';
import { healthRoutes } from './features/health/health.route.ts';
import { siteRoutes } from './features/site/site.route.ts';
import { authRoutes } from './features/accounts/auth.route.ts';
import { meRoutes } from './features/profile/me.route.ts';
import { adminRoutes, importRoutes, terminalRoutes } from './features/console/admin.route.ts';
import { catalogRoutes } from './features/catalog/catalog.route.ts';
import { citationRoutes } from './features/catalog/citation.route.ts';
import { citationPageHead } from './features/catalog/citation-page.ts';
import { readerImageHead } from './features/catalog/reader-image-head.ts';
import { searchRoutes } from './features/search/search.route.ts';
import { ocrRoutes } from './features/ocr/ocr.route.ts';
import { correctionRoutes } from './features/ocr/corrections.route.ts';
import { iiifRoutes } from './features/iiif/iiif.route.ts';
import { iiifSearchRoutes } from './features/iiif/iiif-search.route.ts';
import { iiifAuthRoutes } from './features/iiif/iiif-auth.route.ts';
import { collectionRoutes } from './features/personal/collections.route.ts';
import { commentRoutes } from './features/personal/comments.route.ts';
import { downloadRoutes } from './features/personal/downloads.route.ts';
import { footprintRoutes } from './features/personal/footprints.route.ts';
import { noteRoutes } from './features/personal/notes.route.ts';
import { privilegeRoutes } from './features/personal/privileges.route.ts';
import { reservationRoutes } from './features/personal/reservations.route.ts';
import { printRoutes } from './features/print/print.route.ts';
import { refundRoutes } from './features/print/refund.route.ts';
import { ownBookRoutes } from './features/own-books/own-books.route.ts';
import { ownPageRoutes } from './features/own-books/own-pages.route.ts';
import { ownReviewRoutes } from './features/own-books/own-review.route.ts';
import { consoleRoutes } from './features/console/console.route.ts';
import { metricsRoutes } from './features/metrics/metrics.route.ts';
import { publicApiRoutes } from './features/public-api/public-api.route.ts';
import { apiTokenRoutes } from './features/public-api/api-tokens.route.ts';
import { marcRoutes } from './features/import/marc.route.ts';
import { oaiRoutes } from './features/oai/oai.route.ts';
import { runInRequest } from './lib/request-context.ts';
import { databaseRateLimitStore } from './http/rate-limit-store.ts';
import { readWebApp, serveWebApp } from './http/web-app.ts';

export interface BuildAppOptions {
  /** Run jobs in this process (the default for `serve`). */
  runWorker?: boolean;
  /** Pino options, or false for silence (tests). */
  logger?: boolean | { level: string };
  /** Where the configured logger writes (standard output by default; a test's stream). */
  logStream?: { write(line: string): void };
}

/** Builds the HTTP server: API, OpenAPI docs, and the built web app, in one process. */
export async function buildApp(context: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = context;
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      serializers: { req: requestForLog },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Request ids unique across processes; a proxy's X-Request-Id (nginx $request_id) is kept.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
  observeRequests(app, context);
  // Eight listening sockets on the port, so that a busy server still accepts new clients at once.
  registerAcceptors(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const web = readWebApp(config.webDist);
  await registerPlugins(app, context, web.scriptHashes);

  // Every /api route is declared once in packages/shared (http/contract-route.ts).
  assertContractRoutes(app);
  registerErrorHandler(app);
  registerCsrfCheck(app, config.publicOrigin);
  registerSession(app, context);

  const worker = options.runWorker ? context.createWorker(app.log) : undefined;
  const deps: RouteDeps = { context, worker };
  for (const routes of ROUTES) routes(app, deps);

  // Book and reader pages carry citation tags for reference managers (issue 18); the reader's page
  // its first image, asked for before the application's scripts (issue 32).
  serveWebApp(app, web, {
    head: citationPageHead(config, context.services.citations),
    readerImage: readerImageHead(context.services.catalog),
  });
  if (worker) runWorkerWithApp(app, context, worker);
  return app;
}

/** Every feature's routes, registered in this order. */
const ROUTES: RouteModule[] = [
  healthRoutes,
  siteRoutes,
  authRoutes,
  meRoutes,
  adminRoutes,
  importRoutes,
  terminalRoutes,
  catalogRoutes,
  citationRoutes,
  searchRoutes,
  collectionRoutes,
  downloadRoutes,
  commentRoutes,
  noteRoutes,
  footprintRoutes,
  privilegeRoutes,
  reservationRoutes,
  printRoutes,
  refundRoutes,
  ownBookRoutes,
  ownPageRoutes,
  ownReviewRoutes,
  consoleRoutes,
  marcRoutes,
  ocrRoutes,
  correctionRoutes,
  iiifRoutes,
  iiifSearchRoutes,
  iiifAuthRoutes,
  metricsRoutes,
  publicApiRoutes,
  apiTokenRoutes,
  oaiRoutes,
];

/** Request ids (back to the client and into every job the request queues) and per-route metrics. */
function observeRequests(app: FastifyInstance, context: AppContext): void {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    runInRequest({ requestId: request.id }, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    context.metrics.requestFinished(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}

/** Security headers, cookies, rate limits, uploads and the API description. */
async function registerPlugins(
  app: FastifyInstance,
  context: AppContext,
  scriptHashes: string[],
): Promise<void> {
  registerSecurityHeaders(app, { scriptHashes, production: context.config.production });
  await app.register(cookie);
  // Counted in the database: every process behind the proxy sees the same counts.
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(context.repos.rateLimits) });
  await app.register(multipart, { limits: { fileSize: 2 * 1024 ** 3, files: 1, fields: 20 } });
  await app.register(swagger, {
    openapi: {
      info: {
        title: '古籍数字图书馆 API',
        version: '0.1.0',
        description: 'API of the digital library of ancient Chinese books.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'guji_session' },
          // The public read API (/api/v1): a personal API token (docs/public-api.md).
          bearer: { type: 'http', scheme: 'bearer', description: '个人 API 令牌（我的信息 → API 令牌）' },
        },
      },
    },
    transform: describedTransform,
    // The schemas with an id (the tree-shaped answers refer to themselves) as components, so every
    // `$ref` resolves (issue 31 item 8).
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}

/** The in-process job worker starts when the server is ready and stops with it; it purges what expired. */
function runWorkerWithApp(app: FastifyInstance, context: AppContext, worker: JobWorker<JobDataMap>): void {
  context.queue.onEnqueue(() => worker.notify());
  const purge = () =>
    context.queue.enqueue(
      'maintenance.purge',
      {},
      { dedupeKey: 'maintenance.purge', tx: context.database.db },
    );
  // Expired sessions, captchas, login-failure counts and abandoned upload folders go at start and
  // every six hours after (a process that runs for weeks must not keep them all).
  let purgeTimer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    worker.start();
    await purge();
    purgeTimer = setInterval(() => void purge().catch(() => {}), PURGE_INTERVAL_MS).unref();
  });
  app.addHook('onClose', () => {
    clearInterval(purgeTimer);
    return worker.stop();
  });
}

const PURGE_INTERVAL_MS = 6 * 3600_000;
/** An X-Request-Id worth keeping: short, no spaces or control characters. */
const REQUEST_ID = /^[\w.:-]{1,100}$/;

/**
 * The zod transform of each route for the API description, and a 200 for the routes that answer with a
 * file (a PDF, an image, MARCXML, a citation): OpenAPI needs at least one response per operation.
 */
const describedTransform: typeof jsonSchemaTransform = (input) => {
  const out = jsonSchemaTransform(input);
  const schema = out.schema as { response?: Record<string, unknown>; hide?: boolean } | undefined;
  if (schema && !schema.hide && Object.keys(schema.response ?? {}).length === 0)
    out.schema = { ...schema, response: { 200: { description: '文件（内容类型见 docs/api.md）' } } };
  return out;
};
