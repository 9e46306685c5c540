import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminBooksApi,
  adminUsersApi,
  auditApi,
  classDictionaryApi,
  dashboardApi,
  ErrorBody,
  jobsApi,
} from '@guji/shared';
import { requireRole } from '../../http/session.ts';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';

const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * The administration console: catalogue management, dashboard, job monitor, audit log, users and the
 * classification dictionary. The services write each change's audit record in the change's transaction.
 */
export const consoleRoutes: RouteModule = (app, deps) => {
  catalogueRoutes(app, deps);
  userRoutes(app, deps);
  classificationRoutes(app, deps);
};

/** Catalogue management (catalogue staff), the dashboard, the job monitor and the audit log. */
const catalogueRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = context.services.admin;
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
      return context.services.catalogAdmin.create(user.id, request.body);
    },
  });
  r.route({
    ...routeOf(adminBooksApi.remove, errors),
    handler: async (request) => {
      const user = requireRole(request, 'catalogAdmin');
      await context.services.catalogAdmin.remove(user.id, request.params.id);
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
      await admin.retryJob(user.id, request.params.id);
      return { ok: true as const, message: '任务已重新排队' };
    },
  });
  r.route({
    ...routeOf(jobsApi.cancel, errors),
    handler: async (request) => {
      const user = requireRole(request, 'admin');
      await admin.cancelJob(user.id, request.params.id);
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
};

/** Users: search, roles, disable, reset password. */
const userRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = context.services.admin;
  const userAdmin = context.services.userAdmin;
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
      await userAdmin.setRoles(me.id, request.params.id, request.body.roles);
      return { ok: true as const, message: '角色已保存' };
    },
  });
  r.route({
    ...routeOf(adminUsersApi.setCategory, { 400: ErrorBody, ...errors }),
    handler: async (request) => {
      const me = requireRole(request, 'admin');
      await userAdmin.setCategory(me.id, request.params.id, request.body);
      return { ok: true as const, message: '读者类别已保存' };
    },
  });
  r.route({
    ...routeOf(adminUsersApi.setDisabled, errors),
    handler: async (request) => {
      const me = requireRole(request, 'admin');
      await userAdmin.setDisabled(me.id, request.params.id, request.body.disabled);
      return { ok: true as const, message: request.body.disabled ? '已停用' : '已启用' };
    },
  });
  r.route({
    ...routeOf(adminUsersApi.resetPassword, errors),
    handler: async (request) => {
      const me = requireRole(request, 'admin');
      return { password: await userAdmin.resetPassword(me.id, request.params.id) };
    },
  });
};

/** The classification dictionary (spec §3: name and value; codes are dotted paths, JING.SISHU). */
const classificationRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const classifications = context.services.classifications;
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
