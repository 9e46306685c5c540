import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Own books (spec §3 auditStatus, §4): the reason a review refused a book, and when it was submitted. */
export function migration0011(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('books').addColumn('refuse_reason', 'text').execute();
      await db.schema.alterTable('books').addColumn('submitted_at', 'text').execute();
      await db.schema.createIndex('books_owner_idx').on('books').columns(['owner_id', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('books_owner_idx').execute();
      await db.schema.alterTable('books').dropColumn('submitted_at').execute();
      await db.schema.alterTable('books').dropColumn('refuse_reason').execute();
    },
  };
}
