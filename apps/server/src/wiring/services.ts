import type { SmsProvider } from '../features/accounts/sms.service.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { TextIndex } from '../search/text-index.ts';
import { accountServices } from './accounts.ts';
import { consoleServices, ownBookServices } from './console.ts';
import { coreServices } from './core.ts';
import type { WiringBase } from './deps.ts';
import { libraryServices } from './library.ts';
import { printServices } from './print.ts';

/**
 * Every service of the application, built once per context in dependency order: the core (audit log,
 * settings, full text, catalogue), then accounts, the library, the console, readers' own books, prints.
 * Services are made here and nowhere else; routes get them from `context.services`.
 */
export function createServices(
  base: WiringBase,
  textIndex: TextIndex,
  queue: JobQueue,
  smsProvider: SmsProvider | undefined,
) {
  const core = coreServices(base, textIndex);
  const library = libraryServices(base, core, queue);
  return {
    ...core,
    ...accountServices(base, core, smsProvider),
    ...library,
    ...consoleServices(base, core, library),
    ...ownBookServices(base, core, library),
    ...printServices(base, core, library),
  };
}

export type AppServices = ReturnType<typeof createServices>;
