import type { FastifyError } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, LIMITS, MSG, profileApi } from '@guji/shared';
import { badRequest } from '../../errors.ts';
import { routeOf } from '../../http/contract-route.ts';
import { isIncompleteMultipart } from '../../http/error-handler.ts';
import { clearSessionCookie, requireUser } from '../../http/session.ts';
import { toSessionUser } from '../../lib/user-view.ts';
import type { RouteModule } from '../../http/route-module.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 413: ErrorBody, 429: ErrorBody };

/** The signed-in user's own account: profile fields, avatar, password. */
export const meRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { profile, auth } = context.services;

  r.route({
    ...routeOf(profileApi.get, { 401: ErrorBody }),
    handler: (request) => toSessionUser(requireUser(request)),
  });

  r.route({
    ...routeOf(profileApi.update, errors),
    handler: async (request) => toSessionUser(await profile.update(requireUser(request).id, request.body)),
  });

  r.route({
    ...routeOf(profileApi.uploadAvatar, errors),
    handler: async (request) => {
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
  });

  r.route({
    ...routeOf(profileApi.avatar),
    handler: async (request, reply) => {
      const avatar = await profile.readAvatar(request.params.file);
      return reply
        .header('content-type', avatar.type)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(avatar.data);
    },
  });

  r.route({
    ...routeOf(profileApi.changePassword, errors),
    handler: async (request, reply) => {
      await auth.changePassword(requireUser(request).id, request.body);
      clearSessionCookie(reply, request, context.config.cookieSecure);
      return { ok: true as const, message: MSG.passwordSetSuccess };
    },
  });
};
