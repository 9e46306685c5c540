import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorBody,
  MSG,
  OkBody,
  OwnBook,
  OwnBookRequest,
  OwnPage,
  RenamePageRequest,
  ReorderRequest,
  OwnVolumeRequest,
  paged,
  RefuseRequest,
  SaveDirectoryRequest,
  SubmitBooksRequest,
  Volume,
  ZipUploadResult,
  OWN_STATUS,
} from '@guji/shared';
import { badRequest } from '../../errors.ts';
import { requireRole, requireUser } from '../../http/session.ts';
import { isCatalogStaff } from '../catalog/access.ts';
import { checkImageHead, SNIFF_BYTES } from '../import/import-package.ts';
import { OWN_ZIP_LIMITS, type Editor } from './own-book.service.ts';
import { saveUpload, withTempDir } from '../../storage/temp.ts';
import type { RouteModule } from '../../http/route-module.ts';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  429: ErrorBody,
};
const IdParams = z.object({ id: z.coerce.number().int().positive() });

/**
 * The files of a multipart image upload: each file's first bytes must be an image before the rest is
 * received, and all of them together stay within a zip's limit (each is checked fully later, before
 * anything is stored).
 */
async function readImageFiles(request: FastifyRequest): Promise<Array<{ name: string; data: Buffer }>> {
  const files: Array<{ name: string; data: Buffer }> = [];
  let total = 0;
  for await (const part of request.files({
    limits: { fileSize: OWN_ZIP_LIMITS.maxEntryBytes, files: 200 },
  })) {
    const chunks: Buffer[] = [];
    let size = 0;
    let checked = false;
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      size += chunk.length;
      total += chunk.length;
      if (total > OWN_ZIP_LIMITS.maxTotalBytes)
        throw badRequest(
          'IMPORT_ZIP',
          `图像合计超过 ${OWN_ZIP_LIMITS.maxTotalBytes / 1024 ** 2} MB，请分批上传`,
        );
      chunks.push(chunk);
      if (!checked && size >= SNIFF_BYTES) {
        checkImageHead(Buffer.concat(chunks), part.filename);
        checked = true;
      }
    }
    if (part.file.truncated) throw badRequest('IMPORT_ZIP', `${part.filename} 过大`);
    const data = Buffer.concat(chunks);
    if (!checked) checkImageHead(data, part.filename);
    files.push({ name: part.filename, data });
  }
  if (files.length === 0) throw badRequest('OWN_NO_FILE', '请选择图像文件');
  return files;
}

/** The signed-in user as the editor of a book's volumes and pages (catalogue staff: also the library's). */
function editorOf(request: FastifyRequest): Editor {
  const user = requireUser(request);
  return { id: user.id, catalogStaff: isCatalogStaff(user.roles) };
}

/**
 * Own books (issue 7): a user's books and volumes, volume pages from a zip, submission, and the
 * reviewers' decision. The owner's calls only ever touch the owner's books.
 */
