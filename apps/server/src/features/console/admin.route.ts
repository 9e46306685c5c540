import path from 'node:path';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, importApi, MSG, readingRoomApi, smsOutboxApi, terminalsApi } from '@guji/shared';
import { isSecureCookie, requireRole } from '../../http/session.ts';
import { badRequest, forbidden } from '../../errors.ts';
import { TERMINAL_COOKIE } from '../../http/session.ts';
import { missingSmsSettings } from '../accounts/sms-provider.ts';
import { ZIP_LIMITS, ZipSource, importPackage, readPackageMetadata } from '../import/import-package.ts';
import { saveUpload, withTempDir } from '../../storage/temp.ts';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';

/** Administrator tools of the account system. */
export const adminRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...routeOf(smsOutboxApi.list, { 401: ErrorBody, 403: ErrorBody }),
    handler: async (request) => {
      requireRole(request, 'admin');
      return context.services.sms.outbox(request.query.phone, request.query.limit);
    },
  });
  r.route({
    ...routeOf(smsOutboxApi.status, { 401: ErrorBody, 403: ErrorBody }),
    handler: async (request) => {
      requireRole(request, 'admin');
      const { smsSignName, smsTemplateRegister, smsTemplateReset, smsTemplateProfile } =
        await context.services.settings.get();
      const settings = { smsSignName, smsTemplateRegister, smsTemplateReset, smsTemplateProfile };
      const provider = context.services.sms.providerName;
      return { provider, settings, missing: provider === 'outbox' ? [] : missingSmsSettings(settings) };
    },
  });
};

/**
 * Reading-room terminals: administrators issue and revoke tokens; a browser opens the activation link
 * once and is in the reading room from then on (an httpOnly cookie holding the token).
 */
export const terminalRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const terminals = context.services.terminals;
  const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

  r.route({
    ...routeOf(readingRoomApi.addresses, errors),
    handler: async (request) => {
      requireRole(request, 'admin');
      const list = await context.services.readingRoom.list();
      const room = await context.services.readingRoom.current();
      return { ...list, clientIp: request.ip, inReadingRoom: room.contains(request.ip) };
    },
  });
  r.route({
    ...routeOf(readingRoomApi.saveAddresses, errors),
    handler: async (request) => {
      const user = requireRole(request, 'admin');
      await context.services.readingRoom.save(user.id, request.body.cidrs);
      return { ok: true as const, message: MSG.readingRoomCidrsSaved };
    },
  });

  r.route({
    ...routeOf(terminalsApi.list, errors),
    handler: async (request) => {
      requireRole(request, 'admin');
      return { records: await terminals.list() };
    },
  });

  r.route({
    ...routeOf(terminalsApi.create, errors),
    handler: async (request) => {
      const user = requireRole(request, 'admin');
      return terminals.create(request.body.name, user.id);
    },
  });

  r.route({
    ...routeOf(terminalsApi.revoke, errors),
    handler: async (request) => {
      const user = requireRole(request, 'admin');
      return terminals.revoke(user.id, request.params.id);
    },
  });

  r.route({
    ...routeOf(terminalsApi.activate, { 403: ErrorBody }),
    handler: async (request, reply) => {
      const cookieValue = await terminals.cookieFor(request.query.token);
      if (!cookieValue) throw forbidden('终端令牌无效或已被撤销', 'TERMINAL_INVALID');
      void reply.setCookie(TERMINAL_COOKIE, cookieValue, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: isSecureCookie(request, context.config.cookieSecure),
        maxAge: 10 * 365 * 24 * 3600,
      });
      return reply.redirect('/', 303);
    },
  });
};

/** Administrator import of a package zip (metadata.json or metadata.csv plus image folders). */
export const importRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const upload = routeOf(importApi.upload, {
    400: ErrorBody,
    401: ErrorBody,
    403: ErrorBody,
    413: ErrorBody,
    429: ErrorBody,
  });
  r.route({
    ...upload,
    handler: async (request) => {
      const user = requireRole(request, 'catalogAdmin');
      // The package goes to disk and is unpacked entry by entry (ZipSource), one or two per user at once.
      const results = await context.services.uploads.run(user.id, () =>
        withTempDir(context.config.dataDir, async (dir) => {
          const file = await request.file({ limits: { fileSize: 2 * 1024 ** 3, files: 1 } });
          if (!file) throw badRequest('IMPORT_ZIP', '请上传 zip 包');
          if (!file.filename.toLowerCase().endsWith('.zip'))
            throw badRequest('IMPORT_ZIP', '只接受 .zip 文件');
          const zipFile = path.join(dir, 'package.zip');
          if (!(await saveUpload(file.file, zipFile)))
            throw badRequest('IMPORT_ZIP', 'zip 包过大（超过 2 GB）');
          const source = await ZipSource.open(zipFile, file.filename, ZIP_LIMITS, { tempDir: dir });
          // The import's audit record is written with the package's last book.
          return importPackage(context.services.ingest, await readPackageMetadata(source), source, {
            actorId: user.id,
            fileName: file.filename,
          });
        }),
      );
      return { books: results.map((r) => ({ title: r.title, bookId: r.bookId, pages: r.pageIds.length })) };
    },
  });
};
