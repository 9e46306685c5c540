import { bookNotFound, imageIdOf, imageNotFound, volumeNotFound } from './not-found.ts';
import { OWN_STATUS } from '@guji/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { addVary, documentOrigin } from '../../http/document-origin.ts';
import { iiifImageBase } from '../catalog/catalog.service.ts';
import { AppError, tooMany } from '../../errors.ts';
import { WWW_AUTHENTICATE } from '../../http/error-handler.ts';
import { resolveSession } from '../../http/session.ts';
import { freeFormMaxArea, imageSizes, pageLimits, TILE_SIZE } from '../../iiif/image.service.ts';
import {
  canonicalPath,
  IiifRequestError,
  outputArea,
  parseImageRequest,
  rotatesArbitrarily,
  upscales,
  type ImageRequest,
  type ResolvedRequest,
} from '../../iiif/image-request.ts';
import {
  buildBookCollection,
  buildManifest,
  buildTextAnnotations,
  buildTopCollection,
} from './presentation.ts';
import { parseOcr } from '../../ocr/parse.ts';
import { auth1Service } from './iiif-auth.ts';
import { iiifAccess } from './iiif-access.ts';
import type { RouteModule } from '../../http/route-module.ts';
import type { AppContext } from '../../context.ts';

const IMAGE_CONTEXT = 'http://iiif.io/api/image/3/context.json';
/** Outputs up to one tile's pixels are cheap to render and never count against the render limit. */
const LIGHT_RENDER_AREA = TILE_SIZE * TILE_SIZE;

/** Image API features this service offers beyond level 2 (info.json's extraFeatures). */
const EXTRA_FEATURES = [
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
];

// Any identifier that names no image is a 404, whatever its form (IIIF Image API §7).
const ImageId = z.object({ imageId: z.string() });

/**
 * IIIF Image API 3.0 (level 2) and Presentation API 3.0. Every response passes the access rule:
 * public books (visible, published, open) are served to anyone with CORS; others only to viewers
 * the rule admits, privately cached. Access is decided before a request's parameters are judged, so
 * a refused image tells nothing about itself.
 */
export const iiifRoutes: RouteModule = (app, { context }) => {
  const kit = iiifKit(app, context);
  imageInfoRoutes(kit);
  imageRequestRoute(kit);
  manifestRoute(kit);
  collectionAndTextRoutes(kit);
};

/** What the IIIF routes share: the typed router, the catalogue, the access rule and the render limit. */
function iiifKit(app: FastifyInstance, context: AppContext) {
  const { iiifCatalog } = context.services;
  const { config } = context;
  // Renders of sizes and regions no viewer grid asks for, per signed-in user or client address.
  const renderLimit = app.createRateLimit({
    max: config.iiifRenderRateLimitPerMinute,
    timeWindow: '1 minute',
    keyGenerator: (request) => (request.user ? `iiif-user:${request.user.id}` : `iiif-ip:${request.ip}`),
  });

  /**
   * The page (without its OCR JSON: images need none of it), its book and whether that is public, or a
   * 404. A public book's page is kept between requests (IiifCatalog.imageAccess).
   */
  async function pageAndBook(imageId: number) {
    const found = await iiifCatalog.imageAccess(imageId);
    const missing = imageNotFound(String(imageId));
    if (!found) throw missing;
    return { ...found, missing };
  }

  /**
   * Requests outside the viewers' grid: upscaled or freely rotated output is capped in pixels (after
   * rotation) by freeFormMaxArea, lower for clients without a session; every render larger than a
   * tile counts against the per-client render limit.
   */
  async function limitRender(
    request: FastifyRequest,
    page: { width: number; height: number },
    parsed: ImageRequest,
    resolved: ResolvedRequest,
  ) {
    // Who asks sets the caps (the image route reads no session for a public book until here).
    await resolveSession(request);
    const area = outputArea(resolved, parsed);
    const freeForm = upscales(resolved) || rotatesArbitrarily(parsed);
    const cap = freeFormMaxArea(page, Boolean(request.user));
    if (freeForm && area > cap) {
      throw new IiifRequestError(
        400,
        request.user
          ? `放大（^）或非 90° 倍数旋转的输出不得超过 ${cap} 像素（本请求 ${area} 像素）；请缩小尺寸`
          : `未登录时放大（^）或非 90° 倍数旋转的输出不得超过 ${cap} 像素（本请求 ${area} 像素）；请缩小尺寸或登录后再试`,
      );
    }
    if (!freeForm && area <= LIGHT_RENDER_AREA) return;
    const limit = await renderLimit(request);
    if (!limit.isAllowed && limit.isExceeded)
      throw tooMany('图像渲染请求过于频繁，请稍后再试（浏览图块不受此限）', limit.ttlInSeconds);
  }

  return {
    r: app.withTypeProvider<ZodTypeProvider>(),
    context,
    iiifCatalog,
    images: context.iiifImages,
    baseOf: (request: FastifyRequest, reply: FastifyReply) => documentOrigin(config, request, reply),
    ...iiifAccess(context),
    pageAndBook,
    limitRender,
  };
}

