import type { FastifyReply, FastifyRequest } from 'fastify';
import { documentOrigin } from '../../http/document-origin.ts';
import type { RouteModule } from '../../http/route-module.ts';

/** A harvester's request is a handful of short arguments; anything longer is refused before reading it. */
const MAX_BODY = 8 * 1024;

/**
 * GET and POST /oai: the OAI-PMH 2.0 interface (oai.service.ts). Protocol errors are answered as OAI
 * documents with status 200, as the protocol wants; the arguments are read in the order sent, so that a
 * repeated one is refused. Public data: any origin may read it.
 */
export const oaiRoutes: RouteModule = (app, { context }) => {
  const oai = context.services.oai;

  const answer = async (request: FastifyRequest, reply: FastifyReply, query: string) => {
    const origin = documentOrigin(context.config, request, reply);
    const pairs = [...new URLSearchParams(query)];
    const xml = await oai.respond(pairs, { origin, host: new URL(origin).hostname.replace(/^\[|\]$/g, '') });
    return reply
      .header('content-type', 'text/xml; charset=utf-8')
      .header('access-control-allow-origin', '*')
      .header('cache-control', 'no-store')
      .send(xml);
  };

  app.get('/oai', { schema: { hide: true } }, (request, reply) =>
    answer(request, reply, request.url.split('?')[1] ?? ''),
  );

  // POST with application/x-www-form-urlencoded arguments (§3.1.1.2), in its own scope for the parser.
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: MAX_BODY },
      (_request, body, done) => done(null, body),
    );
    scope.post('/oai', { schema: { hide: true } }, (request, reply) =>
      answer(request, reply, typeof request.body === 'string' ? request.body : ''),
    );
    done();
  });
};
