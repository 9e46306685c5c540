import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence (DESIGN.md §8) by origin: a state-changing request made by a browser must come from
 * this site. Browsers send Origin on every cross-site POST and Sec-Fetch-Site on modern ones; a
 * request from another site is refused before any handler runs. Clients that are not browsers send
 * neither header and carry no ambient cookie risk.
 */
export function registerCsrfCheck(app: FastifyInstance, publicOrigin: string | undefined): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method) || isSameSite(request, publicOrigin)) done();
    else done(forbidden('请求来源不被允许', 'CSRF'));
  });
}

function isSameSite(request: FastifyRequest, publicOrigin: string | undefined): boolean {
  const origin = request.headers.origin;
  const fetchSite = request.headers['sec-fetch-site'];
  if (origin && origin !== 'null') {
    const host = request.headers['x-forwarded-host'] ?? request.headers.host;
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      return false;
    }
    if (originHost === host) return true;
    return publicOrigin !== undefined && origin === publicOrigin.replace(/\/$/, '');
  }
  if (origin === 'null') return false;
  return fetchSite === undefined || fetchSite === 'same-origin' || fetchSite === 'none';
}
