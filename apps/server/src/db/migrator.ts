import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Db, Dialect } from './database.ts';
import { migration0001 } from './migrations/0001-accounts-jobs.ts';
import { migration0002 } from './migrations/0002-catalogue.ts';
import { migration0003 } from './migrations/0003-page-book-index.ts';
import { migration0004 } from './migrations/0004-title-search.ts';
import { migration0005 } from './migrations/0005-visible-books-index.ts';
import { migration0006 } from './migrations/0006-search-covering-indexes.ts';
import { migration0007 } from './migrations/0007-full-text.ts';
import { migration0008 } from './migrations/0008-reading-room-terminals.ts';
import { migration0009 } from './migrations/0009-personal-area.ts';
import { migration0010 } from './migrations/0010-print-orders.ts';
import { migration0011 } from './migrations/0011-own-books.ts';
import { migration0012 } from './migrations/0012-page-bytes.ts';
import { migration0013 } from './migrations/0013-single-images.ts';
import { migration0014 } from './migrations/0014-audit-log.ts';
import { migration0015 } from './migrations/0015-usage-stats.ts';
import { migration0016 } from './migrations/0016-reader-categories.ts';
import { migration0017 } from './migrations/0017-login-throttle.ts';
import { migration0018 } from './migrations/0018-job-request-id.ts';
import { migration0019 } from './migrations/0019-rate-limits.ts';
import { migration0020 } from './migrations/0020-full-text-counts.ts';
import { migration0021 } from './migrations/0021-upload-slots.ts';
import { migration0022 } from './migrations/0022-oai-records.ts';
import { migration0023 } from './migrations/0023-book-notes.ts';
import { migration0024 } from './migrations/0024-api-tokens.ts';
import { migration0025 } from './migrations/0025-refunds.ts';
import { migration0026 } from './migrations/0026-ocr-warnings.ts';
import { migration0027 } from './migrations/0027-text-corrections.ts';

/** Migrations in order. Each takes the dialect so one TypeScript file serves SQLite and PostgreSQL. */
const MIGRATIONS: Record<string, (dialect: Dialect) => Migration> = {
  '0001-accounts-jobs': migration0001,
  '0002-catalogue': migration0002,
  '0003-page-book-index': migration0003,
  '0004-title-search': migration0004,
  '0005-visible-books-index': migration0005,
  '0006-search-covering-indexes': migration0006,
  '0007-full-text': migration0007,
  '0008-reading-room-terminals': migration0008,
  '0009-personal-area': migration0009,
  '0010-print-orders': migration0010,
  '0011-own-books': migration0011,
  '0012-page-bytes': migration0012,
  '0013-single-images': migration0013,
  '0014-audit-log': migration0014,
  '0015-usage-stats': migration0015,
  '0016-reader-categories': migration0016,
  '0017-login-throttle': migration0017,
  '0018-job-request-id': migration0018,
  '0019-rate-limits': migration0019,
  '0020-full-text-counts': migration0020,
  '0021-upload-slots': migration0021,
  '0022-oai-records': migration0022,
  '0023-book-notes': migration0023,
  '0024-api-tokens': migration0024,
  '0025-refunds': migration0025,
  '0026-ocr-warnings': migration0026,
  '0027-text-corrections': migration0027,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(
      Object.fromEntries(Object.entries(MIGRATIONS).map(([name, make]) => [name, make(this.dialect)])),
    );
  }
}

/** The migrations this program knows, oldest first; the last is the schema it writes. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS).sort();

/**
 * Brings the schema up to date, or up to the named migration (a restore builds the schema its backup was
 * taken at, loads the rows, then migrates them on); throws with the failing migration's name.
 */
export async function migrateToLatest(db: Db, dialect: Dialect, upTo?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticProvider(dialect) });
  const { error, results } = upTo ? await migrator.migrateTo(upTo) : await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(
      `Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
      { cause: error },
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
