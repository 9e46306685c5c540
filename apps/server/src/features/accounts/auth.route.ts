import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  Captcha,
  LoginRequest,
  LoginResponse,
  OkBody,
  RegisterRequest,
  ResetPasswordRequest,
  SendCodeRequest,
  SendCodeResponse,
  SessionInfo,
  SsoRequest,
  VerifyCodeRequest,
  ErrorBody,
  LIMITS,
} from '@guji/shared';
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

  r.get(
    '/api/session',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user (or null) and the reading-room flag',
        response: { 200: SessionInfo },
      },
    },
    (request) => ({
      user: request.user ? toSessionUser(request.user) : null,
      readingRoom: request.readingRoom,
    }),
  );

  r.get(
    '/api/captcha',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'A new image captcha (single use, valid 5 minutes)',
        response: { 200: Captcha },
      },
    },
    async (_request, reply) => {
      const { answer: _answer, ...body } = await captcha.create();
      void reply.header('cache-control', 'no-store');
      return body;
    },
  );

  r.post(
    '/api/auth/login',
    {
      config: strict,
      schema: {
        tags: ['auth'],
        summary: 'Log in with name, password and image captcha',
        body: LoginRequest,
        response: { 200: LoginResponse, ...errors },
      },
    },
    async (request, reply) => {
      const result = await auth.login(request.body, client(request));
      setSessionCookie(reply, request, result.token, result.expiresAt, secure);
      return { user: toSessionUser(result.user), weakPassword: result.weakPassword };
    },
  );

  r.post(
    '/api/auth/logout',
    { schema: { tags: ['auth'], summary: 'End this session', response: { 200: OkBody } } },
    async (request, reply) => {
      if (request.sessionToken) await auth.logout(request.sessionToken);
      clearSessionCookie(reply, request, secure);
      return { ok: true as const };
    },
  );

  r.post(
    '/api/auth/register',
    {
      config: strict,
      schema: {
        tags: ['auth'],
        summary: 'Register (spec §7 registerUser)',
        body: RegisterRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await auth.register(request.body);
      return { ok: true as const };
    },
  );

  r.post(
    '/api/sms/send',
    {
      config: strict,
      schema: {
        tags: ['auth'],
        summary: 'Send an SMS code after an image captcha (spec §7 sendPhoneVCode)',
        body: SendCodeRequest,
        response: { 200: SendCodeResponse, ...errors },
      },
    },
    async (request) => {
      const { countdownSeconds } = await auth.sendCode(request.body, client(request), request.user?.id);
      return { ok: true as const, countdownSeconds, expiresInSeconds: LIMITS.smsCodeTtlSeconds };
    },
  );

  r.post(
    '/api/auth/recovery/verify',
    {
      config: strict,
      schema: {
        tags: ['auth'],
        summary: 'Recovery step 1: check the SMS code',
        body: VerifyCodeRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await auth.verifyRecoveryCode(request.body.phone, request.body.code);
      return { ok: true as const };
    },
  );

  r.post(
    '/api/auth/recovery/reset',
    {
      config: strict,
      schema: {
        tags: ['auth'],
        summary: 'Recovery step 2: set a new password with the SMS code (ends all sessions)',
        body: ResetPasswordRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await auth.resetPassword(request.body);
      return { ok: true as const };
    },
  );

  r.post(
    '/api/auth/sso',
    {
      config: strict,
      schema: {
        tags: ['auth'],
        summary: 'Log in with a signed single-sign-on link (replaces the spec’s URL logins)',
        body: SsoRequest,
        response: { 200: LoginResponse, ...errors },
      },
    },
    async (request, reply) => {
      const result = await auth.ssoLogin(request.body, client(request));
      setSessionCookie(reply, request, result.token, result.expiresAt, secure);
      return { user: toSessionUser(result.user), weakPassword: false };
    },
  );
};
