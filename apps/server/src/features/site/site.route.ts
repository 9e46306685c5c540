import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { siteApi } from '@guji/shared';
import { requireRole } from '../../http/session.ts';
import { routeOf } from '../../http/contract-route.ts';
import type { RouteModule } from '../../http/route-module.ts';

/** Site texts for the footer and the registration form variant. */
export const siteRoutes: RouteModule = (app, { context }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...routeOf(siteApi.get),
    handler: async () => ({
      ...(await context.services.settings.get()),
      scanPay: context.config.paymentProvider !== 'none',
    }),
  });
  r.route({
    ...routeOf(siteApi.update),
    handler: async (request) => {
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
  });
};
