import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.ts';
import { documentOrigin } from '../../http/document-origin.ts';
import { requestOrigin } from '../../http/csrf.ts';
import { clearSessionCookie, isSecureCookie } from '../../http/session.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { sha256 } from '../../lib/crypto.ts';
import { accessError } from '../catalog/catalog.service.ts';
import {
  ACCESS_COOKIE,
  AUTH2_CONTEXT,
  LOGIN_DONE_PAGE,
  LOGIN_HEADER,
  LOGIN_NOTE,
  accessCookieUser,
  isCatalogued,
  LOGOUT_URL,
  LOGOUT2_URL,
  iiifViewerOf,
  restrictedCors,
} from './iiif-auth.ts';
import { COOKIE_TTL_S, type IiifAuthService } from './iiif-auth.service.ts';
import { BUTTON_HASH, CLOSE_HASH, CLOSE_SCRIPT, originOf, page, tokenError } from './iiif-auth-pages.ts';
import type { AppContext } from '../../context.ts';

const BookId = z.object({ bookId: z.coerce.number().int().positive() });
const TokenQuery = z.object({
  messageId: z.string().max(1000).optional(),
  origin: z.string().max(300).optional(),
});

/**
 * IIIF Authorization services (issue 18; IIIF Auth 2.0 and the Auth 1.0 cookie flow of Mirador):
 * the login (access) service opened in the viewer's window, the token services loaded in its hidden
 * iframe, the 2.0 probe service and the logout service. All are driven by the site's own login.
 */
export const iiifAuthRoutes: RouteModule = (app, deps) => {
  keepOpenerForViewers(app);
  loginRoutes(app, deps);
  tokenRoutes(app, deps);
  probeRoute(app, deps);
  logoutRoutes(app, deps);
  preflightRoute(app, deps);
};

/** Login windows are opened by other origins' viewers: their pages must keep the window's opener. */
function keepOpenerForViewers(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const url = request.url.toLowerCase();
    const loginForViewer =
      url.startsWith('/login?') &&
      url.includes(`redirect=${encodeURIComponent(LOGIN_DONE_PAGE).toLowerCase()}`);
    if (loginForViewer || url.startsWith(`${LOGIN_DONE_PAGE.toLowerCase()}?`))
      void reply.header('cross-origin-opener-policy', 'unsafe-none');
    done(null, payload);
  });
}

/**
 * The login window. One handler, two ids: the Auth 1.0 login service and the Auth 2.0 access service
 * must not share an id (@iiif/parser cannot load a manifest where they do: issue 31 item 2).
 */
const loginRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const [url, summary] of [
    ['/iiif/auth/books/:bookId/login', 'IIIF Auth 1.0 login service: the site login in the viewer’s window'],
    [
      '/iiif/auth/2/books/:bookId/login',
      'IIIF Auth 2.0 access service (active): the site login in the viewer’s window',
    ],
  ] as const)
    r.get(url, { schema: { tags: ['iiif'], summary, params: BookId } }, (request, reply) =>
      loginWindow(context, request, reply),
    );
};

/** The site's login, then the access cookie (or the refusal) on a page that closes the window. */
async function loginWindow(
  context: AppContext,
  request: FastifyRequest<{ Params: z.infer<typeof BookId> }>,
  reply: FastifyReply,
) {
  const { catalog, iiifAuth, iiifCatalog } = context.services;
  void reply.header('cache-control', 'no-store');
  void reply.header('cross-origin-opener-policy', 'unsafe-none');
  const book = await iiifCatalog.book(request.params.bookId);
  if (!book) throw new AppError(404, 'NOT_FOUND', `古籍不存在：${request.params.bookId}`);
  if (!request.user || !request.sessionToken) {
    // The site's own login page, which comes back here (through the web app's page) when done.
    const back = `${LOGIN_DONE_PAGE}?next=${encodeURIComponent(request.url)}`;
    return reply.redirect(`/Login?redirect=${encodeURIComponent(back)}`, 303);
  }
  void reply.header(
    'content-security-policy',
    `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${CLOSE_HASH}' 'sha256-${BUTTON_HASH}'`,
  );
  const viewer = { userId: request.user.id, roles: request.user.roles, readingRoom: request.readingRoom };
  const decision = await catalog.mayView(book, viewer);
  if (!decision.allowed) {
    // Signed in but not a reader of this book: the spec's refusal, here where the reader is looking
    // (Mirador 4 shows no failure text of its own after a refused token), and a button that closes.
    const refusal = accessError(decision.access).message;
    return reply
      .type('text/html; charset=utf-8')
      .send(page('无法阅读', refusal, CLOSE_SCRIPT, undefined, true));
  }
  // The cookie image requests of a viewer on another site carry (SameSite=Lax ones are not sent).
  const secure = isSecureCookie(request, context.config.cookieSecure);
  const { token, expiresIn } = iiifAuth.issue('cookie', request.user.id, sha256(request.sessionToken));
  void reply.setCookie(ACCESS_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: secure ? 'none' : 'lax',
    secure,
    maxAge: Math.min(expiresIn, COOKIE_TTL_S),
  });
  return reply
    .type('text/html; charset=utf-8')
    .send(
      page('已登录', '已登录古籍数字图书馆，正在返回查看器；若窗口未自动关闭，请手动关闭。', CLOSE_SCRIPT),
    );
}

