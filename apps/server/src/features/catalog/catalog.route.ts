import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdvancedSearchRequest,
  BookDetail,
  BookPage,
  BookSearchQuery,
  Classification,
  DirectoryNode,
  ErrorBody,
  PageOcr,
  PageQuery,
  ReaderData,
  UpdateBookRequest,
  Volume,
} from '@guji/shared';
import { viewerOf } from '../../http/session.ts';
import { isCatalogStaff } from './access.ts';
import type { RouteModule } from '../../http/route-module.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const Id = z.coerce.number().int().positive();

/** Catalogue: classification tree, hot list, title search, book detail, volumes, directory, reader. */
export const catalogRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const catalog = context.services.catalog;

  r.get(
    '/api/classifications',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Classification dictionary as a tree (spec getFirstClassCode/getLowClassCode)',
        response: { 200: z.array(Classification) },
      },
    },
    () => catalog.classificationTree(),
  );

  r.get(
    '/api/books/hot',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Most-read visible books (spec topViews)',
        querystring: PageQuery.extend({ pageSize: z.coerce.number().int().min(1).max(48).default(8) }),
        response: { 200: BookPage },
      },
    },
    (request) => catalog.hot(request.query.pageNum, request.query.pageSize),
  );

  r.get(
    '/api/books',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Title search with a classification filter (spec queryCatalogBySort)',
        querystring: BookSearchQuery,
        response: { 200: BookPage, ...errors },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const page = await catalog.search(request.query, viewer);
      const { title, classCode, pageNum } = request.query;
      if (pageNum === 1 && (title || classCode))
        await context.services.usage.count('searches', viewer.userId);
      return page;
    },
  );

  r.get(
    '/api/books/:catalogId',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Book detail with the access decision for this viewer (spec getDetailCatalog)',
        params: z.object({ catalogId: Id }),
        response: { 200: BookDetail, ...errors },
      },
    },
    (request) => catalog.detail(request.params.catalogId, viewerOf(request)),
  );

  r.patch(
    '/api/books/:catalogId',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Change a book’s fields, visibility and online reading (catalogue staff)',
        params: z.object({ catalogId: Id }),
        body: UpdateBookRequest,
        response: { 200: BookDetail, ...errors },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      // Staff's class codes must exist; anyone else is refused by the update itself.
      if (isCatalogStaff(viewer.roles)) await context.services.catalogAdmin.checkUpdate(request.body);
      const before = await catalog.detail(request.params.catalogId, viewer).catch(() => undefined);
      const after = await catalog.update(request.params.catalogId, request.body, viewer);
      const fields = Object.keys(request.body) as Array<keyof typeof after>;
      await context.services.admin.record(
        viewer.userId,
        'book.update',
        `book:${request.params.catalogId}`,
        before ? Object.fromEntries(fields.map((k) => [k, before[k]])) : null,
        Object.fromEntries(fields.map((k) => [k, after[k]])),
      );
      return after;
    },
  );

  r.get(
    '/api/books/:catalogId/volumes',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Volumes of a book (spec getFasciclesByCataId)',
        params: z.object({ catalogId: Id }),
        response: { 200: z.array(Volume), ...errors },
      },
    },
    (request) => catalog.volumes(request.params.catalogId, viewerOf(request)),
  );

  r.get(
    '/api/volumes/:fascicleId/directory',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Directory tree of a volume (spec getDirectorys)',
        params: z.object({ fascicleId: Id }),
        response: { 200: z.array(DirectoryNode), ...errors },
      },
    },
    (request) => catalog.directory(request.params.fascicleId, viewerOf(request)),
  );

  r.get(
    '/api/pages/:imageId/ocr',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'A page’s recognised text (OCR JSON of spec §3), for viewers who may read the book',
        params: z.object({ imageId: Id }),
        response: { 200: PageOcr, ...errors },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-cache');
      return catalog.pageOcr(request.params.imageId, viewerOf(request));
    },
  );

  r.post(
    '/api/books/advanced-search',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Advanced book search: rows of field and text joined by AND/OR, fuzzy (1) or exact (0)',
        body: AdvancedSearchRequest,
        response: { 200: BookPage, ...errors },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const page = await catalog.advancedSearch(request.body, viewer);
      if (request.body.pageNum === 1) await context.services.usage.count('searches', viewer.userId);
      return page;
    },
  );

  r.get(
    '/api/reader',
    {
      schema: {
        tags: ['catalogue'],
        summary:
          'Open a volume in the reader: access rule, pages and directory; records a view and a footprint',
        querystring: z.object({ catalogId: Id, fascicleId: Id.optional() }),
        response: { 200: ReaderData, ...errors },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const viewer = viewerOf(request);
      const data = await catalog.reader(request.query.catalogId, request.query.fascicleId, viewer);
      await context.services.usage.count('bookOpens', viewer.userId);
      return data;
    },
  );
};
