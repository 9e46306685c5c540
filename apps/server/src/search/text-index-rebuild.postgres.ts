import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { nowIso } from '../db/database.ts';
import type { BookPages } from './text-index.ts';
import { tokenChars } from './text-index.ts';
import { textGrams } from './text-grams.ts';

/** The one connection a rebuild runs on (its settings, its lock, its transaction). */
type Conn = Db;

/** Memory for building the GIN indexes and counting the grams (PostgreSQL's defaults are 64 MB and 4 MB). */
const BUILD_MEMORY = '512MB';
/** Rows a statement while loading. */
const LOAD_ROWS = 500;

/**
 * A full reindex on PostgreSQL (`reindex`, issue 17): the pages are loaded into a new table with no index
 * and no trigger, its indexes are built once and the gram counts counted once, and the new table then
 * takes the old one's place in one short transaction. Filling the GIN indexes row by row, with the count
 * triggers, took 608 s for the poem corpus (61,554 pages); this takes 297 s (docs/benchmarks.md).
 *
 * Searches keep answering from the old index until the swap. Text changed meanwhile (a page recognised, a
 * book hidden) goes into the old table as usual, and a row trigger notes the page; at the swap those pages
 * are copied from the old table into the new one, so nothing written during the rebuild is lost. Writers
 * wait only for the swap. One rebuild at a time (an advisory lock); a rebuild that fails leaves the index
 * as it was and removes what it made.
 */
