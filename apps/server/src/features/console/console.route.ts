import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { randomInt } from 'node:crypto';
import {
  adminBooksApi,
  adminUsersApi,
  auditApi,
  classDictionaryApi,
  dashboardApi,
  ErrorBody,
  jobsApi,
  type Role,
} from '@guji/shared';
import { badRequest, notFound } from '../../errors.ts';
import { requireRole } from '../../http/session.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { endOfLocalDay, localDay, startOfLocalDay } from '../../lib/local-day.ts';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';

const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** The administration console's job monitor and audit log (administrators). */
export const consoleRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = context.services.admin;
  const classifications = context.services.classifications;

  // Catalogue management (catalogue staff)

  r.route({
    ...routeOf(adminBooksApi.list, errors),
    handler: (request) => {
      requireRole(request, 'catalogAdmin');
      return context.services.catalogAdmin.list(request.query);
    },
  });
  r.route({
    ...routeOf(adminBooksApi.create, { 400: ErrorBody, ...errors }),
    handler: async (request) => {
      const user = requireRole(request, 'catalogAdmin');
      const book = await context.services.catalogAdmin.create(request.body);
      await admin.record(user.id, 'book.create', `book:${book.catalogId}`, null, book);
      return book;
    },
  });
  r.route({
    ...routeOf(adminBooksApi.remove, errors),
    handler: async (request) => {
      const user = requireRole(request, 'catalogAdmin');
      const book = await context.services.catalogAdmin.remove(request.params.id);
      await admin.record(user.id, 'book.delete', `book:${book.catalogId}`, book, null);
      return { ok: true as const, message: '古籍已删除' };
    },
  });

  r.route({
    ...routeOf(dashboardApi.get, errors),
    handler: (request) => {
      requireRole(request, 'admin');
      return context.services.usage.dashboard(request.query.days);
    },
  });
  r.route({
    ...routeOf(jobsApi.list, errors),
    handler: (request) => {
      requireRole(request, 'admin');
      return admin.jobs(request.query);
    },
  });
  r.route({
    ...routeOf(jobsApi.stats, errors),
    handler: (request) => {
      requireRole(request, 'admin');
      return admin.jobStats();
    },
  });
  r.route({
    ...routeOf(jobsApi.retry, errors),
    handler: async (request) => {
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
  });
  r.route({
    ...routeOf(jobsApi.cancel, errors),
    handler: async (request) => {
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
  });
  r.route({
    ...routeOf(auditApi.list, errors),
    handler: (request) => {
      requireRole(request, 'admin');
      return admin.audit(request.query);
    },
  });

  // Users: search, roles, disable, reset password

  const target = async (id: number) => {
    const user = await context.repos.users.findById(id);
    if (!user) throw notFound('用户不存在', 'NOT_FOUND');
    return user;
  };

  r.route({
    ...routeOf(adminUsersApi.list, errors),
    handler: (request) => {
      requireRole(request, 'admin');
      return admin.users(request.query);
    },
  });
  r.route({
    ...routeOf(adminUsersApi.setRoles, errors),
    handler: async (request) => {
      const me = requireRole(request, 'admin');
      const user = await target(request.params.id);
      const roles = [...new Set(request.body.roles)] as Role[];
      if (user.id === me.id && !roles.includes('admin'))
        throw badRequest('SELF_ADMIN', '不能取消自己的管理员角色');
      await context.repos.users.setRoles(user.id, roles);
      await admin.record(me.id, 'user.roles', `user:${user.login_name}`, user.roles, roles);
      return { ok: true as const, message: '角色已保存' };
    },
  });
  r.route({
    ...routeOf(adminUsersApi.setCategory, { 400: ErrorBody, ...errors }),
    handler: async (request) => {
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
  });
  r.route({
    ...routeOf(adminUsersApi.setDisabled, errors),
    handler: async (request) => {
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
  });
  r.route({
    ...routeOf(adminUsersApi.resetPassword, errors),
    handler: async (request) => {
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
  });

  // The classification dictionary (spec §3: name and value; codes are dotted paths, JING.SISHU)

  r.route({
    ...routeOf(classDictionaryApi.create, errors),
    handler: async (request) => {
      const me = requireRole(request, 'catalogAdmin');
      await classifications.create(me.id, request.body);
      return { ok: true as const, message: '分类已添加' };
    },
  });
  r.route({
    ...routeOf(classDictionaryApi.rename, errors),
    handler: async (request) => {
      const me = requireRole(request, 'catalogAdmin');
      await classifications.rename(me.id, request.params.id, request.body.name);
      return { ok: true as const, message: '分类名称已保存' };
    },
  });
  r.route({
    ...routeOf(classDictionaryApi.remove, errors),
    handler: async (request) => {
      const me = requireRole(request, 'catalogAdmin');
      await classifications.remove(me.id, request.params.id);
      return { ok: true as const, message: '分类已删除' };
    },
  });
};
