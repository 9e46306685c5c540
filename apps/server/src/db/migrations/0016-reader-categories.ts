import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Reader categories (the spec's user flag): '1' ordinary reader, the default; '2' research reader,
 * who may read every published book from anywhere, as in the reading room, until an optional date.
 */
export function migration0016(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('users')
        .addColumn('reader_flag', 'text', (c) => c.notNull().defaultTo('1'))
        .execute();
      await db.schema.alterTable('users').addColumn('flag_expires_at', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('users').dropColumn('flag_expires_at').execute();
      await db.schema.alterTable('users').dropColumn('reader_flag').execute();
    },
  };
}
