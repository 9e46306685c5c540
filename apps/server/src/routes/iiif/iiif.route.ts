import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { viewerOf } from '../../http/session.ts';
import { accessError, iiifImageBase } from '../../services/catalog.service.ts';
import { AppError } from '../../errors.ts';
import { TILE_SIZE } from '../../iiif/image.service.ts';
import { LIMITS, parseImageRequest, resolveRequest } from '../../iiif/image-request.ts';
import {
  buildBookCollection,
  buildManifest,
  buildSearchResponse,
  buildTextAnnotations,
  buildTopCollection,
} from '../../iiif/presentation.ts';
import { parseOcr } from '../../ocr/parse.ts';
import type { BookRow } from '../../db/schema.ts';
import type { RouteModule } from '../types.ts';

const IMAGE_CONTEXT = 'http://iiif.io/api/image/3/context.json';
/** The largest output that counts as a cover thumbnail, public for every visible book. */
const THUMBNAIL_MAX = 300;

/**
 * IIIF Image API 3.0 (level 2) and Presentation API 3.0. Every response passes the access rule:
 * public books (visible, published, open) are served to anyone with CORS; others only to viewers
 * the rule admits, privately cached.
 */
export const iiifRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { catalog } = context.services;
  const repo = context.repos.catalog;
  const images = context.iiifImages;

  const baseOf = (request: FastifyRequest) =>
    context.config.publicOrigin?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;

  /** Checks access to a book; sets CORS and caching headers for the answer. */
  async function admit(request: FastifyRequest, reply: FastifyReply, book: BookRow, exception = false) {
    const decision = await catalog.mayView(book, viewerOf(request));
    if (!decision.allowed && !exception) throw accessError(decision.access);
    if (decision.isPublic || exception) {
      void reply.header('access-control-allow-origin', '*');
      void reply.header('cache-control', 'public, max-age=86400');
    } else {
      void reply.header('cache-control', 'private, max-age=3600');
      void reply.header('vary', 'cookie');
    }
  }

  async function pageAndBook(imageId: number) {
    const page = await repo.findPage(imageId);
    const book = page ? await repo.findBook(page.book_id) : undefined;
    if (!page || !book) throw new AppError(404, 'NOT_FOUND', `图像不存在：${imageId}`);
    return { page, book };
  }

  const ImageId = z.object({ imageId: z.coerce.number().int().positive() });

  r.get(
    '/iiif/3/:imageId',
    {
      schema: { tags: ['iiif'], summary: 'Image service base URI: redirects to info.json', params: ImageId },
    },
    (request, reply) => reply.redirect(`${iiifImageBase(request.params.imageId)}/info.json`, 303),
  );

  r.get(
    '/iiif/3/:imageId/info.json',
    { schema: { tags: ['iiif'], summary: 'IIIF Image API 3.0 image information', params: ImageId } },
    async (request, reply) => {
      const { page, book } = await pageAndBook(request.params.imageId);
      await admit(request, reply, book);
      const sizes = [];
      for (let w = page.width, h = page.height; w >= 64; w = Math.floor(w / 2), h = Math.floor(h / 2))
        sizes.unshift({ width: w, height: h });
      const scaleFactors = sizes.map((_, i) => 2 ** i);
      return reply.type('application/ld+json;profile="http://iiif.io/api/image/3/context.json"').send({
        '@context': IMAGE_CONTEXT,
        id: baseOf(request) + iiifImageBase(page.id),
        type: 'ImageService3',
        protocol: 'http://iiif.io/api/image',
        profile: 'level2',
        width: page.width,
        height: page.height,
        maxWidth: LIMITS.maxWidth,
        maxHeight: LIMITS.maxHeight,
        maxArea: LIMITS.maxArea,
        sizes,
        tiles: [{ width: TILE_SIZE, height: TILE_SIZE, scaleFactors }],
        extraQualities: ['color', 'gray', 'bitonal'],
        extraFormats: ['png', 'webp'],
        extraFeatures: [
          'mirroring',
          'rotationArbitrary',
          'sizeUpscaling',
          'regionSquare',
          'sizeByConfinedWh',
          'sizeByWh',
          'cors',
          'jsonldMediaType',
          'baseUriRedirect',
          'canonicalLinkHeader',
          'profileLinkHeader',
        ],
      });
    },
  );

  r.get(
    '/iiif/3/:imageId/:region/:size/:rotation/:qualityFormat',
    {
      schema: {
        tags: ['iiif'],
        summary: 'IIIF Image API 3.0 image request: {region}/{size}/{rotation}/{quality}.{format}',
        params: ImageId.extend({
          region: z.string(),
          size: z.string(),
          rotation: z.string(),
          qualityFormat: z.string(),
        }),
      },
    },
    async (request, reply) => {
      const { region, size, rotation, qualityFormat } = request.params;
      const parsed = parseImageRequest(region, size, rotation, qualityFormat);
      const { page, book } = await pageAndBook(request.params.imageId);
      const resolved = resolveRequest(parsed, page.width, page.height);
      // A small image of a visible book's first page is its cover, shown in public lists.
      const cover =
        Math.max(resolved.width, resolved.height) <= THUMBNAIL_MAX &&
        book.is_visible === 1 &&
        book.audit_status === '2' &&
        (await repo.coverPage(book.id))?.id === page.id;
      await admit(request, reply, book, cover);
      const { etag } = images.describe(page, parsed);
      void reply.header('etag', etag);
      void reply.header('link', `<http://iiif.io/api/image/3/level2.json>;rel="profile"`);
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      const image = await images.render(page, parsed);
      void reply.header('x-image-source', image.source);
      return reply.type(image.contentType).send(image.data);
    },
  );

  const VolumeId = z.object({ volumeId: z.coerce.number().int().positive() });

  r.get(
    '/iiif/presentation/volumes/:volumeId/manifest.json',
    { schema: { tags: ['iiif'], summary: 'IIIF Presentation 3.0 Manifest of a volume', params: VolumeId } },
    async (request, reply) => {
      const volume = await repo.findVolume(request.params.volumeId);
      const book = volume ? await repo.findBook(volume.book_id) : undefined;
      if (!volume || !book) throw new AppError(404, 'NOT_FOUND', `卷册不存在：${request.params.volumeId}`);
      await admit(request, reply, book);
      const [pages, volumes, directory] = await Promise.all([
        repo.listPages(volume.id),
        repo.listVolumes(book.id),
        catalog.directory(volume.id, { userId: null, roles: ['catalogAdmin'], readingRoom: false }),
      ]);
      return reply.type('application/ld+json;profile="http://iiif.io/api/presentation/3/context.json"').send(
        buildManifest({
          base: baseOf(request),
          book,
          volume,
          volumeCount: volumes.length,
          pages,
          directory,
        }),
      );
    },
  );

  r.get(
    '/iiif/presentation/books/:catalogId/collection.json',
    {
      schema: {
        tags: ['iiif'],
        summary: 'IIIF Presentation 3.0 Collection of a book’s volumes',
        params: z.object({ catalogId: z.coerce.number().int().positive() }),
      },
    },
    async (request, reply) => {
      const book = await repo.findBook(request.params.catalogId);
      if (!book) throw new AppError(404, 'NOT_FOUND', `古籍不存在：${request.params.catalogId}`);
      await admit(request, reply, book);
      const volumes = await repo.listVolumes(book.id);
      return reply.type('application/ld+json').send(buildBookCollection(baseOf(request), book, volumes));
    },
  );

  r.get(
    '/iiif/presentation/pages/:imageId/text.json',
    {
      schema: {
        tags: ['iiif'],
        summary: 'A page’s recognised text as an AnnotationPage (one supplementing annotation per column)',
        params: ImageId,
      },
    },
    async (request, reply) => {
      const { page, book } = await pageAndBook(request.params.imageId);
      await admit(request, reply, book);
      const ocr = parseOcr(page.ocr_json);
      if (!ocr) throw new AppError(404, 'NO_OCR', `本页暂无识别文字：${page.id}`);
      return reply
        .type('application/ld+json;profile="http://iiif.io/api/presentation/3/context.json"')
        .send(buildTextAnnotations(baseOf(request), page, ocr));
    },
  );

  r.get(
    '/iiif/search/volumes/:volumeId',
    {
      schema: {
        tags: ['iiif'],
        summary: 'IIIF Content Search 2.0 over a volume’s recognised text (reading room only, DESIGN.md §7)',
        params: VolumeId,
        querystring: z
          .object({ q: z.string({ error: '缺少检索词 q' }).trim().min(1, '缺少检索词 q').max(50) })
          .catchall(z.string()),
      },
    },
    async (request, reply) => {
      const volume = await repo.findVolume(request.params.volumeId);
      const book = volume ? await repo.findBook(volume.book_id) : undefined;
      if (!volume || !book) throw new AppError(404, 'NOT_FOUND', `卷册不存在：${request.params.volumeId}`);
      await admit(request, reply, book);
      const viewer = viewerOf(request);
      const hits = await context.services.fullText.volumeMatches(viewer, volume.id, request.query.q);
      const ignored = Object.keys(request.query).filter((key) => key !== 'q');
      return reply
        .type('application/ld+json')
        .send(buildSearchResponse(baseOf(request), baseOf(request) + request.url, volume.id, hits, ignored));
    },
  );

  r.get(
    '/iiif/collection/top',
    { schema: { tags: ['iiif'], summary: 'IIIF Collection of all public books' } },
    async (request, reply) => {
      void reply.header('access-control-allow-origin', '*');
      void reply.header('cache-control', 'public, max-age=300');
      return reply
        .type('application/ld+json')
        .send(buildTopCollection(baseOf(request), await repo.publicBooks()));
    },
  );
};