/** The access token services (iframe + postMessage; JSON for a client that is not a browser). */
const tokenRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { iiifAuth } = context.services;
  for (const version of [1, 2] as const) {
    r.get(
      `/iiif/auth/${version}/books/:bookId/token`,
      {
        schema: {
          tags: ['iiif'],
          summary: `IIIF Auth ${version === 1 ? '1.0' : '2.0'} access token service (iframe + postMessage)`,
          params: BookId,
          querystring: TokenQuery,
        },
      },
      async (request, reply) => {
        void reply.header('cache-control', 'no-store');
        const { messageId, origin } = request.query;
        const answer = await tokenAnswer(context, request, version, request.params.bookId, origin);
        if (messageId === undefined && version === 1) {
          // Auth 1.0 §4.1: a client that is not a browser asks for JSON (no messageId).
          return reply.status('error' in answer ? 401 : 200).send(answer);
        }
        if (messageId === undefined || origin === undefined) {
          return reply
            .status(400)
            .send(tokenError(version, 'invalidRequest', '令牌请求缺少 messageId 或 origin 参数'));
        }
        // Framed only by this site and the configured viewers; the message goes to the named origin only.
        const nonce = randomBytes(16).toString('base64');
        const ancestors = ["'self'", ...iiifAuth.viewerOrigins].join(' ');
        reply.removeHeader('x-frame-options');
        void reply.header(
          'content-security-policy',
          `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; frame-ancestors ${ancestors}`,
        );
        const data = JSON.stringify({ ...answer, messageId }).replace(/</g, '\\u003c');
        const target = JSON.stringify(originOf(origin) ?? 'null');
        return reply
          .type('text/html; charset=utf-8')
          .send(page('访问令牌', '', `window.parent.postMessage(${data}, ${target});`, nonce));
      },
    );
  }
};

/** A token, or the error (Auth 1.0 §4.3, Auth 2.0 AuthAccessTokenError2) that says why none. */
async function tokenAnswer(
  context: AppContext,
  request: FastifyRequest,
  version: 1 | 2,
  bookId: number,
  origin?: string,
) {
  const { catalog, iiifAuth, iiifCatalog } = context.services;
  const own = [requestOrigin(request), context.config.publicOrigin?.replace(/\/$/, '')];
  const from = origin === undefined ? undefined : originOf(origin);
  if (origin !== undefined && (!from || !(iiifAuth.isViewerOrigin(from) || own.includes(from))))
    return tokenError(
      version,
      'invalidOrigin',
      `查看器所在的网站未获准使用本馆登录：${origin.slice(0, 100)}`,
    );
  const book = await iiifCatalog.book(bookId);
  if (!book) return tokenError(version, 'unavailable', `古籍不存在：${bookId}`);
  const current = await signedIn(request, iiifAuth);
  if (!current) return tokenError(version, 'missingCredentials', `未登录：${LOGIN_NOTE}`, LOGIN_HEADER);
  const viewer = { userId: current.user.id, roles: current.user.roles, readingRoom: request.readingRoom };
  const decision = await catalog.mayView(book, viewer);
  if (!decision.allowed) {
    const message = accessError(decision.access).message;
    return tokenError(version, 'invalidCredentials', message, message);
  }
  const { token, expiresIn } = iiifAuth.issue('bearer', current.user.id, current.sessionHash);
  return version === 1
    ? { accessToken: token, expiresIn }
    : { '@context': AUTH2_CONTEXT, type: 'AuthAccessToken2', accessToken: token, expiresIn };
}

/** The signed-in user of this request and the hash of their session: site cookie, else access cookie. */
async function signedIn(request: FastifyRequest, iiifAuth: IiifAuthService) {
  if (request.user && request.sessionToken)
    return { user: request.user, sessionHash: sha256(request.sessionToken) };
  return accessCookieUser(request, iiifAuth);
}

