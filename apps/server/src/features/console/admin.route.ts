import path from 'node:path';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreatedTerminal,
  CreateTerminalRequest,
  ErrorBody,
  MSG,
  OkBody,
  SmsOutboxEntry,
  Terminal,
} from '@guji/shared';
import { isSecureCookie, requireRole } from '../../http/session.ts';
import { badRequest, forbidden } from '../../errors.ts';
import { TERMINAL_COOKIE } from './terminal.service.ts';
import { ZIP_LIMITS, ZipSource, importPackage, readPackageMetadata } from '../import/import-package.ts';
import { saveUpload, withTempDir } from '../../storage/temp.ts';
import type { RouteModule } from '../../http/route-module.ts';

/** Administrator tools of the account system. */
export const adminRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/admin/sms-outbox',
    {
      schema: {
        tags: ['admin'],
        summary: 'Messages the development SMS provider would have sent (administrators)',
        querystring: z.object({
          phone: z.string().max(20).optional(),
          limit: z.coerce.number().int().min(1).max(200).default(50),
        }),
        response: { 200: z.object({ records: z.array(SmsOutboxEntry) }), 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => {
      requireRole(request, 'admin');
      const rows = await context.repos.sms.listOutbox(request.query.phone, request.query.limit);
      return {
        records: rows.map((row) => ({
          id: row.id,
          phone: row.phone,
          text: row.text,
          createdAt: row.created_at,
        })),
      };
    },
  );
};

/**
 * Reading-room terminals: administrators issue and revoke tokens; a browser opens the activation link
 * once and is in the reading room from then on (an httpOnly cookie holding the token).
 */
export const terminalRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const terminals = context.services.terminals;
  const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

  const ReadingRoomAddressesBody = z.object({
    cidrs: z.array(z.string().trim().max(60)).max(200, '地址段最多 200 条'),
  });
  r.get(
    '/api/admin/reading-room/addresses',
    {
      schema: {
        tags: ['admin'],
        summary:
          "The reading room's address ranges (READING_ROOM_CIDRS until saved here), and this request's address",
        response: {
          200: ReadingRoomAddressesBody.extend({
            fromEnvironment: z.boolean(),
            clientIp: z.string(),
            inReadingRoom: z.boolean(),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      requireRole(request, 'admin');
      const list = await context.services.readingRoom.list();
      const room = await context.services.readingRoom.current();
      return { ...list, clientIp: request.ip, inReadingRoom: room.contains(request.ip) };
    },
  );
  r.put(
    '/api/admin/reading-room/addresses',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Replace the address ranges (IPv4 or IPv6, address or address/prefix); every server follows within 30 s',
        body: ReadingRoomAddressesBody,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const user = requireRole(request, 'admin');
      const before = await context.services.readingRoom.list();
      await context.services.readingRoom.save(request.body.cidrs);
      const after = await context.services.readingRoom.list();
      await context.services.admin.record(
        user.id,
        'readingroom.addresses',
        'reading-room',
        before.cidrs,
        after.cidrs,
      );
      return { ok: true as const, message: MSG.readingRoomCidrsSaved };
    },
  );

  r.get(
    '/api/admin/terminals',
    {
      schema: {
        tags: ['admin'],
        summary: 'Reading-room terminals (administrators)',
        response: { 200: z.object({ records: z.array(Terminal) }), ...errors },
      },
    },
    async (request) => {
      requireRole(request, 'admin');
      return { records: await terminals.list() };
    },
  );

  r.post(
    '/api/admin/terminals',
    {
      schema: {
        tags: ['admin'],
        summary: 'Issue a reading-room terminal token (shown once, with its activation link)',
        body: CreateTerminalRequest,
        response: { 200: CreatedTerminal, ...errors },
      },
    },
    async (request) => {
      const user = requireRole(request, 'admin');
      const created = await terminals.create(request.body.name, user.id);
      await context.services.admin.record(user.id, 'terminal.create', `terminal:${created.id}`, null, {
        name: created.name,
      });
      return created;
    },
  );

  r.delete(
    '/api/admin/terminals/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Revoke a terminal: it leaves the reading room at once',
        params: z.object({ id: z.coerce.number().int().positive() }),
        response: { 200: Terminal, ...errors },
      },
    },
    async (request) => {
      const user = requireRole(request, 'admin');
      const revoked = await terminals.revoke(request.params.id);
      await context.services.admin.record(
        user.id,
        'terminal.revoke',
        `terminal:${revoked.id}`,
        { revokedAt: null },
        { revokedAt: revoked.revokedAt },
      );
      return revoked;
    },
  );

  r.get(
    '/api/reading-room/activate',
    {
      schema: {
        tags: ['admin'],
        summary: 'Open on a terminal: keeps its token as a cookie and goes to the home page',
        querystring: z.object({ token: z.string().max(100) }),
        response: { 403: ErrorBody },
      },
    },
    async (request, reply) => {
      if (!(await terminals.isValid(request.query.token)))
        throw forbidden('终端令牌无效或已被撤销', 'TERMINAL_INVALID');
      void reply.setCookie(TERMINAL_COOKIE, request.query.token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: isSecureCookie(request, context.config.cookieSecure),
        maxAge: 10 * 365 * 24 * 3600,
      });
      return reply.redirect('/', 303);
    },
  );
};

/** Administrator import of a package zip (metadata.json or metadata.csv plus image folders). */
export const importRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/admin/import',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Import books from a zip package (catalogue staff); re-importing the same sourceKey replaces the book',
        consumes: ['multipart/form-data'],
        response: {
          200: z.object({
            books: z.array(
              z.object({ title: z.string(), bookId: z.number().int(), pages: z.number().int() }),
            ),
          }),
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          413: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request) => {
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
          const imported = await importPackage(
            context.services.ingest,
            await readPackageMetadata(source),
            source,
          );
          return { fileName: file.filename, imported };
        }),
      );
      const books = results.imported.map((r) => ({
        title: r.title,
        bookId: r.bookId,
        pages: r.pageIds.length,
      }));
      await context.services.admin.record(user.id, 'book.import', results.fileName, null, { books });
      return { books };
    },
  );
};
