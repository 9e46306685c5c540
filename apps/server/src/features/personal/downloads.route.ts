import type { FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../http/session.ts';
import { downloadsApi, MSG } from '@guji/shared';
import type { DownloadFile } from './download.service.ts';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { errors, downloader } from './route-helpers.ts';

/** Downloads: a page as JPEG with a foot line or as text, a volume as PDF; my downloads. */
export const downloadRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { personal, downloads } = context.services;

  const send = (reply: FastifyReply, file: DownloadFile) =>
    reply
      .header('content-type', file.contentType)
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
      .send(file.data);

  r.route({
    ...routeOf(downloadsApi.pageImage),
    handler: async (request, reply) =>
      send(reply, await downloads.pageImage(downloader(request), request.params.id)),
  });
  r.route({
    ...routeOf(downloadsApi.pageText),
    handler: async (request, reply) =>
      send(reply, await downloads.pageText(downloader(request), request.params.id)),
  });
  r.route({
    ...routeOf(downloadsApi.volumePdf),
    handler: async (request, reply) =>
      send(reply, await downloads.volumePdf(downloader(request), request.params.id)),
  });
  r.route({
    ...routeOf(downloadsApi.mine, errors),
    handler: (request) => personal.downloads(requireUser(request).id, request.query.pageNum),
  });
  r.route({
    ...routeOf(downloadsApi.remove, errors),
    handler: async (request) => {
      await personal.deleteDownload(requireUser(request).id, request.params.id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  });
};
