import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Request counts of the rate limits (login, registration, codes, captchas) in the database instead of each
 * process's memory (issue 17: several processes, one truth): behind a proxy that spreads requests over
 * two `serve` processes, a guesser gets the limit once, not once per process.
 */
export function migration0019(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('hits', 'integer', (c) => c.notNull())
        // Milliseconds since 1970 when the window ends.
        .addColumn('window_ends', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('rate_limits_window_ends')
        .on('rate_limits')
        .column('window_ends')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('rate_limits').execute();
    },
  };
}
