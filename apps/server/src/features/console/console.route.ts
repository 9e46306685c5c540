import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { randomInt } from 'node:crypto';
import {
  AdminBook,
  AdminBookQuery,
  AdminUser,
  CreateBookRequest,
  AuditEntry,
  AuditQuery,
  CreateClassRequest,
  Dashboard,
  DashboardQuery,
  ErrorBody,
  RenameClassRequest,
  SetReaderCategoryRequest,
  JobEntry,
  JobQuery,
  JobStats,
  OkBody,
  paged,
  ROLES,
  UserQuery,
  type Role,
} from '@guji/shared';
import { badRequest, notFound } from '../../errors.ts';
import { requireRole } from '../../http/session.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { endOfLocalDay, localDay, startOfLocalDay } from '../../lib/local-day.ts';
import type { RouteModule } from '../../http/route-module.ts';

const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const IdParams = z.object({ id: z.coerce.number().int().positive() });

/** The administration console's job monitor and audit log (administrators). */
export const consoleRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = context.services.admin;
  const classifications = context.services.classifications;

  // Catalogue management (catalogue staff)

  r.get(
    '/api/admin/books',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Every book of the catalogue, hidden ones too, 10 a page, newest first; by title or call number and state',
        querystring: AdminBookQuery,
        response: { 200: paged(AdminBook), ...errors },
      },
    },
    (request) => {
      requireRole(request, 'catalogAdmin');
      return context.services.catalogAdmin.list(request.query);
    },
  );
  r.post(
    '/api/admin/books',
    {
      schema: {
        tags: ['admin'],
        summary: 'Catalogue a new book of the library (volumes and pages are added afterwards)',
        body: CreateBookRequest,
        response: { 200: AdminBook, 400: ErrorBody, ...errors },
      },
    },
    async (request) => {
      const user = requireRole(request, 'catalogAdmin');
      const book = await context.services.catalogAdmin.create(request.body);
      await admin.record(user.id, 'book.create', `book:${book.catalogId}`, null, book);
      return book;
    },
  );
  r.delete(
    '/api/admin/books/:id',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Delete a book with its volumes and pages; refused (409) while readers have collections, notes, comments, reservations or prints of it',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const user = requireRole(request, 'catalogAdmin');
      const book = await context.services.catalogAdmin.remove(request.params.id);
      await admin.record(user.id, 'book.delete', `book:${book.catalogId}`, book, null);
      return { ok: true as const, message: '古籍已删除' };
    },
  );

  r.get(
    '/api/admin/dashboard',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Per-day readers, page views, book openings, searches, registrations, orders, revenue and OCR pages',
        querystring: DashboardQuery,
        response: { 200: Dashboard, ...errors },
      },
    },
    (request) => {
      requireRole(request, 'admin');
      return context.services.usage.dashboard(request.query.days);
    },
  );
  r.get(
    '/api/admin/jobs',
    {
      schema: {
        tags: ['admin'],
        summary: 'Jobs, newest first, 20 a page, by status',
        querystring: JobQuery,
        response: { 200: paged(JobEntry), ...errors },
      },
    },
    (request) => {
      requireRole(request, 'admin');
      return admin.jobs(request.query);
    },
  );
  r.get(
    '/api/admin/jobs/stats',
    {
      schema: {
        tags: ['admin'],
        summary: 'Jobs by status, and finished in the last hour by name',
        response: { 200: JobStats, ...errors },
      },
    },
    (request) => {
      requireRole(request, 'admin');
      return admin.jobStats();
    },
  );
  r.post(
    '/api/admin/jobs/:id/retry',
    {
      schema: {
        tags: ['admin'],
        summary: 'Run a failed job again',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const user = requireRole(request, 'admin');
      await admin.retryJob(request.params.id);
      await admin.record(
        user.id,
        'job.retry',
        `job:${request.params.id}`,
        { status: 'failed' },
        { status: 'queued' },
      );
      return { ok: true as const, message: '任务已重新排队' };
    },
  );
  r.post(
    '/api/admin/jobs/:id/cancel',
    {
      schema: {
        tags: ['admin'],
        summary: 'Cancel a queued job',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const user = requireRole(request, 'admin');
      await admin.cancelJob(request.params.id);
      await admin.record(
        user.id,
        'job.cancel',
        `job:${request.params.id}`,
        { status: 'queued' },
        { status: 'failed' },
      );
      return { ok: true as const, message: '任务已取消' };
    },
  );
  r.get(
    '/api/admin/audit',
    {
      schema: {
        tags: ['admin'],
        summary: 'Audit log of administrative changes, newest first, 20 a page',
        querystring: AuditQuery,
        response: { 200: paged(AuditEntry), ...errors },
      },
    },
    (request) => {
      requireRole(request, 'admin');
      return admin.audit(request.query);
    },
  );

  // Users: search, roles, disable, reset password

  const target = async (id: number) => {
    const user = await context.repos.users.findById(id);
    if (!user) throw notFound('用户不存在', 'NOT_FOUND');
    return user;
  };

  r.get(
    '/api/admin/users',
    {
      schema: {
        tags: ['admin'],
        summary: 'Users by login name, nickname, real name, phone or email, 20 a page',
        querystring: UserQuery,
        response: { 200: paged(AdminUser), ...errors },
      },
    },
    (request) => {
      requireRole(request, 'admin');
      return admin.users(request.query);
    },
  );
  r.put(
    '/api/admin/users/:id/roles',
    {
      schema: {
        tags: ['admin'],
        summary: "A user's roles (an administrator cannot take the administrator role from themselves)",
        params: IdParams,
        body: z.object({
          roles: z.array(z.enum(ROLES)).min(1, '至少保留一个角色').max(ROLES.length, '角色重复或过多'),
        }),
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const me = requireRole(request, 'admin');
      const user = await target(request.params.id);
      const roles = [...new Set(request.body.roles)] as Role[];
      if (user.id === me.id && !roles.includes('admin'))
        throw badRequest('SELF_ADMIN', '不能取消自己的管理员角色');
      await context.repos.users.setRoles(user.id, roles);
      await admin.record(me.id, 'user.roles', `user:${user.login_name}`, user.roles, roles);
      return { ok: true as const, message: '角色已保存' };
    },
  );
  r.put(
    '/api/admin/users/:id/category',
    {
      schema: {
        tags: ['admin'],
        summary:
          "A user's reader category (spec user flag): '1' ordinary, '2' research reader (reads every published book remotely) until an optional last day",
        params: IdParams,
        body: SetReaderCategoryRequest,
        response: { 200: OkBody, 400: ErrorBody, ...errors },
      },
    },
    async (request) => {
      const me = requireRole(request, 'admin');
      const user = await target(request.params.id);
      const { flag, lastDay } = request.body;
      let expires: string | null = null;
      if (flag === '2' && lastDay !== null) {
        const timeZone = (await context.services.settings.get()).timeZone;
        const now = context.clock.now();
        if (lastDay < localDay(now, timeZone)) throw badRequest('FLAG_PAST', '截止日期不能早于今天');
        expires = endOfLocalDay(startOfLocalDay(lastDay, timeZone), timeZone).toISOString();
      }
      await context.repos.users.update(user.id, { reader_flag: flag, flag_expires_at: expires });
      await admin.record(
        me.id,
        'user.category',
        `user:${user.login_name}`,
        { flag: user.reader_flag, expiresAt: user.flag_expires_at },
        { flag, expiresAt: expires },
      );
      return { ok: true as const, message: '读者类别已保存' };
    },
  );
  r.post(
    '/api/admin/users/:id/disable',
    {
      schema: {
        tags: ['admin'],
        summary: 'Disable (its sessions end at once) or enable a user',
        params: IdParams,
        body: z.object({ disabled: z.boolean() }),
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const me = requireRole(request, 'admin');
      const user = await target(request.params.id);
      if (user.id === me.id) throw badRequest('SELF_DISABLE', '不能停用自己的账号');
      await context.repos.users.update(user.id, { disabled: request.body.disabled ? 1 : 0 });
      if (request.body.disabled) await context.repos.sessions.revokeAllForUser(user.id);
      await admin.record(
        me.id,
        request.body.disabled ? 'user.disable' : 'user.enable',
        `user:${user.login_name}`,
        { disabled: user.disabled === 1 },
        { disabled: request.body.disabled },
      );
      return { ok: true as const, message: request.body.disabled ? '已停用' : '已启用' };
    },
  );
  r.post(
    '/api/admin/users/:id/reset-password',
    {
      schema: {
        tags: ['admin'],
        summary: 'A new temporary password (shown once; every session of the user ends)',
        params: IdParams,
        response: { 200: z.object({ password: z.string() }), ...errors },
      },
    },
    async (request) => {
      const me = requireRole(request, 'admin');
      const user = await target(request.params.id);
      // Letters, digits and a sign: meets the password rule; the user changes it after logging in.
      const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz';
      const pick = (set: string, n: number) =>
        Array.from({ length: n }, () => set[randomInt(set.length)]).join('');
      const password = `${pick(letters, 6)}${pick('23456789', 4)}#${pick(letters, 1)}`;
      await context.repos.users.update(user.id, {
        password_hash: await hashPassword(password),
        failed_logins: 0,
        locked_until: null,
      });
      await context.repos.users.clearLoginFailures(user.login_name);
      await context.repos.sessions.revokeAllForUser(user.id);
      await admin.record(me.id, 'user.reset-password', `user:${user.login_name}`, null, null);
      return { password };
    },
  );

  // The classification dictionary (spec §3: name and value; codes are dotted paths, JING.SISHU)

  r.post(
    '/api/admin/classifications',
    {
      schema: {
        tags: ['admin'],
        summary: 'Add a classification (its code extends its parent’s)',
        body: CreateClassRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const me = requireRole(request, 'catalogAdmin');
      await classifications.create(me.id, request.body);
      return { ok: true as const, message: '分类已添加' };
    },
  );
  r.put(
    '/api/admin/classifications/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Rename a classification (its code stays: books refer to it)',
        params: IdParams,
        body: RenameClassRequest,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const me = requireRole(request, 'catalogAdmin');
      await classifications.rename(me.id, request.params.id, request.body.name);
      return { ok: true as const, message: '分类名称已保存' };
    },
  );
  r.delete(
    '/api/admin/classifications/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Delete a classification no book uses (nor its sub-classes)',
        params: IdParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (request) => {
      const me = requireRole(request, 'catalogAdmin');
      await classifications.remove(me.id, request.params.id);
      return { ok: true as const, message: '分类已删除' };
    },
  );
};
