import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authApi, ErrorBody, LIMITS } from '@guji/shared';
import { routeOf } from '../../http/contract-route.ts';
import { clearSessionCookie, setSessionCookie } from '../../http/session.ts';
import { toSessionUser } from '../../lib/user-view.ts';
import type { ClientInfo } from './auth.service.ts';
import type { RouteModule } from '../../http/route-module.ts';

const client = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  409: ErrorBody,
  423: ErrorBody,
  429: ErrorBody,
};

/** Session, captcha, registration, login, logout, SMS codes, recovery and single sign-on. */
export const authRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, captcha } = context.services;
  const secure = context.config.cookieSecure;
  // Per-address limits on the endpoints a guesser would hammer; the account lockout sits behind them.
  const strict = { rateLimit: { max: context.config.authRateLimitPerMinute, timeWindow: '1 minute' } };

  r.route({
    ...routeOf(authApi.session),
    handler: (request) => ({
      user: request.user ? toSessionUser(request.user) : null,
      readingRoom: request.readingRoom,
    }),
  });

  r.route({
    ...routeOf(
      authApi.captcha,
      {},
      {
        rateLimit: { max: context.config.captchaRateLimitPerMinute, timeWindow: '1 minute' },
      },
    ),
    handler: async (_request, reply) => {
      const { answer: _answer, ...body } = await captcha.create();
      void reply.header('cache-control', 'no-store');
      return body;
    },
  });

  r.route({
    ...routeOf(authApi.login, errors, strict),
    handler: async (request, reply) => {
      const result = await auth.login(request.body, client(request));
      setSessionCookie(reply, request, result.token, result.expiresAt, secure);
      return { user: toSessionUser(result.user), weakPassword: result.weakPassword };
    },
  });

  r.route({
    ...routeOf(authApi.logout),
    handler: async (request, reply) => {
      if (request.sessionToken) await auth.logout(request.sessionToken);
      clearSessionCookie(reply, request, secure);
      return { ok: true as const };
    },
  });

  r.route({
    ...routeOf(authApi.register, errors, strict),
    handler: async (request) => {
      await auth.register(request.body);
      return { ok: true as const };
    },
  });

  r.route({
    ...routeOf(authApi.sendSmsCode, errors, strict),
    handler: async (request) => {
      const { countdownSeconds } = await auth.sendCode(request.body, client(request), request.user?.id);
      return { ok: true as const, countdownSeconds, expiresInSeconds: LIMITS.smsCodeTtlSeconds };
    },
  });

  r.route({
    ...routeOf(authApi.verifyRecoveryCode, errors, strict),
    handler: async (request) => {
      await auth.verifyRecoveryCode(request.body.phone, request.body.code);
      return { ok: true as const };
    },
  });

  r.route({
    ...routeOf(authApi.resetPassword, errors, strict),
    handler: async (request) => {
      await auth.resetPassword(request.body);
      return { ok: true as const };
    },
  });

  r.route({
    ...routeOf(authApi.sso, errors, strict),
    handler: async (request, reply) => {
      const result = await auth.ssoLogin(request.body, client(request));
      setSessionCookie(reply, request, result.token, result.expiresAt, secure);
      return { user: toSessionUser(result.user), weakPassword: false };
    },
  });
};
