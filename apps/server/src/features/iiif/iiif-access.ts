import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { BookRow } from '../../db/schema.ts';
import type { AppError } from '../../errors.ts';
import { addVary } from '../../http/document-origin.ts';
import { accessError } from '../catalog/catalog.service.ts';
import { iiifViewerOf, isCatalogued, restrictedCors } from './iiif-auth.ts';

interface DecideOptions {
  /** Asked only when the rule refuses: whether the answer may still go out publicly. */
  exception?: () => Promise<boolean>;
  /** Whether the book is public, when the caller knows. */
  isPublic?: boolean;
}

/** Headers of an answer anyone may have: any origin, cached a day anywhere. */
function publicAnswer(reply: FastifyReply): void {
  void reply.header('access-control-allow-origin', '*');
  void reply.header('cache-control', 'public, max-age=86400');
}

/**
 * The access rule for every IIIF answer (images, manifests, text layers, search): who may have it, and
 * the CORS and caching headers that go with the decision. Shared by the IIIF route modules.
 */
export function iiifAccess(context: AppContext) {
  const { catalog, iiifAuth } = context.services;
  /**
   * Checks access to a book; sets CORS and caching headers for the answer. `exception` is asked only
   * when the rule refuses, and lets the answer out publicly (a restricted book's cover thumbnail).
   * `isPublic`: the caller already knows whether the book is public (IiifCatalog.imageAccess).
   * The reader is the session's, or an outside viewer's by IIIF Authorization (bearer token, access cookie).
   */
  async function decide(
    request: FastifyRequest,
    reply: FastifyReply,
    book: BookRow,
    /** What a missing resource of this kind answers: a book the catalogue does not show answers it too. */
    missing: AppError,
    options: DecideOptions = {},
  ): Promise<{ refused: AppError | undefined; isPublic: boolean }> {
    const exception = options.exception ?? (() => Promise.resolve(false));
    // A public book's answer is the same for everyone: no session, token or cookie is read for it.
    if (options.isPublic ?? (await catalog.isPublic(book))) {
      publicAnswer(reply);
      return { refused: undefined, isPublic: true };
    }
    const decision = await catalog.mayView(book, await iiifViewerOf(request, iiifAuth));
    const excepted = !decision.allowed && (await exception());
    // A hidden or never-published book does not exist for whoever may not read it (issue 30 item 6:
    // a 401 with its size and login service told strangers it does).
    if (!decision.allowed && !excepted && !isCatalogued(book)) throw missing;
    if (decision.isPublic || excepted) {
      publicAnswer(reply);
    } else {
      restrictedCors(request, reply, iiifAuth);
      void reply.header('cache-control', decision.allowed ? 'private, max-age=3600' : 'private, no-store');
      addVary(reply, 'cookie');
    }
    const refused = decision.allowed || excepted ? undefined : accessError(decision.access);
    return { refused, isPublic: decision.isPublic };
  }

  async function admit(
    request: FastifyRequest,
    reply: FastifyReply,
    book: BookRow,
    missing: AppError,
    options: DecideOptions = {},
  ) {
    const { refused } = await decide(request, reply, book, missing, options);
    if (refused) throw refused;
  }

  /**
   * Manifests and collections: a restricted book the catalogue shows stays readable as metadata by anyone
   * (as its catalogue page is), naming the login services, so an outside viewer can start IIIF Auth; its
   * images and texts stay behind the access rule.
   */
  async function admitMetadata(request: FastifyRequest, reply: FastifyReply, book: BookRow, gone: AppError) {
    const decision = await decide(request, reply, book, gone);
    if (decision.refused && !reply.hasHeader('access-control-allow-origin'))
      void reply.header('access-control-allow-origin', '*');
    return decision;
  }

  return { decide, admit, admitMetadata };
}
