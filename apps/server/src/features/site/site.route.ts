import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PublicSite, SiteSettings, UpdateSiteRequest } from '@guji/shared';
import { requireRole } from '../../http/session.ts';
import type { RouteModule } from '../../http/route-module.ts';

/** Site texts for the footer and the registration form variant. */
export const siteRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/site',
    {
      schema: {
        tags: ['site'],
        summary: 'Site name, footer texts and registration switches',
        response: { 200: PublicSite },
      },
    },
    async () => ({
      ...(await context.services.settings.get()),
      scanPay: context.config.paymentProvider !== 'none',
    }),
  );
  r.put(
    '/api/admin/site',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change site texts and switches (administrators)',
        body: UpdateSiteRequest,
        response: { 200: SiteSettings },
      },
    },
    async (request) => {
      const user = requireRole(request, 'admin');
      const before = await context.services.settings.get();
      const after = await context.services.settings.update(request.body);
      // Only what actually changed (a console form sends every field).
      const changed = (Object.keys(request.body) as Array<keyof typeof before>).filter(
        (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
      );
      // Saving without a change changes nothing, and the log says nothing.
      if (changed.length > 0)
        await context.services.admin.record(
          user.id,
          'site.update',
          'site',
          Object.fromEntries(changed.map((k) => [k, before[k]])),
          Object.fromEntries(changed.map((k) => [k, after[k]])),
        );
      return after;
    },
  );
};
