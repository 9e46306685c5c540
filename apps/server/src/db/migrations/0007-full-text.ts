import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { titleSearchKey } from './frozen-title-key.ts';
import { autoIncrementId } from './columns.ts';

/**
 * Full text (DESIGN.md §6): `page_texts` holds the recognised text of every page of a searchable book
 * (visible and published) in reading order, one row per page; the index over it is FTS5 over single
 * characters on SQLite (contentless: the text is kept once, in `page_texts`) and, on PostgreSQL, a
 * `simple` tsvector of single characters (phrases with `<->`) plus pg_trgm on the folded text for
 * queries of three or more characters. `ocr_versions` keeps every OCR result a page has had.
 * Titles are folded again (folding became character by character with a variant table).
 */
export function migration0007(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('page_texts')
        .addColumn('page_id', 'integer', (c) => c.primaryKey().references('pages.id').onDelete('cascade'))
        .addColumn('book_id', 'integer', (c) => c.notNull())
        .addColumn('volume_id', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('page_texts_book_idx')
        .on('page_texts')
        .columns(['book_id', 'page_id'])
        .execute();
      if (dialect === 'sqlite') {
        await sql`create virtual table page_text_fts using fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0')`.execute(
          db,
        );
      } else {
        await sql`alter table page_texts add column folded text not null default ''`.execute(db);
        await sql`alter table page_texts add column tsv tsvector`.execute(db);
        await sql`create index page_texts_tsv_idx on page_texts using gin (tsv)`.execute(db);
        await sql`create index page_texts_trgm_idx on page_texts using gin (folded gin_trgm_ops)`.execute(db);
      }

      await db.schema
        .createTable('ocr_versions')
        .addColumn('id', autoIncrementId(dialect))
        .addColumn('page_id', 'integer', (c) => c.notNull().references('pages.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('ocr_json', 'text', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('ocr_versions_page_version', ['page_id', 'version'])
        .execute();

      const rows = await sql<{ id: number; title: string }>`select id, title from books`.execute(db);
      for (const row of rows.rows) {
        await sql`update books set title_search = ${titleSearchKey(row.title)} where id = ${row.id}`.execute(
          db,
        );
      }
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('ocr_versions').execute();
      if (dialect === 'sqlite') await sql`drop table page_text_fts`.execute(db);
      await db.schema.dropTable('page_texts').execute();
    },
  };
}
