import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MSG, ownBooksApi, ownVolumesApi } from '@guji/shared';
import { requireUser } from '../../http/session.ts';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { editorOf, errors } from './own-route-helpers.ts';

/**
 * Own books (issue 7): a user's books, their submission or withdrawal, and their volumes and
 * directories. The owner's calls only ever touch the owner's books. (Pages and uploads:
 * own-pages.route.ts; the reviewers' decision: own-review.route.ts.)
 */
export const ownBookRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const own = context.services.ownBooks;

  r.route({
    ...routeOf(ownBooksApi.list, errors),
    handler: (request) => own.list(requireUser(request).id, request.query.pageNum),
  });
  r.route({
    ...routeOf(ownBooksApi.get, errors),
    handler: (request) => own.get(editorOf(request), request.params.id),
  });
  r.route({
    ...routeOf(ownBooksApi.create, errors),
    handler: (request) => own.create(requireUser(request).id, request.body),
  });
  r.route({
    ...routeOf(ownBooksApi.update, errors),
    handler: (request) => own.update(requireUser(request).id, request.params.id, request.body),
  });
  r.route({
    ...routeOf(ownBooksApi.remove, errors),
    handler: async (request) => {
      await own.remove(requireUser(request).id, request.params.id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  });
  r.route({
    ...routeOf(ownBooksApi.submit, errors),
    handler: async (request) => {
      await own.submit(requireUser(request).id, request.body.ids);
      return { ok: true as const, message: MSG.ownSubmitted };
    },
  });
  r.route({
    ...routeOf(ownBooksApi.unpublish, errors),
    handler: async (request) => {
      await own.unpublish(requireUser(request).id, request.params.id);
      return { ok: true as const, message: MSG.ownUnpublished };
    },
  });

  r.route({
    ...routeOf(ownVolumesApi.list, errors),
    handler: (request) => own.volumes(editorOf(request), request.params.id),
  });
  r.route({
    ...routeOf(ownVolumesApi.create, errors),
    handler: async (request) => {
      await own.addVolume(editorOf(request), request.params.id, request.body);
      return { ok: true as const, message: MSG.ownVolumeAdded };
    },
  });
  r.route({
    ...routeOf(ownVolumesApi.update, errors),
    handler: async (request) => {
      await own.updateVolume(editorOf(request), request.params.id, request.body);
      return { ok: true as const, message: MSG.ownVolumeChanged };
    },
  });
  r.route({
    ...routeOf(ownVolumesApi.remove, errors),
    handler: async (request) => {
      await own.removeVolume(editorOf(request), request.params.id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  });
  r.route({
    ...routeOf(ownVolumesApi.saveDirectory, errors),
    handler: async (request) => {
      await own.saveDirectory(editorOf(request), request.params.id, request.body.entries);
      return { ok: true as const, message: MSG.directorySaved };
    },
  });
};
