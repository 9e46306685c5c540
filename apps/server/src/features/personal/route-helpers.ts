import type { FastifyRequest } from 'fastify';
import { ErrorBody } from '@guji/shared';
import type { Config } from '../../config.ts';
import { requireUser, viewerOf } from '../../http/session.ts';

/** The personal area's shared route pieces: error answers, who is asking, this server's origin. */
export const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** The signed-in user as a viewer of books (access rule), with a name for download footers. */
export const downloader = (request: FastifyRequest) => {
  const user = requireUser(request);
  return { ...viewerOf(request), userId: user.id, name: user.nick_name || user.login_name };
};

/** The signed-in user as a viewer of books. */
export const me = (request: FastifyRequest) => ({ ...viewerOf(request), userId: requireUser(request).id });

/** This server's origin as readers reach it (PUBLIC_ORIGIN, else the request's own). */
export const baseOf = (config: Pick<Config, 'publicOrigin'>, request: FastifyRequest) =>
  config.publicOrigin?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;