export async function rebuildPostgresIndex(
  db: Db,
  books: AsyncIterable<BookPages> | Iterable<BookPages>,
): Promise<number> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(hashtext('guji_text_rebuild'))`.execute(conn);
    try {
      await dropLeftovers(conn);
      await startChangeLog(conn);
      await sql`create table page_texts_next (like page_texts including defaults)`.execute(conn);
      const pages = await load(conn, books);
      await buildIndexes(conn);
      await swap(conn);
      await finish(conn);
      return pages;
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      await dropLeftovers(conn).catch(() => undefined);
      throw error;
    } finally {
      await sql`reset maintenance_work_mem`.execute(conn).catch(() => undefined);
      await sql`reset work_mem`.execute(conn).catch(() => undefined);
      await sql`select pg_advisory_unlock(hashtext('guji_text_rebuild'))`
        .execute(conn)
        .catch(() => undefined);
    }
  });
}

/** What an interrupted rebuild left: the new tables, the change log and its trigger. */
async function dropLeftovers(conn: Conn): Promise<void> {
  await sql`drop trigger if exists page_texts_changes_logged on page_texts`.execute(conn);
  await sql`drop table if exists page_texts_next, text_gram_counts_next, page_texts_changes`.execute(conn);
  await sql`drop function if exists guji_text_changes_log()`.execute(conn);
}

/** From now on every page whose index row is written, by whatever statement, is noted. */
async function startChangeLog(conn: Conn): Promise<void> {
  await sql`create table page_texts_changes (page_id integer primary key)`.execute(conn);
  await sql`create function guji_text_changes_log() returns trigger language plpgsql as $$
    begin
      insert into page_texts_changes (page_id) values (coalesce(new.page_id, old.page_id))
        on conflict do nothing;
      return null;
    end $$`.execute(conn);
  await sql`create trigger page_texts_changes_logged after insert or update or delete on page_texts
    for each row execute function guji_text_changes_log()`.execute(conn);
}

async function load(conn: Conn, books: AsyncIterable<BookPages> | Iterable<BookPages>): Promise<number> {
  const now = nowIso();
  let count = 0;
  for await (const book of books) {
    const rows = book.pages
      .map((page) => ({ page, tokens: tokenChars(page.text) }))
      .filter((row) => row.tokens.length > 0);
    for (let i = 0; i < rows.length; i += LOAD_ROWS) {
      const values = rows.slice(i, i + LOAD_ROWS).map(
        ({ page, tokens }) =>
          sql`(${page.pageId}, ${page.bookId}, ${page.volumeId}, ${page.text}, ${now}, ${tokens.join('')},
            array_to_tsvector(${textGrams(tokens)}::text[]))`,
      );
      await sql`insert into page_texts_next (page_id, book_id, volume_id, text, updated_at, folded, tsv)
        values ${sql.join(values)}`.execute(conn);
    }
    count += rows.length;
  }
  return count;
}

/** The indexes of migrations 0007 and 0020, and the gram counts, each made in one pass. */
async function buildIndexes(conn: Conn): Promise<void> {
  await sql.raw(`set maintenance_work_mem = '${BUILD_MEMORY}'`).execute(conn);
  await sql.raw(`set work_mem = '${BUILD_MEMORY}'`).execute(conn);
  await sql`alter table page_texts_next add primary key (page_id)`.execute(conn);
  await sql`create index page_texts_next_book_idx on page_texts_next (book_id, page_id)`.execute(conn);
  await sql`create index page_texts_next_tsv_idx on page_texts_next using gin (tsv)`.execute(conn);
  await sql`create index page_texts_next_trgm_idx on page_texts_next using gin (folded gin_trgm_ops)`.execute(
    conn,
  );
  // Like the live tables, so that the names of their constraints carry over too.
  await sql`create table text_gram_counts_next (like text_gram_counts including all)`.execute(conn);
  await sql`insert into text_gram_counts_next (gram, pages)
    select lexeme, count(*) from page_texts_next, unnest(tsvector_to_array(tsv)) as lexeme group by lexeme`.execute(
    conn,
  );
}

/**
 * The new table takes the old one's name, indexes, triggers and foreign key, after the pages written
 * meanwhile are copied over from the old one. Readers go on until the old table is dropped; writers wait.
 */
async function swap(conn: Conn): Promise<void> {
  await sql`begin`.execute(conn);
  await sql`lock table page_texts in exclusive mode`.execute(conn);
  await sql`drop table text_gram_counts`.execute(conn);
  await sql`alter table text_gram_counts_next rename to text_gram_counts`.execute(conn);
  await sql`alter index text_gram_counts_next_pkey rename to text_gram_counts_pkey`.execute(conn);
  // The count triggers (migration 0020) first, so that the copied pages are counted.
  await sql`create trigger page_texts_grams_added after insert on page_texts_next
    referencing new table as added for each statement execute function guji_text_grams_added()`.execute(conn);
  await sql`create trigger page_texts_grams_removed after delete on page_texts_next
    referencing old table as removed for each statement execute function guji_text_grams_removed()`.execute(
    conn,
  );
  await sql`create trigger page_texts_grams_changed after update on page_texts_next
    referencing old table as removed new table as added
    for each statement execute function guji_text_grams_changed()`.execute(conn);
  await sql`delete from page_texts_next n using page_texts_changes c where n.page_id = c.page_id`.execute(
    conn,
  );
  await sql`insert into page_texts_next (page_id, book_id, volume_id, text, updated_at, folded, tsv)
    select t.page_id, t.book_id, t.volume_id, t.text, t.updated_at, t.folded, t.tsv
    from page_texts t join page_texts_changes c on c.page_id = t.page_id`.execute(conn);
  await sql`drop table page_texts`.execute(conn);
  await sql`alter table page_texts_next rename to page_texts`.execute(conn);
  for (const suffix of ['pkey', 'book_idx', 'tsv_idx', 'trgm_idx'])
    await sql.raw(`alter index page_texts_next_${suffix} rename to page_texts_${suffix}`).execute(conn);
  // Checked below, outside the transaction, so that readers are not held up by the check.
  await sql`alter table page_texts add constraint page_texts_page_id_fkey
    foreign key (page_id) references pages (id) on delete cascade not valid`.execute(conn);
  await sql`commit`.execute(conn);
}

/** Rows of pages deleted while loading (before the foreign key held) go; the key is then checked. */
async function finish(conn: Conn): Promise<void> {
  await sql`delete from page_texts t where not exists (select 1 from pages p where p.id = t.page_id)`.execute(
    conn,
  );
  await sql`alter table page_texts validate constraint page_texts_page_id_fkey`.execute(conn);
  await sql`drop table page_texts_changes`.execute(conn);
  await sql`drop function guji_text_changes_log()`.execute(conn);
  await sql`analyze page_texts`.execute(conn);
}
