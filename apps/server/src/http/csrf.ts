import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence (DESIGN.md §8) by origin: a state-changing request made by a browser must come from
 * this site. Browsers send Origin on every cross-site POST and Sec-Fetch-Site on modern ones; a
 * request from another site is refused before any handler runs. Clients that are not browsers send
 * neither header and carry no ambient cookie risk.
 *
 * "This site" is the whole origin — scheme, host and port — the request was addressed to, or
 * PUBLIC_ORIGIN. `X-Forwarded-Host` and `X-Forwarded-Proto` count only when they come from a proxy
 * that TRUST_PROXY names (Fastify's `trustProxy`, which `request.host` and `request.protocol` obey).
 */
export function registerCsrfCheck(app: FastifyInstance, publicOrigin: string | undefined): void {
  const extra = publicOrigin === undefined ? undefined : originOf(publicOrigin);
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method) || isSameSite(request, extra)) done();
    else done(forbidden('请求来源不被允许', 'CSRF'));
  });
}

/** The origin (scheme://host[:port], default ports dropped) of a URL, or undefined when it is none. */
function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** The origin a request was addressed to, forwarded headers counting only from a trusted proxy. */
export function requestOrigin(request: FastifyRequest): string | undefined {
  return originOf(`${request.protocol}://${request.host}`);
}

function isSameSite(request: FastifyRequest, publicOrigin: string | undefined): boolean {
  const origin = request.headers.origin;
  const fetchSite = request.headers['sec-fetch-site'];
  if (origin && origin !== 'null') {
    const from = originOf(origin);
    if (from === undefined) return false;
    return from === requestOrigin(request) || from === publicOrigin;
  }
  if (origin === 'null') return false;
  return fetchSite === undefined || fetchSite === 'same-origin' || fetchSite === 'none';
}
