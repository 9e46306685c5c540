import type { FastifyRequest } from 'fastify';
import { ErrorBody, type Contract } from '@guji/shared';
import type { AppContext } from '../../context.ts';
import { routeOf, type ErrorAnswers } from '../../http/contract-route.ts';
import { requireUser } from '../../http/session.ts';
import { isCatalogStaff } from '../catalog/access.ts';
import type { Editor } from './own-access.ts';

/** The own-book routes' error answers. */
export const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  429: ErrorBody,
};

/** The signed-in user as the editor of a book's volumes and pages (catalogue staff: also the library's). */
export function editorOf(request: FastifyRequest): Editor {
  const user = requireUser(request);
  return { id: user.id, catalogStaff: isCatalogStaff(user.roles) };
}

/** Catalogue staff's changes to volumes and pages go to the audit log (owners' own do not). */
export const auditOf =
  (context: AppContext) =>
  async (editor: Editor, action: string, target: string, after: unknown = null): Promise<void> => {
    if (editor.catalogStaff) await context.services.admin.record(editor.id, action, target, null, after);
  };

/** `routeOf` for an upload route: its OpenAPI schema also says it takes a multipart form. */
export function uploadRouteOf<const C extends Contract & { multipart: true }, const E extends ErrorAnswers>(
  c: C,
  answers: E,
) {
  const route = routeOf(c, answers);
  return { ...route, schema: { ...route.schema, consumes: ['multipart/form-data'] } };
}
