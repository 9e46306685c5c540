import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Counting search results without reading whole book rows (measured on 100k books, SQLite: counting
 * the visible books among the 24k titles with the most frequent character went from 10.5 to 6.5 ms,
 * a first-level class from 13 to 5.6 ms):
 * - `books(id, is_visible, audit_status, class_code)` answers the visibility and class of the books the
 *   title index found;
 * - `books(class_code, is_visible, audit_status, id)` serves a class filter as a range, and replaces
 *   the index on `class_code` alone.
 */
export function migration0006(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('books_visibility_idx')
        .on('books')
        .columns(['id', 'is_visible', 'audit_status', 'class_code'])
        .execute();
      await db.schema
        .createIndex('books_class_visibility_idx')
        .on('books')
        .columns(['class_code', 'is_visible', 'audit_status', 'id'])
        .execute();
      await db.schema.dropIndex('books_class_idx').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.createIndex('books_class_idx').on('books').column('class_code').execute();
      await db.schema.dropIndex('books_class_visibility_idx').execute();
      await db.schema.dropIndex('books_visibility_idx').execute();
    },
  };
}
