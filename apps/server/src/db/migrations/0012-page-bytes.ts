import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** The stored size of an uploaded page, for users' storage quotas. */
export function migration0012(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('pages').addColumn('file_bytes', 'integer').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('pages').dropColumn('file_bytes').execute();
    },
  };
}
