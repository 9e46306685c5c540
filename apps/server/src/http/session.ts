import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import { hasRole, type Role } from '@guji/shared';
import type { UserWithRoles } from '../lib/user-view.ts';
import type { AppContext } from '../context.ts';
import { forbidden, unauthorized } from '../errors.ts';
import type { Viewer } from '../lib/viewer.ts';
export const SESSION_COOKIE = 'guji_session';
/** The cookie a reading-room terminal holds (features/console/terminal.service.ts). */
export const TERMINAL_COOKIE = 'guji_terminal';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, when the session cookie names a live session. */
    user: UserWithRoles | undefined;
    sessionToken: string | undefined;
    readingRoom: boolean;
  }
}

/** Reads the session cookie on every request and marks reading-room requests. */
export function registerSession(app: FastifyInstance, context: AppContext): void {
  app.decorateRequest('user', undefined);
  app.decorateRequest('sessionToken', undefined);
  app.decorateRequest('readingRoom', false);
  app.addHook('onRequest', async (request) => {
    // In the reading room by address, or as a terminal holding an administrator's token (DESIGN.md §7).
    request.readingRoom =
      (await context.services.readingRoom.current()).contains(request.ip) ||
      (await context.services.terminals.isValidCookie(request.cookies[TERMINAL_COOKIE]));
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 100) return;
    const user = await context.services.sessions.resolve(token);
    if (user) {
      request.user = user;
      request.sessionToken = token;
    }
  });
}

/**
 * Whether a cookie set in answer to this request is marked Secure: always with COOKIE_SECURE=true,
 * never with false, and with `auto` when the request came over HTTPS — directly, or through a proxy
 * that TRUST_PROXY names (only then does Fastify's `request.protocol` read `X-Forwarded-Proto`).
 */
export function isSecureCookie(request: FastifyRequest, secure: CookieSecure): boolean {
  return secure === 'auto' ? request.protocol === 'https' : secure === 'true';
}

export type CookieSecure = 'true' | 'false' | 'auto';

export function setSessionCookie(
  reply: FastifyReply,
  request: FastifyRequest,
  token: string,
  expiresAt: Date,
  secure: CookieSecure,
): void {
  void reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecureCookie(request, secure),
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, request: FastifyRequest, secure: CookieSecure): void {
  void reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecureCookie(request, secure),
  });
}

/** The signed-in user, or a 401 that the client answers by going to /Login. */
export function requireUser(request: FastifyRequest): UserWithRoles {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** Who is asking, for access decisions. */
export function viewerOf(request: FastifyRequest): Viewer {
  return {
    userId: request.user?.id ?? null,
    roles: request.user?.roles ?? [],
    readingRoom: request.readingRoom,
  };
}

export function requireRole(request: FastifyRequest, role: Role): UserWithRoles {
  const user = requireUser(request);
  if (!hasRole(user.roles, role)) throw forbidden();
  return user;
}