export const ownRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const own = context.services.ownBooks;
  /** Catalogue staff's changes to volumes and pages go to the audit log (owners' own do not). */
  const audit = async (editor: Editor, action: string, target: string, after: unknown = null) => {
    if (editor.catalogStaff) await context.services.admin.record(editor.id, action, target, null, after);
  };

  r.get(
    '/api/own/books',
    {
      schema: {
        tags: ['own books'],
        summary: 'My books: 5 on the first page, then 6 (spec queryConsumerCatalogList)',
        querystring: z.object({ pageNum: z.coerce.number().int().min(1).default(1) }),
        response: { 200: paged(OwnBook), ...errors },
      },
    },
    (request) => own.list(requireUser(request).id, request.query.pageNum),
  );
  r.get(
    '/api/own/books/:id',
    {
      schema: {
        tags: ['own books'],
        summary: 'One of my books',
        params: IdParams,
        response: { 200: OwnBook, ...errors },
      },
    },
    (request) => own.get(editorOf(request), request.params.id),
  );
  r.post(
    '/api/own/books',
    {
      schema: {
        tags: ['own books'],
        summary: 'Add a book (spec saveCatalog)',
        body: OwnBookRequest,
        response: { 200: OwnBook, ...errors },
      },
    },
    (request) => own.create(requireUser(request).id, request.body),
  );
  r.put(
    '/api/own/books/:id',
    {
      schema: {
        tags: ['own books'],
        summary: 'Edit a book (spec updateCatalog)',
        params: IdParams,
        body: OwnBookRequest,
        response: { 200: OwnBook, ...errors },
      },
    },
    (request) => own.update(requireUser(request).id, request.params.id, request.body),
  );
  r.delete(
    '/api/own/books/:id',
    {
      schema: {
        tags: ['own books'],
        summary: 'Delete a book of mine (spec deleteCatalog)',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await own.remove(requireUser(request).id, request.params.id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  );
  r.post(
    '/api/own/books/submit',
    {
      schema: {
        tags: ['own books'],
        summary: 'Submit books for publication (spec publishCataImage)',
        body: SubmitBooksRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await own.submit(requireUser(request).id, request.body.ids);
      return { ok: true as const, message: MSG.ownSubmitted };
    },
  );
  r.post(
    '/api/own/books/:id/unpublish',
    {
      schema: {
        tags: ['own books'],
        summary:
          'Withdraw my book from review or publication: out of the catalogue and search at once, a draft again (a published book is frozen until then)',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await own.unpublish(requireUser(request).id, request.params.id);
      return { ok: true as const, message: MSG.ownUnpublished };
    },
  );

  r.get(
    '/api/own/books/:id/volumes',
    {
      schema: {
        tags: ['own books'],
        summary: "My book's volumes",
        params: IdParams,
        response: { 200: z.array(Volume), ...errors },
      },
    },
    (request) => own.volumes(editorOf(request), request.params.id),
  );
  r.post(
    '/api/own/books/:id/volumes',
    {
      schema: {
        tags: ['own books'],
        summary: 'Add a volume (spec saveFascicle)',
        params: IdParams,
        body: OwnVolumeRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const editor = editorOf(request);
      await own.addVolume(editor, request.params.id, request.body);
      await audit(editor, 'volume.create', `book:${request.params.id}`, request.body);
      return { ok: true as const, message: MSG.ownVolumeAdded };
    },
  );
  r.put(
    '/api/own/volumes/:id',
    {
      schema: {
        tags: ['own books'],
        summary: 'Edit a volume (spec updateFascicle)',
        params: IdParams,
        body: OwnVolumeRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const editor = editorOf(request);
      await own.updateVolume(editor, request.params.id, request.body);
      await audit(editor, 'volume.update', `volume:${request.params.id}`, request.body);
      return { ok: true as const, message: MSG.ownVolumeChanged };
    },
  );
  r.delete(
    '/api/own/volumes/:id',
    {
      schema: {
        tags: ['own books'],
        summary: 'Delete a volume (spec deleteFascicle)',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const editor = editorOf(request);
      await own.removeVolume(editor, request.params.id);
      await audit(editor, 'volume.delete', `volume:${request.params.id}`);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  );
  r.post(
    '/api/own/volumes/:id/zip',
    {
      schema: {
        tags: ['own books'],
        summary:
          'Upload a volume’s pages as a .zip of images (multipart field `file`); refused whole on any bad entry',
        consumes: ['multipart/form-data'],
        params: IdParams,
        response: { 200: ZipUploadResult, ...errors },
      },
    },
    async (request) => {
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
          await audit(editor, 'pages.upload', `volume:${request.params.id}`, {
            file: file.filename,
            added: result.added,
          });
          return { ...result, message: MSG.ownUploaded };
        });
      });
    },
  );

  r.put(
    '/api/own/volumes/:id/directory',
    {
      schema: {
        tags: ['own books'],
        summary:
          "Replace a volume's directory (owner, or catalogue staff for the library's books); read it back with GET /api/volumes/{id}/directory",
        params: IdParams,
        body: SaveDirectoryRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const editor = editorOf(request);
      await own.saveDirectory(editor, request.params.id, request.body.entries);
      await audit(editor, 'directory.save', `volume:${request.params.id}`, request.body.entries);
      return { ok: true as const, message: MSG.directorySaved };
    },
  );

  r.get(
    '/api/own/volumes/:id/pages',
    {
      schema: {
        tags: ['own books'],
        summary: "A volume's pages with their OCR state (spec queryImageList)",
        params: IdParams,
        response: { 200: z.array(OwnPage), ...errors },
      },
    },
    (request) => own.pages(editorOf(request), request.params.id),
  );
  r.post(
    '/api/own/volumes/:id/images',
    {
      schema: {
        tags: ['own books'],
        summary:
          'Add page images to a volume (multipart, one or more files named `file`; spec uploadCataImage)',
        consumes: ['multipart/form-data'],
        params: IdParams,
        response: { 200: z.object({ added: z.number().int(), message: z.string() }), ...errors },
      },
    },
    async (request) => {
      const editor = editorOf(request);
      return context.services.uploads.run(editor.id, async () => {
        await own.checkUploadTarget(editor, request.params.id);
        const added = await own.uploadImages(editor, request.params.id, await readImageFiles(request));
        await audit(editor, 'pages.upload', `volume:${request.params.id}`, { added });
        return { added, message: MSG.ownUploaded };
      });
    },
  );
  r.post(
    '/api/own/volumes/:id/order',
    {
      schema: {
        tags: ['own books'],
        summary: 'Reorder all pages of a volume',
        params: IdParams,
        body: ReorderRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const editor = editorOf(request);
      await own.reorder(editor, request.params.id, request.body.imageIds);
      await audit(editor, 'pages.order', `volume:${request.params.id}`, request.body.imageIds);
      return { ok: true as const, message: MSG.ownOrderSaved };
    },
  );
  r.put(
    '/api/own/pages/:id',
    {
      schema: {
        tags: ['own books'],
        summary: 'Rename a page image (spec updateImage)',
        params: IdParams,
        body: RenamePageRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const editor = editorOf(request);
      await own.renamePage(editor, request.params.id, request.body.imageName);
      await audit(editor, 'page.rename', `page:${request.params.id}`, request.body);
      return { ok: true as const, message: MSG.ownImageRenamed };
    },
  );
  r.delete(
    '/api/own/pages/:id',
    {
      schema: {
        tags: ['own books'],
        summary: 'Delete a page image (spec deleteImage)',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const editor = editorOf(request);
      await own.deletePage(editor, request.params.id);
      await audit(editor, 'page.delete', `page:${request.params.id}`);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  );

  r.get(
    '/api/own/singles',
    {
      schema: {
        tags: ['own books'],
        summary: 'My single images (isLonely 1) with their OCR state',
        response: { 200: z.array(OwnPage), ...errors },
      },
    },
    (request) => own.singles(requireUser(request).id),
  );
  r.post(
    '/api/own/singles',
    {
      schema: {
        tags: ['own books'],
        summary:
          'Upload single images (multipart, one or more `file`); recognise, proofread and export them like pages',
        consumes: ['multipart/form-data'],
        response: { 200: z.object({ added: z.number().int(), message: z.string() }), ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return context.services.uploads.run(user.id, async () => {
        const files = await readImageFiles(request);
        return { added: await own.uploadSingles(user.id, files), message: MSG.ownUploaded };
      });
    },
  );

  // Publication review (reviewers)
  r.get(
    '/api/admin/own-books',
    {
      schema: {
        tags: ['admin'],
        summary: 'Own books by review state (default 1: submitted), for reviewers',
        querystring: z.object({
          status: z
            .enum([OWN_STATUS.draft, OWN_STATUS.reviewing, OWN_STATUS.published, OWN_STATUS.refused])
            .default(OWN_STATUS.reviewing),
        }),
        response: { 200: z.array(OwnBook), ...errors },
      },
    },
    (request) => {
      requireRole(request, 'reviewer');
      return own.queue(request.query.status);
    },
  );
  r.post(
    '/api/admin/own-books/:id/approve',
    {
      schema: {
        tags: ['admin'],
        summary: 'Approve: public in the catalogue and searchable',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const user = requireRole(request, 'reviewer');
      await own.approve(request.params.id, user.id);
      await context.services.admin.record(
        user.id,
        'ownbook.approve',
        `book:${request.params.id}`,
        null,
        null,
      );
      return { ok: true as const, message: MSG.ownPublished };
    },
  );
  r.post(
    '/api/admin/own-books/:id/refuse',
    {
      schema: {
        tags: ['admin'],
        summary: 'Refuse with a reason the owner sees',
        params: IdParams,
        body: RefuseRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const user = requireRole(request, 'reviewer');
      await own.refuse(request.params.id, request.body.reason, user.id);
      await context.services.admin.record(user.id, 'ownbook.refuse', `book:${request.params.id}`, null, {
        reason: request.body.reason,
      });
      return { ok: true as const, message: MSG.reservationRefused };
    },
  );
  r.post(
    '/api/admin/own-books/:id/withdraw',
    {
      schema: {
        tags: ['admin'],
        summary: 'Withdraw a public own book (out of the catalogue), with a reason',
        params: IdParams,
        body: RefuseRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const user = requireRole(request, 'reviewer');
      await own.withdraw(request.params.id, request.body.reason, user.id);
      await context.services.admin.record(user.id, 'ownbook.withdraw', `book:${request.params.id}`, null, {
        reason: request.body.reason,
      });
      return { ok: true as const };
    },
  );
};
