import { CatalogService } from '../features/catalog/catalog.service.ts';
import { AdminService } from '../features/console/admin.service.ts';
import { FullTextService } from '../features/search/full-text.service.ts';
import { SettingsService } from '../features/site/settings.service.ts';
import type { TextIndex } from '../search/text-index.ts';
import type { WiringBase } from './deps.ts';

/** The services most others are built on: the audit log, the site settings, full text, the catalogue. */
export function coreServices({ config, repos, clock, transact }: WiringBase, textIndex: TextIndex) {
  const fullText = new FullTextService(repos.catalog, textIndex, repos.search);
  // The audit log: services that make administrative changes write their records through it.
  const admin = new AdminService(repos.audit, repos.jobs, repos.users, clock, transact);
  const catalog = new CatalogService(repos.catalog, repos.classifications, clock, admin, transact, fullText);
  const settings = new SettingsService(repos.settings, config, admin, transact);
  return { fullText, admin, catalog, settings };
}

export type CoreServices = ReturnType<typeof coreServices>;
