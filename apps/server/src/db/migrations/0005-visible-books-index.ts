import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Visible, published books in id order: browsing the catalogue without a title pages through this
 * index instead of reading every book through the two-valued visibility index and sorting.
 */
export function migration0005(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('books_public_idx')
        .on('books')
        .columns(['is_visible', 'audit_status', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('books_public_idx').execute();
    },
  };
}
