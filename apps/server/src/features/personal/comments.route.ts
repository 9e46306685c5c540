import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireRole, requireUser, viewerOf } from '../../http/session.ts';
import { BookComment, CommentRequest, MSG, MyComment, OkBody, paged } from '@guji/shared';
import type { RouteModule } from '../../http/route-module.ts';
import { errors, IdParams, PageNum } from './route-helpers.ts';

/** Comments on books: the book page’s list, mine, and staff hiding one. */
export const commentRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { personal } = context.services;

  r.get(
    '/api/books/:id/comments',
    {
      schema: {
        tags: ['personal'],
        summary: "A book's comments, newest first, 10 a page",
        params: IdParams,
        querystring: PageNum,
        response: { 200: paged(BookComment), ...errors },
      },
    },
    (request) => personal.bookComments(request.params.id, viewerOf(request), request.query.pageNum),
  );
  r.post(
    '/api/books/:id/comments',
    {
      schema: {
        tags: ['personal'],
        summary: 'Comment on a book (plain text, 1–500 characters)',
        params: IdParams,
        body: CommentRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await personal.addComment(requireUser(request).id, request.params.id, request.body.text);
      return { ok: true as const, message: MSG.commentPosted };
    },
  );
  r.get(
    '/api/me/comments',
    {
      schema: {
        tags: ['personal'],
        summary: 'My comments, 10 a page',
        querystring: PageNum,
        response: { 200: paged(MyComment), ...errors },
      },
    },
    (request) => personal.myComments(requireUser(request).id, request.query.pageNum),
  );
  r.delete(
    '/api/me/comments/:id',
    {
      schema: {
        tags: ['personal'],
        summary: 'Delete one of my comments',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      await personal.deleteComment(requireUser(request).id, request.params.id);
      return { ok: true as const, message: MSG.deleteSuccess };
    },
  );
  r.put(
    '/api/admin/comments/:id/hidden',
    {
      schema: {
        tags: ['admin'],
        summary: 'Hide a comment, or show it again (catalogue staff)',
        params: IdParams,
        body: z.object({ hidden: z.boolean() }),
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const user = requireRole(request, 'catalogAdmin');
      await personal.setCommentHidden(user.id, user.roles, request.params.id, request.body.hidden);
      await context.services.admin.record(
        user.id,
        request.body.hidden ? 'comment.hide' : 'comment.show',
        `comment:${request.params.id}`,
        { hidden: !request.body.hidden },
        { hidden: request.body.hidden },
      );
      return { ok: true as const };
    },
  );
};
