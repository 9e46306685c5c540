import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { autoIncrementId } from './columns.ts';

/**
 * Readers' corrections of a page's text (issue 32 part 5): characters of one body column as the reader
 * read them, what they should be (null: only flagged as wrong), a note, the box they cover on the image,
 * and the review: status (pending, accepted, refused), who decided and when, the reason of a refusal and
 * the OCR version an accepted correction became. Refused texts are shown to their author only.
 */
export function migration0027(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('text_corrections')
        .addColumn('id', autoIncrementId(dialect))
        .addColumn('page_id', 'integer', (c) => c.notNull().references('pages.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('line', 'integer', (c) => c.notNull())
        .addColumn('start', 'integer', (c) => c.notNull())
        .addColumn('original', 'text', (c) => c.notNull())
        .addColumn('proposed', 'text')
        .addColumn('note', 'text')
        .addColumn('box_json', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reviewer_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('refuse_reason', 'text')
        .addColumn('version', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('decided_at', 'text')
        .execute();
      await db.schema
        .createIndex('text_corrections_status')
        .on('text_corrections')
        .columns(['status', 'created_at'])
        .execute();
      await db.schema
        .createIndex('text_corrections_page')
        .on('text_corrections')
        .columns(['page_id', 'status'])
        .execute();
      await db.schema
        .createIndex('text_corrections_user')
        .on('text_corrections')
        .columns(['user_id', 'created_at'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('text_corrections').execute();
    },
  };
}
