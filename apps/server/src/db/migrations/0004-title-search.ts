import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { titleSearchKey } from './frozen-title-key.ts';

/**
 * Title search without scanning every book: `books.title_search` holds the folded title with a space
 * between characters (written by the repository). SQLite indexes it with FTS5 (one token per
 * character, kept in step by triggers); PostgreSQL with a pg_trgm GIN index.
 */
export function migration0004(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('books').addColumn('title_search', 'text').execute();
      const rows = await sql<{ id: number; title: string }>`select id, title from books`.execute(db);
      for (const row of rows.rows) {
        await sql`update books set title_search = ${titleSearchKey(row.title)} where id = ${row.id}`.execute(
          db,
        );
      }
      if (dialect === 'sqlite') {
        await sql`create virtual table books_fts using fts5(title_search, content='books', content_rowid='id', tokenize='unicode61')`.execute(
          db,
        );
        await sql`insert into books_fts(books_fts) values ('rebuild')`.execute(db);
        await sql`create trigger books_fts_insert after insert on books begin
          insert into books_fts(rowid, title_search) values (new.id, new.title_search); end`.execute(db);
        await sql`create trigger books_fts_delete after delete on books begin
          insert into books_fts(books_fts, rowid, title_search) values ('delete', old.id, old.title_search); end`.execute(
          db,
        );
        await sql`create trigger books_fts_update after update of title_search on books begin
          insert into books_fts(books_fts, rowid, title_search) values ('delete', old.id, old.title_search);
          insert into books_fts(rowid, title_search) values (new.id, new.title_search); end`.execute(db);
      } else {
        await sql`create extension if not exists pg_trgm`.execute(db);
        await sql`create index books_title_search_trgm on books using gin (title_search gin_trgm_ops)`.execute(
          db,
        );
      }
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') {
        for (const name of ['books_fts_insert', 'books_fts_delete', 'books_fts_update'])
          await sql`drop trigger ${sql.raw(name)}`.execute(db);
        await sql`drop table books_fts`.execute(db);
      }
      await db.schema.alterTable('books').dropColumn('title_search').execute();
    },
  };
}
