import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AuditEntry, AuditQuery, ErrorBody, JobEntry, JobQuery, JobStats, OkBody, paged } from '@guji/shared';
import { requireRole } from '../../http/session.ts';
import type { RouteModule } from '../types.ts';

const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const IdParams = z.object({ id: z.coerce.number().int().positive() });

/** The administration console's job monitor and audit log (administrators). */
export const consoleRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = context.services.admin;

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
};
