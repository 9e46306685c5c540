import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { autoIncrementId } from './columns.ts';

/**
 * The catalogue: classification dictionary, books, volumes, directory entries, page images, reading
 * privileges, and footprints (browsing history).
 */
export function migration0002(dialect: Dialect): Migration {
  const id = autoIncrementId(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('classifications')
        .addColumn('id', id)
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('parent_id', 'integer', (c) => c.references('classifications.id').onDelete('cascade'))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('books')
        .addColumn('id', id)
        .addColumn('source_key', 'text', (c) => c.unique())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('author', 'text')
        .addColumn('publish_dynasty', 'text')
        .addColumn('coverage_dynasty', 'text')
        .addColumn('edition_type', 'text')
        .addColumn('call_number', 'text')
        .addColumn('class_code', 'text')
        .addColumn('is_visible', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('is_open', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('audit_status', 'text', (c) => c.notNull().defaultTo('2'))
        .addColumn('actual_volume', 'integer')
        .addColumn('book_number', 'integer')
        .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('books_title_idx').on('books').column('title').execute();
      await db.schema.createIndex('books_class_idx').on('books').column('class_code').execute();
      await db.schema
        .createIndex('books_views_idx')
        .on('books')
        .columns(['is_visible', 'view_count'])
        .execute();

      await db.schema
        .createTable('volumes')
        .addColumn('id', id)
        .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('introduction', 'text')
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('volumes_book_idx').on('volumes').columns(['book_id', 'sort']).execute();

      await db.schema
        .createTable('pages')
        .addColumn('id', id)
        .addColumn('volume_id', 'integer', (c) => c.notNull().references('volumes.id').onDelete('cascade'))
        .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('master_key', 'text', (c) => c.notNull())
        .addColumn('pyramid_key', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('ocr_json', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('pages_volume_idx')
        .on('pages')
        .columns(['volume_id', 'seq'])
        .unique()
        .execute();

      await db.schema
        .createTable('directories')
        .addColumn('id', id)
        .addColumn('volume_id', 'integer', (c) => c.notNull().references('volumes.id').onDelete('cascade'))
        .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
        .addColumn('parent_id', 'integer', (c) => c.references('directories.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('page_id', 'integer', (c) => c.references('pages.id').onDelete('set null'))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('directories_volume_idx')
        .on('directories')
        .columns(['volume_id', 'sort'])
        .execute();

      await db.schema
        .createTable('book_privileges')
        .addColumn('id', id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
        .addColumn('starts_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('book_privileges_user_idx')
        .on('book_privileges')
        .columns(['user_id', 'book_id'])
        .execute();

      await db.schema
        .createTable('footprints')
        .addColumn('id', id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
        .addColumn('volume_id', 'integer', (c) => c.references('volumes.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('footprints_user_idx')
        .on('footprints')
        .columns(['user_id', 'created_at'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of [
        'footprints',
        'book_privileges',
        'directories',
        'pages',
        'volumes',
        'books',
        'classifications',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
