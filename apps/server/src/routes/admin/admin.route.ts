import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, SmsOutboxEntry } from '@guji/shared';
import { requireRole } from '../../http/session.ts';
import type { RouteModule } from '../types.ts';

/** Administrator tools of the account system. */
export const adminRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/admin/sms-outbox',
    {
      schema: {
        tags: ['admin'],
        summary: 'Messages the development SMS provider would have sent (administrators)',
        querystring: z.object({
          phone: z.string().max(20).optional(),
          limit: z.coerce.number().int().min(1).max(200).default(50),
        }),
        response: { 200: z.object({ records: z.array(SmsOutboxEntry) }), 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => {
      requireRole(request, 'admin');
      const rows = await context.repos.sms.listOutbox(request.query.phone, request.query.limit);
      return {
        records: rows.map((row) => ({
          id: row.id,
          phone: row.phone,
          text: row.text,
          createdAt: row.created_at,
        })),
      };
    },
  );
};
