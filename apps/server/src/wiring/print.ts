import { PrintCartService } from '../features/print/cart.service.ts';
import { CheckoutService } from '../features/print/checkout.service.ts';
import { PrintDeskService } from '../features/print/desk.service.ts';
import { WebhookNotifier } from '../features/print/notifier.ts';
import { createPaymentProvider } from '../features/print/payment-providers.ts';
import { PrintPdf } from '../features/print/print-pdf.ts';
import { PrintRules } from '../features/print/print-rules.ts';
import { RefundService } from '../features/print/refund.service.ts';
import type { CoreServices } from './core.ts';
import type { WiringBase } from './deps.ts';
import type { LibraryServices } from './library.ts';

/** Paper prints of pages: the cart, paying, refunds and the print desk. */
export function printServices(
  { config, repos, clock, secret, storage, transact }: WiringBase,
  { admin, catalog, settings }: CoreServices,
  { downloads }: LibraryServices,
) {
  const rules = new PrintRules(repos.print, repos.payments, repos.catalog, catalog, clock);
  const provider = createPaymentProvider(config, secret);
  const refunds = new RefundService(repos.print, rules, provider, transact, clock);
  const notifiers = config.printNotifyWebhookUrl
    ? [new WebhookNotifier(config.printNotifyWebhookUrl, (message) => console.warn(message))]
    : [];
  return {
    printCart: new PrintCartService({
      print: repos.print,
      catalogRepo: repos.catalog,
      catalog,
      rules,
      auditor: admin,
      transact,
      clock,
    }),
    refunds,
    checkout: new CheckoutService({
      print: repos.print,
      payments: repos.payments,
      rules,
      settings,
      provider,
      refunds,
      notifiers,
      transact,
      clock,
    }),
    printDesk: new PrintDeskService({
      print: repos.print,
      payments: repos.payments,
      rules,
      pdf: new PrintPdf(repos.print, repos.catalog, downloads, settings, storage),
      transact,
      clock,
    }),
  };
}
