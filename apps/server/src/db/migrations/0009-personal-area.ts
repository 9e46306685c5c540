import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { autoIncrementId } from './columns.ts';

/**
 * The personal area (spec §2 personal channels, §3 Reservation): collections, downloads, comments,
 * notes drawn on pages, the last page of each footprint, reservations with their review, the
 * reservation durations dictionary, and the reservation a privilege came from.
 */
export function migration0009(dialect: Dialect): Migration {
  const id = autoIncrementId(dialect);
  const user = (c: ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade');
  const book = (c: ColumnDefinitionBuilder) => c.notNull().references('books.id').onDelete('cascade');
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('collections')
        .addColumn('id', id)
        .addColumn('user_id', 'integer', user)
        .addColumn('book_id', 'integer', book)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('collections_user_book_unique', ['user_id', 'book_id'])
        .execute();

      await db.schema
        .createTable('downloads')
        .addColumn('id', id)
        .addColumn('user_id', 'integer', user)
        .addColumn('book_id', 'integer', book)
        .addColumn('volume_id', 'integer', (c) => c.notNull().references('volumes.id').onDelete('cascade'))
        .addColumn('page_id', 'integer', (c) => c.references('pages.id').onDelete('cascade'))
        /** `image` (a page as JPEG), `text` (a page's OCR text), `pdf` (a whole volume). */
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('downloads_user_idx').on('downloads').columns(['user_id', 'id']).execute();

      await db.schema
        .createTable('comments')
        .addColumn('id', id)
        .addColumn('user_id', 'integer', user)
        .addColumn('book_id', 'integer', book)
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('hidden_at', 'text')
        .addColumn('hidden_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('comments_book_idx').on('comments').columns(['book_id', 'id']).execute();
      await db.schema.createIndex('comments_user_idx').on('comments').columns(['user_id', 'id']).execute();

      await db.schema
        .createTable('notes')
        .addColumn('id', id)
        .addColumn('user_id', 'integer', user)
        .addColumn('book_id', 'integer', book)
        .addColumn('page_id', 'integer', (c) => c.notNull().references('pages.id').onDelete('cascade'))
        /** The rectangle on the page image, in the image's pixels. */
        .addColumn('x', 'integer', (c) => c.notNull())
        .addColumn('y', 'integer', (c) => c.notNull())
        .addColumn('w', 'integer', (c) => c.notNull())
        .addColumn('h', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('notes_user_idx').on('notes').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('notes_page_idx').on('notes').columns(['page_id', 'user_id']).execute();

      await db.schema
        .alterTable('footprints')
        .addColumn('page_id', 'integer', (c) => c.references('pages.id').onDelete('set null'))
        .execute();

      await db.schema
        .createTable('reservation_durations')
        .addColumn('code', 'text', (c) => c.primaryKey())
        .addColumn('label', 'text', (c) => c.notNull())
        /** 0: until the end of the day of approval; n: n days after approval, to the end of that day. */
        .addColumn('days', 'integer', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull())
        .execute();
      // The spec's two durations (§3, §9); administrators may change labels and days.
      await sql`insert into reservation_durations (code, label, days, sort) values
        ('ANB0401', '当日', 0, 1), ('ANB0402', '七日', 7, 2)`.execute(db);

      await db.schema
        .createTable('reservations')
        .addColumn('id', id)
        .addColumn('user_id', 'integer', user)
        .addColumn('book_id', 'integer', book)
        .addColumn('call_number', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('duration_code', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        /** 0 unaudited, 1 under review, 2 passed, 4 refused, 5 withdrawn (spec §4). */
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('refuse_reason', 'text')
        .addColumn('reviewer_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .execute();
      await db.schema
        .createIndex('reservations_user_idx')
        .on('reservations')
        .columns(['user_id', 'id'])
        .execute();
      await db.schema
        .createIndex('reservations_status_idx')
        .on('reservations')
        .columns(['status', 'id'])
        .execute();

      await db.schema
        .alterTable('book_privileges')
        .addColumn('reservation_id', 'integer', (c) => c.references('reservations.id').onDelete('cascade'))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('book_privileges').dropColumn('reservation_id').execute();
      await db.schema.alterTable('footprints').dropColumn('page_id').execute();
      for (const table of [
        'reservations',
        'reservation_durations',
        'notes',
        'comments',
        'downloads',
        'collections',
      ])
        await db.schema.dropTable(table).execute();
    },
  };
}
