import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { Viewer } from '../../lib/viewer.ts';
import { RateLimitedError, type RateState } from './api-rate-limit.ts';
import type { TokenCaller } from './api-token.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** On /api/v1: the token and its user; null for an anonymous caller. */
    apiCaller: TokenCaller | null;
  }
}

/** Paths of the public API. */
export const PUBLIC_API_PREFIX = '/api/v1/';

/**
 * Whether a request is the public API's: by the route it reached (the router decodes the path, so
 * `/api/%761/books` reaches `/api/v1/books`: issue 30 item 2), else, for a path no route has (a 404, a
 * preflight), by its path decoded the same way.
 */
export function isPublicApi(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route !== undefined) return route.startsWith(PUBLIC_API_PREFIX);
  const path = request.url.split('?')[0]!;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: the path as sent.
  }
  return decoded.startsWith(PUBLIC_API_PREFIX) || path.startsWith(PUBLIC_API_PREFIX);
}

/**
 * Any site may call the API from a browser with a token in the header; no cookie is ever read or
 * sent (credentials are not allowed), so there is nothing for another site to ride on.
 */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Link, X-Request-Id',
};

/**
 * Before every /api/v1 request (unknown paths included): CORS preflights are answered (only GET, and
 * the Authorization header, are allowed); everything else passes the guard.
 */
export function registerPublicApiHooks(app: FastifyInstance, context: AppContext): void {
  const guard = apiGuard(context);
  app.decorateRequest('apiCaller', null);
  app.addHook('onRequest', async (request, reply) => {
    if (!isPublicApi(request)) return;
    if (request.method === 'OPTIONS') {
      await reply
        .code(204)
        .headers({
          ...CORS,
          'access-control-allow-methods': 'GET, HEAD, OPTIONS',
          'access-control-allow-headers': 'Authorization',
          'access-control-max-age': '86400',
        })
        .send();
      return reply;
    }
    await guard(request, reply);
  });
}

const tokenInvalid = () =>
  new AppError(
    401,
    'API_TOKEN_INVALID',
    'API 令牌无效：令牌不存在、已撤销或其用户已停用，请在“我的信息”中查看或新建令牌',
  );

/**
 * Runs before every /api/v1 route: CORS headers, the caller from `Authorization: Bearer <token>`
 * (never from the session cookie), then the rate limit — per token, or per address without one; a
 * wrong token is counted against its address before it is refused.
 */
function apiGuard(context: AppContext) {
  const { apiTokens: tokens, apiLimiter: limiter } = context.services;
  const { publicApiRateLimitPerMinute, publicApiAnonymousRateLimitPerMinute } = context.config;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    void reply.headers(CORS);
    const header = request.headers.authorization;
    let caller: TokenCaller | undefined;
    if (header !== undefined) {
      const secret = /^Bearer +(\S+) *$/i.exec(header)?.[1];
      caller = secret ? await tokens.authenticate(secret) : undefined;
    }
    try {
      setRateHeaders(
        reply,
        caller
          ? await limiter.hit(`token:${caller.token.id}`, publicApiRateLimitPerMinute)
          : await limiter.hit(`ip:${request.ip}`, publicApiAnonymousRateLimitPerMinute),
      );
    } catch (error) {
      if (error instanceof RateLimitedError) setRateHeaders(reply, error.state);
      throw error;
    }
    if (header !== undefined && !caller) {
      void reply.header('www-authenticate', 'Bearer realm="guji", error="invalid_token"');
      throw tokenInvalid();
    }
    request.apiCaller = caller ?? null;
  };
}

function setRateHeaders(reply: FastifyReply, state: RateState): void {
  void reply.headers({
    'ratelimit-limit': String(state.limit),
    'ratelimit-remaining': String(state.remaining),
    'ratelimit-reset': String(state.resetSeconds),
  });
}

/**
 * Who is asking, for the access rule: the token's user (roles, privileges and research-reader category
 * as on the site), in the reading room when the request comes from its addresses. Anonymous without a
 * token, whatever cookie the request carries.
 */
export async function apiViewer(context: AppContext, request: FastifyRequest): Promise<Viewer> {
  const readingRoom = (await context.services.readingRoom.current()).contains(request.ip);
  const user = request.apiCaller?.user;
  return { userId: user?.id ?? null, roles: user?.roles ?? [], readingRoom };
}
