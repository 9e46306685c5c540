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
    handler: async () => {
      // The SMS provider's sign name and templates are for administrators (GET /api/admin/sms-status).
      const {
        smsSignName: _sign,
        smsTemplateRegister: _register,
        smsTemplateReset: _reset,
        smsTemplateProfile: _profile,
        ...settings
      } = await context.services.settings.get();
      return { ...settings, scanPay: context.config.paymentProvider !== 'none' };
    },
  });
  r.route({
    ...routeOf(siteApi.update),
    handler: (request) => context.services.settings.update(request.body, requireRole(request, 'admin').id),
  });
};
