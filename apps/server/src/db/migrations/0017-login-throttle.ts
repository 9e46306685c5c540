import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Failed logins counted per login name and client address (DESIGN.md §8, issue 13 item 12), instead of
 * per account: five wrong passwords lock the name for that address only, so a stranger cannot lock
 * the owner out. The row whose `client_key` is '*' counts the name's failures from every address (the
 * account-wide slow-down). Unknown names are counted like known ones, so the answers are the same.
 * The old `users.failed_logins` and `users.locked_until` columns are no longer read.
 */
export function migration0017(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('login_failures')
        .addColumn('login_key', 'text', (c) => c.notNull())
        .addColumn('client_key', 'text', (c) => c.notNull())
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('window_started_at', 'text', (c) => c.notNull())
        .addColumn('locked_until', 'text')
        .addPrimaryKeyConstraint('login_failures_pk', ['login_key', 'client_key'])
        .execute();
      await db.schema
        .createIndex('login_failures_window')
        .on('login_failures')
        .column('window_started_at')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('login_failures').execute();
    },
  };
}
