import { CatalogAdminService } from '../features/console/catalog-admin.service.ts';
import { ClassificationService } from '../features/console/classification.service.ts';
import { ReadingRoomAddresses } from '../features/console/reading-room-addresses.service.ts';
import { TerminalService } from '../features/console/terminal.service.ts';
import { UsageService } from '../features/console/usage.service.ts';
import { UserAdminService } from '../features/console/user-admin.service.ts';
import { OwnAccess } from '../features/own-books/own-access.ts';
import { OwnBookService } from '../features/own-books/own-book.service.ts';
import { OwnPageService } from '../features/own-books/own-page.service.ts';
import { OwnReviewService } from '../features/own-books/own-review.service.ts';
import type { CoreServices } from './core.ts';
import type { WiringBase } from './deps.ts';
import type { LibraryServices } from './library.ts';

/** The staff's console: catalogue, users, classes, terminals, reading-room addresses, usage figures. */
export function consoleServices(
  { config, repos, clock, transact }: WiringBase,
  { admin, fullText, settings }: CoreServices,
  { ingest }: LibraryServices,
) {
  const timeZone = async () => (await settings.get()).timeZone;
  return {
    terminals: new TerminalService(repos.terminals, clock, admin, transact),
    readingRoom: new ReadingRoomAddresses(repos.settings, config.readingRoomCidrs, admin, transact),
    usage: new UsageService(repos.usage, clock, timeZone),
    catalogAdmin: new CatalogAdminService({
      catalog: repos.catalog,
      classes: repos.classifications,
      users: repos.users,
      fullText,
      ingest,
      auditor: admin,
      transact,
    }),
    /** The console's changes to user accounts (roles, category, disabling, password). */
    userAdmin: new UserAdminService({
      users: repos.users,
      sessions: repos.sessions,
      auditor: admin,
      transact,
      clock,
      timeZone,
    }),
    classifications: new ClassificationService(repos.classifications, admin, transact),
  };
}

/** Readers' own books: uploading, pages, and the staff's review before publication. */
export function ownBookServices(
  { repos, clock, transact }: WiringBase,
  { admin, fullText, settings }: CoreServices,
  { ingest }: LibraryServices,
) {
  const access = new OwnAccess(repos.catalog, repos.users);
  return {
    ownBooks: new OwnBookService({
      ownBooks: repos.ownBooks,
      catalog: repos.catalog,
      access,
      auditor: admin,
      transact,
      ingest,
      fullText,
      clock,
    }),
    ownPages: new OwnPageService({
      ownBooks: repos.ownBooks,
      catalog: repos.catalog,
      access,
      jobs: repos.jobs,
      auditor: admin,
      transact,
      ingest,
      fullText,
      settings,
    }),
    ownReview: new OwnReviewService({
      ownBooks: repos.ownBooks,
      catalog: repos.catalog,
      access,
      auditor: admin,
      transact,
      fullText,
      clock,
    }),
  };
}
