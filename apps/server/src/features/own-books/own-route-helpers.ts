import type { FastifyRequest } from 'fastify';
import { ErrorBody } from '@guji/shared';
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
