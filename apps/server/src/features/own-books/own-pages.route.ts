import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MSG, ownPagesApi, ownSinglesApi, ownVolumesApi } from '@guji/shared';
import { badRequest } from '../../errors.ts';
import { requireUser } from '../../http/session.ts';
import { routeOf } from '../../http/contract-route.ts';
import { checkImageHead, SNIFF_BYTES } from '../import/import-package.ts';
import { OWN_ZIP_LIMITS } from './own-page.service.ts';
import { saveUpload, withTempDir } from '../../storage/temp.ts';
import { fileSource, imageEnd } from '../../lib/image-end.ts';
import { sniffImage } from '../../lib/image-sniff.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { editorOf, errors } from './own-route-helpers.ts';

/**
 * The files of a multipart image upload, each streamed to a file in `dir` (never held whole in
 * memory): its first bytes must be an image before the rest is received, each stays within a page's
 * size and all of them together within a zip's limit. What is kept of each is the image itself: bytes
 * after the image's end (issue 30 item 3: 95 MB appended to a small PNG) are dropped unread.
 */
async function readImageFiles(
  request: FastifyRequest,
  dir: string,
): Promise<Array<{ name: string; data: Buffer }>> {
  const files: Array<{ name: string; data: Buffer }> = [];
  let total = 0;
  for await (const part of request.files({
    limits: { fileSize: OWN_ZIP_LIMITS.maxEntryBytes, files: 200 },
  })) {
    const file = path.join(dir, `${files.length}.upload`);
    const out = createWriteStream(file, { flags: 'wx' });
    let head = Buffer.alloc(0);
    let size = 0;
    try {
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length;
        total += chunk.length;
        if (total > OWN_ZIP_LIMITS.maxTotalBytes)
          throw badRequest(
            'IMPORT_ZIP',
            `图像合计超过 ${OWN_ZIP_LIMITS.maxTotalBytes / 1024 ** 2} MB，请分批上传`,
          );
        if (head.length < SNIFF_BYTES) {
          head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
          if (head.length >= SNIFF_BYTES) checkImageHead(head, part.filename);
        }
        if (!out.write(chunk)) await once(out, 'drain');
      }
    } finally {
      out.end();
      await once(out, 'close');
    }
    if (part.file.truncated)
      throw badRequest(
        'IMPORT_ZIP',
        `${part.filename} 过大（单个图像最大 ${OWN_ZIP_LIMITS.maxEntryBytes / 1024 ** 2} MB）`,
      );
    if (head.length < SNIFF_BYTES) checkImageHead(head, part.filename);
    files.push({ name: part.filename, data: await readImage(file, size) });
  }
  if (files.length === 0) throw badRequest('OWN_NO_FILE', '请选择图像文件');
  return files;
}

/** The image of a saved upload: its bytes up to the image's end (the whole file where none is known). */
async function readImage(file: string, size: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const source = fileSource(handle, size);
    const kind = sniffImage(await source.read(0, SNIFF_BYTES));
    const end = (kind && (await imageEnd(kind, source))) ?? size;
    return await source.read(0, end);
  } finally {
    await handle.close();
  }
}

/**
 * The pages of own volumes (issue 7): uploaded as a zip or as images, listed with their OCR state,
 * reordered, renamed and deleted; and a user's single images. The owner's calls only ever touch the
 * owner's pages.
 */
export const ownPageRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const own = context.services.ownPages;

  r.route({
    ...routeOf(ownVolumesApi.uploadZip, errors),
    handler: async (request) => {
      const editor = editorOf(request);
      // One or two uploads per user at a time; the zip goes to disk and is unpacked entry by entry.
      return context.services.uploads.run(editor.id, async () => {
        await own.checkUploadTarget(editor, request.params.id);
        return withTempDir(context.config.dataDir, async (dir) => {
          const file = await request.file({ limits: { fileSize: OWN_ZIP_LIMITS.maxTotalBytes, files: 1 } });
          if (!file) throw badRequest('OWN_ZIP_ONLY', MSG.ownZipOnly);
          const zipFile = path.join(dir, 'upload.zip');
          if (!(await saveUpload(file.file, zipFile)))
            throw badRequest(
              'IMPORT_ZIP',
              `压缩包过大（超过 ${OWN_ZIP_LIMITS.maxTotalBytes / 1024 ** 2} MB）`,
            );
          const result = await own.uploadZip(editor, request.params.id, file.filename, zipFile, dir);
          return { ...result, message: MSG.ownUploaded };
        });
      });
    },
  });

  r.route({
    ...routeOf(ownPagesApi.list, errors),
    handler: (request) => own.pages(editorOf(request), request.params.id),
  });
  r.route({
    ...routeOf(ownPagesApi.upload, errors),
    handler: async (request) => {
      const editor = editorOf(request);
      return context.services.uploads.run(editor.id, async () => {
        await own.checkUploadTarget(editor, request.params.id);
        return withTempDir(context.config.dataDir, async (dir) => {
          const added = await own.uploadImages(editor, request.params.id, await readImageFiles(request, dir));
          return { added, message: MSG.ownUploaded };
        });
      });
    },
  });
  r.route({
    ...routeOf(ownPagesApi.reorder, errors),
    handler: async (request) => {
      await own.reorder(editorOf(request), request.params.id, request.body.imageIds);
      return { ok: true as const, message: MSG.ownOrderSaved };
    },
  });
  r.route({
    ...routeOf(ownPagesApi.rename, errors),
    handler: async (request) => {
      await own.renamePage(editorOf(request), request.params.id, request.body.imageName);
      return { ok: true as const, message: MSG.ownImageRenamed };
    },
  });
  r.route({
    ...routeOf(ownPagesApi.remove, errors),
    handler: async (request) => {
      await own.deletePage(editorOf(request), request.params.id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  });

  r.route({
    ...routeOf(ownSinglesApi.list, errors),
    handler: (request) => own.singles(requireUser(request).id),
  });
  r.route({
    ...routeOf(ownSinglesApi.upload, errors),
    handler: async (request) => {
      const user = requireUser(request);
      return context.services.uploads.run(user.id, async () => {
        return withTempDir(context.config.dataDir, async (dir) => {
          const files = await readImageFiles(request, dir);
          return { added: await own.uploadSingles(user.id, files), message: MSG.ownUploaded };
        });
      });
    },
  });
};
