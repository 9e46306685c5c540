import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../http/session.ts';
import { MSG, type MyNote, notesApi, type WebAnnotation } from '@guji/shared';
import { canvasUrl } from '../iiif/presentation.ts';
import { manifestUrl } from '../catalog/catalog.service.ts';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { errors, baseOf, me } from './route-helpers.ts';
import { writeLimit } from '../../http/write-limit.ts';

/** Notes drawn on pages (private to their author), exported as W3C Web Annotations. */
export const noteRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { personal } = context.services;

  r.route({
    ...routeOf(notesApi.onPage, errors),
    handler: (request) => personal.pageNotes(me(request), request.params.id),
  });
  r.route({
    ...routeOf(notesApi.create, errors, writeLimit(context.config.writeRateLimitPerMinute)),
    handler: (request) => {
      const { imageId, text, ...rect } = request.body;
      return personal.addNote(me(request), imageId, rect, text);
    },
  });
  r.route({
    ...routeOf(notesApi.update, errors),
    handler: (request) => personal.updateNote(requireUser(request).id, request.params.id, request.body.text),
  });
  r.route({
    ...routeOf(notesApi.remove, errors),
    handler: async (request) => {
      await personal.deleteNote(requireUser(request).id, request.params.id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  });
  r.route({
    ...routeOf(notesApi.mine, errors),
    handler: (request) => personal.myNotes(requireUser(request).id, request.query.pageNum),
  });
  r.route({
    ...routeOf(notesApi.get, errors),
    handler: async (request, reply) => {
      const note = await personal.myNote(requireUser(request).id, request.params.id);
      void reply
        .header('content-type', ANNOTATION_TYPE)
        .header('cache-control', 'private, no-store')
        .header('vary', 'cookie');
      return { '@context': ANNO_CONTEXT, ...toWebAnnotation(baseOf(context.config, request), note) };
    },
  });
  r.route({
    ...routeOf(notesApi.export, errors),
    handler: async (request, reply) => {
      const user = requireUser(request);
      const base = baseOf(context.config, request);
      const notes = await personal.myNotes(user.id, 1, 100_000);
      void reply
        .header('content-type', ANNOTATION_TYPE)
        .header('content-disposition', "attachment; filename*=UTF-8''notes.jsonld");
      return {
        '@context': ANNO_CONTEXT,
        id: `${base}/api/me/notes/export`,
        type: 'AnnotationPage' as const,
        items: notes.records.map((note) => toWebAnnotation(base, note)),
      };
    },
  });
};

const ANNO_CONTEXT = 'http://www.w3.org/ns/anno.jsonld' as const;
/** The media type of the Web Annotation Protocol (W3C): JSON-LD with the annotation profile. */
const ANNOTATION_TYPE = 'application/ld+json; profile="http://www.w3.org/ns/anno.jsonld"';

/** A note as a W3C Web Annotation; its id (`/api/notes/{id}`) answers with this same annotation. */
function toWebAnnotation(base: string, note: MyNote): WebAnnotation {
  return {
    id: `${base}/api/notes/${note.id}`,
    type: 'Annotation',
    motivation: 'commenting',
    created: note.createdAt,
    modified: note.updatedAt,
    body: { type: 'TextualBody', value: note.text, format: 'text/plain', language: 'zh' },
    target: {
      type: 'SpecificResource',
      source: {
        id: base + canvasUrl(note.volumeId, note.imageId),
        type: 'Canvas',
        partOf: base + manifestUrl(note.volumeId),
      },
      selector: {
        type: 'FragmentSelector',
        conformsTo: 'http://www.w3.org/TR/media-frags/',
        value: `xywh=${note.x},${note.y},${note.w},${note.h}`,
      },
    },
  };
}
