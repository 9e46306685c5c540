import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { correctionsApi, ErrorBody } from '@guji/shared';
import { routeOf } from '../../http/contract-route.ts';
import { viewerOf } from '../../http/session.ts';
import type { RouteModule } from '../../http/route-module.ts';
import { writeLimit } from '../../http/write-limit.ts';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  429: ErrorBody,
};

/** Readers' corrections of a page's text and the catalogue staff's queue of them (issue 32). */
export const correctionRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const corrections = context.services.corrections;

  r.route({
    ...routeOf(correctionsApi.propose, errors, writeLimit(context.config.writeRateLimitPerMinute)),
    handler: async (request) => corrections.propose(request.params.imageId, request.body, viewerOf(request)),
  });

  r.route({
    ...routeOf(correctionsApi.mine, errors),
    handler: async (request) => ({
      records: await corrections.mine(request.params.imageId, viewerOf(request)),
    }),
  });

  r.route({
    ...routeOf(correctionsApi.queue, errors),
    handler: async (request) => corrections.queue(request.query, viewerOf(request)),
  });

  r.route({
    ...routeOf(correctionsApi.accept, errors),
    handler: async (request) => corrections.accept(request.params.id, viewerOf(request)),
  });

  r.route({
    ...routeOf(correctionsApi.refuse, errors),
    handler: async (request) => corrections.refuse(request.params.id, request.body.reason, viewerOf(request)),
  });
};
