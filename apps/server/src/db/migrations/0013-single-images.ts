import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Single images (spec §3 isLonely 1): each user's images that belong to no book are kept as the pages
 * of one hidden book of theirs, marked here, so OCR, proofreading and export work on them unchanged.
 */
export function migration0013(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('books')
        .addColumn('is_lonely', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('books').dropColumn('is_lonely').execute();
    },
  };
}
