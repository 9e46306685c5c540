import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * The security headers of every answer (helmet): the content security policy — the page's own inline
 * script allowed by its hash —, no framing by other sites, and images other libraries' IIIF viewers may
 * load. The middleware is built once: @fastify/helmet built it again for every request, parsing the policy
 * each time, which was 3 % of a stored tile's cost (issue 34).
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { scriptHashes: string[]; production: boolean },
): void {
  const apply = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // antd writes its styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // The page's own inline script (the reader's early page image), by its hash.
        scriptSrc: ["'self'", ...options.scriptHashes],
        connectSrc: ["'self'"],
        frameAncestors: ["'self'"],
        objectSrc: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // IIIF viewers of other libraries load our images.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    strictTransportSecurity: options.production,
  });
  app.addHook('onRequest', (request, reply, done) => {
    apply(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}
