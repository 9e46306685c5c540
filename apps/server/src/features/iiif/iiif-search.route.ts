import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { addVary, documentOrigin } from '../../http/document-origin.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { iiifAccess } from './iiif-access.ts';
import { iiifViewerOf } from './iiif-auth.ts';
import { volumeNotFound } from './not-found.ts';
import { buildSearchResponse, type SearchHit } from './presentation.ts';
import { buildAutocomplete1, buildSearch1Response } from './search1.ts';

const VolumeId = z.object({ volumeId: z.coerce.number().int().positive() });
const Query = z
  .object({ q: z.string({ error: '缺少检索词 q' }).trim().min(1, '缺少检索词 q').max(50) })
  .catchall(z.string());

/**
 * IIIF Content Search over a volume's recognised text: 2.0, and 1.0 with autocomplete (the version
 * Mirador 4 and Universal Viewer speak). Every version answers under the same rules (DESIGN.md §7):
 * the book's access rule, and in-book search only for a signed-in user in the reading room.
 */
export const iiifSearchRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { catalog, fullText, iiifAuth } = context.services;
  const { iiifCatalog } = context.services;
  const { admit } = iiifAccess(context);

  /** The volume's hits for the query, once the book's rule admits the caller. */
  async function hitsOf(request: FastifyRequest, reply: FastifyReply, volumeId: number, q: string) {
    const found = await iiifCatalog.volume(volumeId);
    const missing = volumeNotFound(volumeId);
    if (!found) throw missing;
    const { volume, book } = found;
    await admit(request, reply, book, missing);
    // The answer (a refusal too) depends on who asks and from where: never kept by a shared cache.
    void reply.header('cache-control', 'private, no-store');
    addVary(reply, 'cookie');
    // Signed in, in the reading room, a book the user may read: the rule of in-book search. An outside
    // viewer signs in by IIIF Authorization: its bearer token (or access cookie) names the reader.
    return fullText.volumeMatches(await iiifViewerOf(request, iiifAuth), volume.id, q, catalog);
  }
  const baseOf = (request: FastifyRequest, reply: FastifyReply) =>
    documentOrigin(context.config, request, reply);
  const ignoredOf = (query: Record<string, string>) => Object.keys(query).filter((key) => key !== 'q');

  // Three answers of one search: Content Search 2.0, 1.0, and 1.0's autocomplete.
  const answers: Array<
    [
      string,
      string,
      (base: string, url: string, volumeId: number, hits: SearchHit[], ignored: string[]) => unknown,
    ]
  > = [
    [
      '/iiif/search/volumes/:volumeId',
      'IIIF Content Search 2.0 over a volume’s recognised text (reading room only, DESIGN.md §7)',
      buildSearchResponse,
    ],
    [
      '/iiif/search/1/volumes/:volumeId',
      'IIIF Content Search 1.0 over a volume’s recognised text (the same hits and rules as 2.0)',
      buildSearch1Response,
    ],
    [
      '/iiif/search/1/volumes/:volumeId/autocomplete',
      'IIIF Content Search 1.0 autocomplete: the query and the characters that follow it',
      (base, url, volumeId, hits) => buildAutocomplete1(base, url, volumeId, hits),
    ],
  ];
  for (const [path, summary, build] of answers)
    r.get(
      path,
      { schema: { tags: ['iiif'], summary, params: VolumeId, querystring: Query } },
      async (request, reply) => {
        const hits = await hitsOf(request, reply, request.params.volumeId, request.query.q);
        const base = baseOf(request, reply);
        return reply
          .type('application/ld+json')
          .send(build(base, base + request.url, request.params.volumeId, hits, ignoredOf(request.query)));
      },
    );
};
