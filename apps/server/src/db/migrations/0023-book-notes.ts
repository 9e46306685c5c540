import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * A book's catalogue notes (附注): the general notes of an imported MARC record (MARC21 500, CNMARC
 * 300), one note a line, written back into the MARCXML export.
 */
export function migration0023(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('books').addColumn('notes', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('books').dropColumn('notes').execute();
    },
  };
}