type IiifKit = ReturnType<typeof iiifKit>;

/** The image service's base URI and its information (info.json). */
function imageInfoRoutes({ r, baseOf, pageAndBook, decide }: IiifKit): void {
  r.get(
    '/iiif/3/:imageId',
    {
      schema: { tags: ['iiif'], summary: 'Image service base URI: redirects to info.json', params: ImageId },
    },
    (request, reply) => reply.redirect(`${iiifImageBase(imageIdOf(request.params.imageId))}/info.json`, 303),
  );

  r.get(
    '/iiif/3/:imageId/info.json',
    {
      // The access rule reads the session only for a book that is not public (iiif-access.ts).
      config: { lazySession: true },
      schema: { tags: ['iiif'], summary: 'IIIF Image API 3.0 image information', params: ImageId },
    },
    async (request, reply) => {
      const found = await pageAndBook(imageIdOf(request.params.imageId));
      const { page, book, missing } = found;
      const { refused, isPublic } = await decide(request, reply, book, missing, { isPublic: found.isPublic });
      const base = baseOf(request, reply);
      const description = {
        '@context': IMAGE_CONTEXT,
        id: base + iiifImageBase(page.id),
        type: 'ImageService3',
        protocol: 'http://iiif.io/api/image',
        profile: 'level2',
        width: page.width,
        height: page.height,
        // A restricted book's images name the login service that lets an outside viewer in (IIIF Auth
        // 1.0). The Auth 2.0 probe is on the manifest's content resources: Mirador 4 fails on services
        // without a profile here.
        ...(!isPublic ? { service: [auth1Service(base, book)] } : {}),
      };
      const type = 'application/ld+json;profile="http://iiif.io/api/image/3/context.json"';
      // Refused with 401 or 403: the description with its auth services (IIIF Auth 1.0 §3), not the image's.
      if (refused && refused.status !== 404) {
        if (refused.status === 401) void reply.header('www-authenticate', WWW_AUTHENTICATE);
        return reply
          .status(refused.status)
          .type(type)
          .send({ ...description, code: refused.code, message: refused.message });
      }
      if (refused) throw refused;
      const { sizes, scaleFactors } = imageSizes(page.width, page.height);
      return reply.type(type).send({
        ...description,
        maxWidth: pageLimits(page).maxWidth,
        maxHeight: pageLimits(page).maxHeight,
        maxArea: pageLimits(page).maxArea,
        sizes,
        tiles: [{ width: TILE_SIZE, height: TILE_SIZE, scaleFactors }],
        extraQualities: ['color', 'gray', 'bitonal'],
        extraFormats: ['png', 'webp'],
        extraFeatures: EXTRA_FEATURES,
      });
    },
  );
}

