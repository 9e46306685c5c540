import type { FastifyError } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ChangePasswordRequest,
  ErrorBody,
  LIMITS,
  MSG,
  OkBody,
  SessionUser,
  UpdateProfileRequest,
} from '@guji/shared';
import { badRequest } from '../../errors.ts';
import { isIncompleteMultipart } from '../../http/error-handler.ts';
import { clearSessionCookie, requireUser } from '../../http/session.ts';
import { toSessionUser } from '../../lib/user-view.ts';
import type { RouteModule } from '../../http/route-module.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 413: ErrorBody, 429: ErrorBody };

/** The signed-in user's own account: profile fields, avatar, password. */
export const meRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { profile, auth } = context.services;

  r.get(
    '/api/me',
    { schema: { tags: ['me'], summary: 'My information', response: { 200: SessionUser, 401: ErrorBody } } },
    (request) => toSessionUser(requireUser(request)),
  );

  r.patch(
    '/api/me',
    {
      schema: {
        tags: ['me'],
        summary: 'Change one profile field (a new phone needs its SMS code)',
        body: UpdateProfileRequest,
        response: { 200: SessionUser, ...errors },
      },
    },
    async (request) => toSessionUser(await profile.update(requireUser(request).id, request.body)),
  );

  r.post(
    '/api/me/avatar',
    {
      schema: {
        tags: ['me'],
        summary: 'Upload an avatar (multipart field `file`; jpg, jpeg, bmp or png, at most 2 MB)',
        consumes: ['multipart/form-data'],
        response: { 200: SessionUser, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const file = await request.file({ limits: { fileSize: LIMITS.avatarMaxBytes, files: 1 } });
      if (!file) throw badRequest('AVATAR_INVALID', MSG.avatarInvalid);
      const data = await file.toBuffer().catch((error: FastifyError) => {
        // A body cut short is answered as such by the error handler; anything else is a bad avatar.
        throw isIncompleteMultipart(error) ? error : badRequest('AVATAR_INVALID', MSG.avatarInvalid);
      });
      if (file.file.truncated) throw badRequest('AVATAR_INVALID', MSG.avatarInvalid);
      return toSessionUser(await profile.setAvatar(user.id, file.filename, data));
    },
  );

  r.get(
    '/api/avatars/:file',
    { schema: { tags: ['me'], summary: 'An avatar image', params: z.object({ file: z.string().max(80) }) } },
    async (request, reply) => {
      const avatar = await profile.readAvatar(request.params.file);
      return reply
        .header('content-type', avatar.type)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(avatar.data);
    },
  );

  r.post(
    '/api/me/password',
    {
      schema: {
        tags: ['me'],
        summary: 'Change my password; every session ends, so the client logs in again',
        body: ChangePasswordRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request, reply) => {
      await auth.changePassword(requireUser(request).id, request.body);
      clearSessionCookie(reply, request, context.config.cookieSecure);
      return { ok: true as const, message: MSG.passwordSetSuccess };
    },
  );
};
