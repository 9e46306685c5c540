import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_TOKEN_LIMITS, ErrorBody, apiTokensApi } from '@guji/shared';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { requireUser } from '../../http/session.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * 我的信息 → API 令牌: the signed-in user's personal API tokens, by session cookie (the site's CSRF
 * check applies); a token itself never manages tokens.
 */
export const apiTokenRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tokens = context.services.apiTokens;

  r.route({
    ...routeOf(apiTokensApi.list, errors),
    handler: async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return {
        tokens: await tokens.list(requireUser(request).id),
        maxTokens: API_TOKEN_LIMITS.perUser,
        tokenRateLimitPerMinute: context.config.publicApiRateLimitPerMinute,
        anonymousRateLimitPerMinute: context.config.publicApiAnonymousRateLimitPerMinute,
      };
    },
  });

  r.route({
    ...routeOf(apiTokensApi.create, errors),
    handler: async (request, reply) => {
      // The one answer that carries the secret: no cache may keep it.
      void reply.header('cache-control', 'no-store');
      return tokens.create(requireUser(request).id, request.body);
    },
  });

  r.route({
    ...routeOf(apiTokensApi.revoke, errors),
    handler: async (request) => {
      await tokens.revoke(requireUser(request).id, request.params.tokenId);
      return { ok: true as const, message: '令牌已撤销' };
    },
  });
};