/** An image request: {region}/{size}/{rotation}/{quality}.{format}. */
function imageRequestRoute({
  r,
  context,
  iiifCatalog,
  images,
  pageAndBook,
  admit,
  limitRender,
}: IiifKit): void {
  r.get(
    '/iiif/3/:imageId/:region/:size/:rotation/:qualityFormat',
    {
      // Tiles are most of the traffic: their requests are logged at IMAGE_LOG_LEVEL (warn by default).
      logLevel: context.config.imageLogLevel,
      // The access rule reads the session only for a book that is not public (iiif-access.ts).
      config: { lazySession: true },
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
      const { page, book, missing, isPublic } = await pageAndBook(imageIdOf(request.params.imageId));
      let parsed: ImageRequest | undefined;
      let invalid: unknown;
      try {
        parsed = parseImageRequest(region, size, rotation, qualityFormat);
      } catch (error) {
        invalid = error;
      }
      // A visible, published book's cover is public in lists: exactly its thumbnail, nothing else.
      await admit(request, reply, book, missing, {
        isPublic,
        exception: async () =>
          parsed !== undefined &&
          book.is_visible === 1 &&
          book.audit_status === OWN_STATUS.published &&
          images.isThumbnail(page, parsed) &&
          (await iiifCatalog.isCover(book.id, page.id)),
      });
      if (!parsed) throw invalid;
      const resolved = images.resolve(page, parsed);
      if (!images.keeps(page, parsed, resolved)) await limitRender(request, page, parsed, resolved);
      const { etag } = images.describe(page, parsed);
      void reply.header('etag', etag);
      // The profile and the canonical form of this request (relative to this server), as info.json says.
      const canonical = `${iiifImageBase(page.id)}/${canonicalPath(resolved, parsed, page.width, page.height)}`;
      void reply.header(
        'link',
        `<http://iiif.io/api/image/3/level2.json>;rel="profile", <${canonical}>;rel="canonical"`,
      );
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      const image = await images.render(page, parsed);
      void reply.header('x-image-source', image.source);
      context.metrics.imageServed(image.source);
      return reply.type(image.contentType).send(image.data);
    },
  );
}

/** The Presentation API's manifest of a volume. */
function manifestRoute({ r, iiifCatalog, baseOf, admitMetadata }: IiifKit): void {
  const VolumeId = z.object({ volumeId: z.coerce.number().int().positive() });

  r.get(
    '/iiif/presentation/volumes/:volumeId/manifest.json',
    { schema: { tags: ['iiif'], summary: 'IIIF Presentation 3.0 Manifest of a volume', params: VolumeId } },
    async (request, reply) => {
      const found = await iiifCatalog.volume(request.params.volumeId);
      const missing = volumeNotFound(request.params.volumeId);
      if (!found) throw missing;
      const { volume, book } = found;
      const { isPublic } = await admitMetadata(request, reply, book, missing);
      // The search service is offered only to clients it answers: in the reading room, to a signed-in
      // reader, or to an outside viewer once the reader signs in through IIIF Auth (whose services the
      // manifest names) and it sends the token. Such a manifest is theirs alone.
      const searchable = request.readingRoom;
      if (searchable) {
        void reply.header('cache-control', 'private, max-age=3600');
        addVary(reply, 'cookie');
      }
      const { pages, volumeCount, directory } = await iiifCatalog.manifestParts(book, volume);
      return reply.type('application/ld+json;profile="http://iiif.io/api/presentation/3/context.json"').send(
        buildManifest({
          base: baseOf(request, reply),
          searchable,
          book,
          volume,
          volumeCount,
          pages,
          directory,
          restricted: !isPublic,
        }),
      );
    },
  );
}

/** The Presentation API's collections (a book's volumes, all public books) and a page's text. */
function collectionAndTextRoutes({
  r,
  iiifCatalog,
  baseOf,
  pageAndBook,
  admit,
  admitMetadata,
}: IiifKit): void {
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
      const book = await iiifCatalog.book(request.params.catalogId);
      const missing = bookNotFound(request.params.catalogId);
      if (!book) throw missing;
      await admitMetadata(request, reply, book, missing);
      const volumes = await iiifCatalog.volumes(book.id);
      return reply
        .type('application/ld+json')
        .send(buildBookCollection(baseOf(request, reply), book, volumes));
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
      const found = await pageAndBook(imageIdOf(request.params.imageId));
      const { page: imagePage, book, missing } = found;
      await admit(request, reply, book, missing, { isPublic: found.isPublic });
      const page = { ...imagePage, ocr_json: await iiifCatalog.ocrJson(imagePage.id) };
      const ocr = parseOcr(page.ocr_json);
      if (!ocr) throw new AppError(404, 'NO_OCR', `本页暂无识别文字：${page.id}`);
      return reply
        .type('application/ld+json;profile="http://iiif.io/api/presentation/3/context.json"')
        .send(buildTextAnnotations(baseOf(request, reply), page, ocr));
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
        .send(buildTopCollection(baseOf(request, reply), await iiifCatalog.publicBooks()));
    },
  );
}
