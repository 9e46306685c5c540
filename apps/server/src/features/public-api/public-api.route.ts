import type { FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, publicApi } from '@guji/shared';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { AppError } from '../../errors.ts';
import { API_RATE_WINDOW_SECONDS } from './api-rate-limit.ts';
import { apiViewer, registerPublicApiHooks } from './public-api.guard.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

/**
 * A 401 of the site's services means "sign in"; on the API it means "send a token": say how. Every
 * other refusal (403 reading room only, 404) is the site's own.
 */
async function asApi<T>(reply: FastifyReply, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError && error.status === 401) {
      void reply.header('www-authenticate', 'Bearer realm="guji"');
      throw new AppError(
        401,
        'API_TOKEN_REQUIRED',
        '需要 API 令牌：请在“我的信息”中创建令牌，并以 Authorization: Bearer <令牌> 发送',
      );
    }
    throw error;
  }
}

/** A `Link` header to the next page of a list (RFC 8288), when there is one. */
const linkNext = (next: string | null) => (next ? { link: `<${next}>; rel="next"` } : {});

/**
 * The public read API, version 1 (docs/public-api.md): catalogue, book structure, page text with
 * character boxes and full-text search, for researchers' programs. Read-only, CORS open to any site,
 * authenticated only by personal API tokens, rate limited per token (public-api.guard.ts, which runs
 * before every /api/v1 request, unknown paths included).
 */
export const publicApiRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const api = context.services.publicApi;
  registerPublicApiHooks(app, context);

  r.route({
    ...routeOf(publicApi.whoami, errors),
    handler: (request) => {
      const caller = request.apiCaller;
      return {
        user: caller?.user.login_name ?? null,
        token: caller ? { name: caller.token.name, prefix: caller.token.token_prefix } : null,
        rateLimit: {
          limit: caller
            ? context.config.publicApiRateLimitPerMinute
            : context.config.publicApiAnonymousRateLimitPerMinute,
          windowSeconds: API_RATE_WINDOW_SECONDS,
        },
        limits: {
          tokenPerMinute: context.config.publicApiRateLimitPerMinute,
          anonymousPerMinute: context.config.publicApiAnonymousRateLimitPerMinute,
        },
      };
    },
  });

  r.route({
    ...routeOf(publicApi.classifications, errors),
    handler: async () => ({ classifications: await api.classifications() }),
  });

  r.route({
    ...routeOf(publicApi.books, errors),
    handler: async (request, reply) => {
      const list = await asApi(reply, api.books(request.query, await apiViewer(context, request)));
      void reply.headers(linkNext(list.next));
      return list;
    },
  });

  r.route({
    ...routeOf(publicApi.book, errors),
    handler: async (request, reply) =>
      asApi(reply, api.book(request.params.bookId, await apiViewer(context, request))),
  });

  r.route({
    ...routeOf(publicApi.pages, errors),
    handler: async (request, reply) =>
      asApi(
        reply,
        api.pages(request.params.bookId, request.params.volumeId, await apiViewer(context, request)),
      ),
  });

  r.route({
    ...routeOf(publicApi.pageText, errors),
    handler: async (request, reply) => {
      // The text depends on who asks: no shared cache may keep it.
      void reply.header('cache-control', 'private, no-cache');
      return asApi(
        reply,
        api.pageText(request.params.bookId, request.params.pageId, await apiViewer(context, request)),
      );
    },
  });

  r.route({
    ...routeOf(publicApi.search, errors),
    handler: async (request, reply) => {
      const result = await asApi(reply, api.search(request.query, await apiViewer(context, request)));
      void reply.headers(linkNext(result.next));
      return result;
    },
  });
};