/** The Auth 2.0 probe service of a page image. */
const probeRoute: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { catalog, iiifAuth, iiifCatalog } = context.services;
  r.get(
    '/iiif/auth/2/probe/:imageId',
    {
      schema: {
        tags: ['iiif'],
        summary: 'IIIF Auth 2.0 probe service of a page image (Authorization: Bearer)',
        params: z.object({ imageId: z.coerce.number().int().positive() }),
      },
    },
    async (request, reply) => {
      const found = await iiifCatalog.imagePage(request.params.imageId);
      const missing = new AppError(404, 'NOT_FOUND', `图像不存在：${request.params.imageId}`);
      if (!found) throw missing;
      const { book } = found;
      void reply.header('cache-control', 'no-store');
      const viewer = await iiifViewerOf(request, iiifAuth);
      const decision = await catalog.mayView(book, viewer);
      // A book the catalogue does not show does not exist for whoever may not read it (issue 30 item 6).
      if (!decision.allowed && !isCatalogued(book)) throw missing;
      if (decision.isPublic) void reply.header('access-control-allow-origin', '*');
      else restrictedCors(request, reply, iiifAuth);
      const result = (status: number, heading?: string, note?: string) =>
        reply.type('application/ld+json').send({
          '@context': AUTH2_CONTEXT,
          id: documentOrigin(context.config, request, reply) + request.url.split('?')[0],
          type: 'AuthProbeResult2',
          status,
          ...(heading ? { heading: { zh: [heading] } } : {}),
          ...(note ? { note: { zh: [note] } } : {}),
        });
      if (decision.allowed) return result(200);
      if (viewer.userId === null) return result(401, LOGIN_HEADER, LOGIN_NOTE);
      const message = accessError(decision.access).message;
      return result(403, message, message);
    },
  );
};

/** The logout services (1.0 and 2.0), and the confirmation a request from another site needs. */
const logoutRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const url of [LOGOUT_URL, LOGOUT2_URL])
    r.get(
      url,
      {
        schema: {
          tags: ['iiif'],
          summary: `IIIF Auth ${url === LOGOUT_URL ? '1.0' : '2.0'} logout service: ends the login and the viewers’ access`,
        },
      },
      async (request, reply) => {
        if (fromTrustedSite(context, request)) return logout(context, request, reply);
        // Another site sent the reader here: nothing ends until the reader confirms on this site's page.
        void reply.header('cache-control', 'no-store');
        void reply.header(
          'content-security-policy',
          "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
        );
        return reply
          .type('text/html; charset=utf-8')
          .send(
            page(
              '退出登录',
              '另一个网站请求退出古籍数字图书馆的登录。如确要退出，请按“退出登录”；否则关闭此窗口即可，登录不受影响。',
              undefined,
              undefined,
              false,
              '<form method="post" action="/iiif/auth/logout"><button type="submit">退出登录</button></form>',
            ),
          );
      },
    );

  // The confirmation's form (this site's page only: the CSRF check refuses a POST from elsewhere).
  r.post(
    '/iiif/auth/logout',
    { schema: { tags: ['iiif'], summary: 'IIIF Auth logout, confirmed on this site’s page' } },
    async (request, reply) => logout(context, request, reply),
  );
};

/**
 * Whether a logout was asked for by this site or a configured viewer: a browser's navigation from
 * another site (Sec-Fetch-Site cross-site, or a Referer of another origin) may not end the reader's
 * session (issue 30 item 4); it is asked to confirm on this site's page instead.
 */
function fromTrustedSite(context: AppContext, request: FastifyRequest): boolean {
  const own = [requestOrigin(request), context.config.publicOrigin?.replace(/\/$/, '')];
  const referer = request.headers.referer;
  const from = referer === undefined ? undefined : originOf(referer);
  if (from !== undefined && (own.includes(from) || context.services.iiifAuth.isViewerOrigin(from)))
    return true;
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return false;
  return referer === undefined;
}

/** Ends the site's login (or the viewer's access cookie) and clears the access cookie. */
async function logout(context: AppContext, request: FastifyRequest, reply: FastifyReply) {
  const { iiifAuth, sessions } = context.services;
  const { config } = context;
  void reply.header('cache-control', 'no-store');
  void reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
  if (request.sessionToken) {
    await sessions.revoke(request.sessionToken);
    clearSessionCookie(reply, request, config.cookieSecure);
  } else {
    if (await accessCookieUser(request, iiifAuth))
      await iiifAuth.revokeSessionOf('cookie', request.cookies[ACCESS_COOKIE]);
  }
  const secure = isSecureCookie(request, config.cookieSecure);
  void reply.clearCookie(ACCESS_COOKIE, {
    path: '/',
    httpOnly: true,
    secure,
    sameSite: secure ? 'none' : 'lax',
  });
  return reply
    .type('text/html; charset=utf-8')
    .send(
      page(
        '已退出登录',
        '已退出古籍数字图书馆的登录：本浏览器的登录和查看器中的访问令牌均已失效，受限古籍不再显示。可关闭此窗口。',
      ),
    );
}

/**
 * CORS preflight of viewers' requests with `Authorization: Bearer` (configured origins only).
 * (Not in the API description: a browser's preflight, no operation of its own.)
 */
const preflightRoute: RouteModule = (app, { context }) => {
  const { iiifAuth } = context.services;
  app.options('/iiif/*', { schema: { hide: true } }, (request: FastifyRequest, reply: FastifyReply) => {
    restrictedCors(request, reply, iiifAuth);
    if (iiifAuth.isViewerOrigin(request.headers.origin)) {
      void reply.header('access-control-allow-methods', 'GET, HEAD, OPTIONS');
      void reply.header('access-control-allow-headers', 'Authorization');
      void reply.header('access-control-max-age', '600');
    }
    return reply.status(204).send();
  });
};
