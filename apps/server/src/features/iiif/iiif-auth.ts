import { MSG, OWN_STATUS } from '@guji/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BookRow } from '../../db/schema.ts';
import type { Viewer } from '../../lib/viewer.ts';
import { addVary } from '../../http/document-origin.ts';
import { requestOrigin } from '../../http/csrf.ts';
import { resolveSession, viewerOf } from '../../http/session.ts';
import type { IiifAuthService } from './iiif-auth.service.ts';

/**
 * IIIF Authorization (issue 18): how a restricted book's IIIF resources know their reader, and the
 * service descriptions that let an outside viewer start the login (IIIF Auth 1.0 and 2.0).
 */

/** The access cookie: SameSite=None (Secure) over HTTPS, so cross-site viewers' image requests carry it. */
export const ACCESS_COOKIE = 'guji_iiif';

export const AUTH1_CONTEXT = 'http://iiif.io/api/auth/1/context.json';
export const AUTH2_CONTEXT = 'http://iiif.io/api/auth/2/context.json';

export const loginServiceUrl = (bookId: number) => `/iiif/auth/books/${bookId}/login`;
/** The Auth 2.0 access service: the same login, its own id (issue 31 item 2). */
export const access2Url = (bookId: number) => `/iiif/auth/2/books/${bookId}/login`;
export const token1Url = (bookId: number) => `/iiif/auth/1/books/${bookId}/token`;
export const token2Url = (bookId: number) => `/iiif/auth/2/books/${bookId}/token`;
export const probeUrl = (pageId: number) => `/iiif/auth/2/probe/${pageId}`;
export const LOGOUT_URL = '/iiif/auth/logout';
export const LOGOUT2_URL = '/iiif/auth/2/logout';
/** The web app's page the login window returns to after /Login (it goes on to the login service). */
export const LOGIN_DONE_PAGE = '/IiifLogin';

const zh = (text: string) => ({ zh: [text] });

/** Whether the catalogue shows a book: then its manifest is readable as metadata by anyone. */
export const isCatalogued = (book: BookRow): boolean =>
  book.is_visible === 1 && book.audit_status === OWN_STATUS.published;

/** What an ordinary signed-in reader who may not read a book is told (the spec's refusal messages). */
export const refusalFor = (book: BookRow): string => (isCatalogued(book) ? MSG.readingRoomOnly : MSG.noData);

export const LOGIN_HEADER = '本书需登录后阅读';
export const LOGIN_NOTE = `${MSG.loginRequiredNotice}。登录后，有权阅读本书的读者可在此查看器中浏览。`;
export const FAILURE_NOTE = '登录后仍不能阅读：本书仅在阅览室或获得阅读权限后开放；若未完成登录，请重试。';

/** The IIIF Auth 1.0 login service of a book (in info.json and the image services of its manifests). */
export function auth1Service(base: string, book: BookRow) {
  return {
    '@context': AUTH1_CONTEXT,
    '@id': base + loginServiceUrl(book.id),
    '@type': 'AuthCookieService1',
    profile: 'http://iiif.io/api/auth/1/login',
    label: '登录古籍数字图书馆',
    header: LOGIN_HEADER,
    description: LOGIN_NOTE,
    confirmLabel: '登录',
    failureHeader: refusalFor(book),
    failureDescription: FAILURE_NOTE,
    service: [
      {
        '@id': base + token1Url(book.id),
        '@type': 'AuthTokenService1',
        profile: 'http://iiif.io/api/auth/1/token',
      },
      {
        '@id': base + LOGOUT_URL,
        '@type': 'AuthLogoutService1',
        profile: 'http://iiif.io/api/auth/1/logout',
        label: '退出登录',
      },
    ],
  };
}

/** The IIIF Auth 2.0 probe service of a page image, with its access, token and logout services. */
export function auth2ProbeService(base: string, book: BookRow, pageId: number) {
  return {
    id: base + probeUrl(pageId),
    type: 'AuthProbeService2',
    service: [
      {
        id: base + access2Url(book.id),
        type: 'AuthAccessService2',
        profile: 'active',
        label: zh('登录古籍数字图书馆'),
        heading: zh(LOGIN_HEADER),
        note: zh(LOGIN_NOTE),
        confirmLabel: zh('登录'),
        service: [
          {
            id: base + token2Url(book.id),
            type: 'AuthAccessTokenService2',
            errorHeading: zh(refusalFor(book)),
            errorNote: zh(FAILURE_NOTE),
          },
          { id: base + LOGOUT2_URL, type: 'AuthLogoutService2', label: zh('退出登录') },
        ],
      },
    ],
  };
}

/** The bearer token of an `Authorization: Bearer …` header, if any. */
export function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S{1,600})$/i.exec(header) : null;
  return match?.[1];
}

/** The origin of the Origin header, else of the Referer (image requests send only the latter). */
function callerOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (origin && origin !== 'null') return origin.toLowerCase();
  try {
    return request.headers.referer ? new URL(request.headers.referer).origin.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Who is asking for a IIIF resource: the session user (site cookie); else the user of a valid bearer
 * token; else the user of the access cookie, honoured only on requests made from a configured viewer
 * origin or this site (so other sites cannot borrow it by embedding our images).
 */
export async function iiifViewerOf(request: FastifyRequest, auth: IiifAuthService): Promise<Viewer> {
  await resolveSession(request);
  if (request.user) return viewerOf(request);
  const withUser = (userId: number, roles: Viewer['roles']): Viewer => ({
    userId,
    roles,
    readingRoom: request.readingRoom,
  });
  const bearer = bearerOf(request);
  if (bearer) {
    const verified = await auth.verify('bearer', bearer);
    return verified ? withUser(verified.user.id, verified.user.roles) : viewerOf(request);
  }
  const verified = await accessCookieUser(request, auth);
  return verified ? withUser(verified.user.id, verified.user.roles) : viewerOf(request);
}

/** The user of the access cookie, on a request from a configured viewer origin or this site only. */
export async function accessCookieUser(request: FastifyRequest, auth: IiifAuthService) {
  const cookie = request.cookies[ACCESS_COOKIE];
  const from = callerOrigin(request);
  if (!cookie || !(auth.isViewerOrigin(from) || from === requestOrigin(request))) return undefined;
  return auth.verify('cookie', cookie);
}

/**
 * CORS of a restricted answer: only a configured viewer origin is named, with credentials; any other
 * origin gets no CORS header at all. The answer varies with who asks, so it says so.
 */
export function restrictedCors(request: FastifyRequest, reply: FastifyReply, auth: IiifAuthService): void {
  addVary(reply, 'origin');
  addVary(reply, 'authorization');
  const origin = request.headers.origin;
  if (auth.isViewerOrigin(origin)) {
    void reply.header('access-control-allow-origin', origin);
    void reply.header('access-control-allow-credentials', 'true');
  }
}
