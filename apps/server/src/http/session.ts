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
    /** On a `lazySession` route, true until the handler calls resolveSession. */
    sessionPending: boolean;
  }
  interface FastifyContextConfig {
    /**
     * The session cookie and the reading room are read only when the handler calls resolveSession: the
     * IIIF image routes, where a public book's tile needs neither (issue 34 part 4).
     */
    lazySession?: boolean;
  }
  interface FastifyInstance {
    readSession(request: FastifyRequest): Promise<void>;
  }
}

/** Reads the session cookie on every request (or when asked, on lazy routes) and marks reading-room requests. */
export function registerSession(app: FastifyInstance, context: AppContext): void {
  app.decorateRequest('user', undefined);
  app.decorateRequest('sessionToken', undefined);
  app.decorateRequest('readingRoom', false);
  app.decorateRequest('sessionPending', false);
  app.decorate('readSession', async (request: FastifyRequest) => {
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
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.lazySession) request.sessionPending = true;
    else await app.readSession(request);
  });
}

/** Reads the session of a `lazySession` route's request, once; nothing on other routes. */
export async function resolveSession(request: FastifyRequest): Promise<void> {
  if (!request.sessionPending) return;
  request.sessionPending = false;
  await request.server.readSession(request);
}

/** A lazy route read who is asking before resolveSession: a mistake in the code, never the client's. */
function assertSessionRead(request: FastifyRequest): void {
  if (request.sessionPending) throw new Error(`${request.url}: the session was used before resolveSession`);
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
  assertSessionRead(request);
  if (!request.user) throw unauthorized();
  return request.user;
}

/** Who is asking, for access decisions. */
export function viewerOf(request: FastifyRequest): Viewer {
  assertSessionRead(request);
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
