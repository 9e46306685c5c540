import type { FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../http/session.ts';
import { DownloadItem, MSG, OkBody, paged } from '@guji/shared';
import type { DownloadFile } from './download.service.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { errors, IdParams, PageNum, downloader } from './route-helpers.ts';

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

  r.get(
    '/api/pages/:id/download.jpg',
    {
      schema: {
        tags: ['personal'],
        summary: 'Download a page as JPEG (recorded; access rule applies)',
        params: IdParams,
      },
    },
    async (request, reply) => send(reply, await downloads.pageImage(downloader(request), request.params.id)),
  );
  r.get(
    '/api/pages/:id/download.txt',
    {
      schema: {
        tags: ['personal'],
        summary: "Download a page's OCR text (recorded; access rule applies)",
        params: IdParams,
      },
    },
    async (request, reply) => send(reply, await downloads.pageText(downloader(request), request.params.id)),
  );
  r.get(
    '/api/volumes/:id/download.pdf',
    {
      schema: {
        tags: ['personal'],
        summary: 'Download a whole volume as PDF when the site allows it (recorded)',
        params: IdParams,
      },
    },
    async (request, reply) => send(reply, await downloads.volumePdf(downloader(request), request.params.id)),
  );
  r.get(
    '/api/me/downloads',
    {
      schema: {
        tags: ['personal'],
        summary: 'My downloads, 10 a page (spec queryDownloadByPage)',
        querystring: PageNum,
        response: { 200: paged(DownloadItem), ...errors },
      },
    },
    (request) => personal.downloads(requireUser(request).id, request.query.pageNum),
  );
  r.delete(
    '/api/me/downloads/:id',
    {
      schema: {
        tags: ['personal'],
        summary: 'Remove a download from my list',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await personal.deleteDownload(requireUser(request).id, request.params.id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  );
};
