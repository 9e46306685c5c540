import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../http/session.ts';
import {
  AnnotationPageExport,
  MSG,
  MyNote,
  Note,
  NoteRequest,
  NoteUpdateRequest,
  OkBody,
  paged,
  WebAnnotationDocument,
  type WebAnnotation,
} from '@guji/shared';
import { canvasUrl } from '../iiif/presentation.ts';
import { manifestUrl } from '../catalog/catalog.service.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { errors, IdParams, PageNum, baseOf, me } from './route-helpers.ts';

/** Notes drawn on pages (private to their author), exported as W3C Web Annotations. */
export const noteRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { personal } = context.services;

  r.get(
    '/api/pages/:id/notes',
    {
      schema: {
        tags: ['personal'],
        summary: 'My notes on a page',
        params: IdParams,
        response: { 200: z.array(Note), ...errors },
      },
    },
    (request) => personal.pageNotes(me(request), request.params.id),
  );
  r.post(
    '/api/notes',
    {
      schema: {
        tags: ['personal'],
        summary: 'Write a note on a rectangle of a page (image pixels)',
        body: NoteRequest,
        response: { 200: Note, ...errors },
      },
    },
    (request) => {
      const { imageId, text, ...rect } = request.body;
      return personal.addNote(me(request), imageId, rect, text);
    },
  );
  r.patch(
    '/api/notes/:id',
    {
      schema: {
        tags: ['personal'],
        summary: 'Edit one of my notes',
        params: IdParams,
        body: NoteUpdateRequest,
        response: { 200: Note, ...errors },
      },
    },
    (request) => personal.updateNote(requireUser(request).id, request.params.id, request.body.text),
  );
  r.delete(
    '/api/notes/:id',
    {
      schema: {
        tags: ['personal'],
        summary: 'Delete one of my notes',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await personal.deleteNote(requireUser(request).id, request.params.id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  );
  r.get(
    '/api/me/notes',
    {
      schema: {
        tags: ['personal'],
        summary: 'My notes, 10 a page (Notation channel)',
        querystring: PageNum,
        response: { 200: paged(MyNote), ...errors },
      },
    },
    (request) => personal.myNotes(requireUser(request).id, request.query.pageNum),
  );
  r.get(
    '/api/notes/:id',
    {
      schema: {
        tags: ['personal'],
        summary:
          'One of my notes as a W3C Web Annotation (the id the export gives it; another user’s note is 404)',
        params: IdParams,
        response: { 200: WebAnnotationDocument, ...errors },
      },
    },
    async (request, reply) => {
      const note = await personal.myNote(requireUser(request).id, request.params.id);
      void reply
        .header('content-type', ANNOTATION_TYPE)
        .header('cache-control', 'private, no-store')
        .header('vary', 'cookie');
      return { '@context': ANNO_CONTEXT, ...toWebAnnotation(baseOf(context.config, request), note) };
    },
  );
  r.get(
    '/api/me/notes/export',
    {
      schema: {
        tags: ['personal'],
        summary:
          'All my notes as a W3C Web Annotation AnnotationPage (JSON-LD; targets: IIIF canvases with xywh)',
        response: { 200: AnnotationPageExport, ...errors },
      },
    },
    async (request, reply) => {
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
  );
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
