import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

/**
 * Full-text search on PostgreSQL as fast as on SQLite (issue 17, part 2). Before, `tsv` held each folded
 * character with its positions and a 1–2 character query was a `<->` phrase: GIN found the pages holding
 * the characters, then every one had to be rechecked for their order, and the exact count visited every
 * matching row (1.2 s for the most frequent character at ×5 of the poem corpus).
 *
 * Now `tsv` holds each distinct character and each distinct pair of neighbouring characters of the page
 * (`guji_text_grams`), without positions: a 1–2 character query is one lexeme, answered by the GIN index
 * with no recheck. `text_gram_counts` keeps how many pages hold each such gram, kept in step by
 * statement-level triggers on `page_texts` (inserts, updates, deletes, cascades from deleted pages), so the
 * exact count of a 1–2 character query over the whole library is one row. Queries of 3 or more characters
 * keep pg_trgm.
 *
 * SQLite: the FTS5 index is contentless, so a `page_texts` row deleted by a cascade (a book replaced by a
 * new import deletes the old one) left its index row behind, counted in every total; a trigger now deletes
 * it, and the rows left behind so far are removed.
 */
export function migration0020(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'sqlite') {
        await sql`create trigger page_texts_fts_deleted after delete on page_texts begin
          delete from page_text_fts where rowid = old.page_id;
        end`.execute(db);
        await sql`delete from page_text_fts where rowid not in (select page_id from page_texts)`.execute(db);
        return;
      }
      // The distinct characters and neighbouring pairs of a folded text (token characters, no spaces).
      await sql`create function guji_text_grams(folded text) returns text[]
        language sql immutable strict parallel safe as $$
          select coalesce(array_agg(distinct g), '{}') from (
            select substr(folded, i, 1) as g from generate_series(1, length(folded)) as i
            union all
            select substr(folded, i, 2) from generate_series(1, length(folded) - 1) as i
          ) as grams
        $$`.execute(db);
      await sql`create table text_gram_counts (
        gram text collate "C" primary key,
        pages integer not null
      )`.execute(db);
      await sql`update page_texts set tsv = array_to_tsvector(guji_text_grams(folded))`.execute(db);
      await sql`insert into text_gram_counts (gram, pages)
        select lexeme, count(*) from page_texts, unnest(tsvector_to_array(tsv)) as lexeme group by lexeme`.execute(
        db,
      );
      // One function per event: a trigger with transition tables serves one event.
      await sql`create function guji_text_grams_added() returns trigger language plpgsql as $$
        begin
          insert into text_gram_counts (gram, pages)
            select lexeme, count(*) from added, unnest(tsvector_to_array(added.tsv)) as lexeme
            group by lexeme order by lexeme
          on conflict (gram) do update set pages = text_gram_counts.pages + excluded.pages;
          return null;
        end $$`.execute(db);
      await sql`create function guji_text_grams_removed() returns trigger language plpgsql as $$
        begin
          update text_gram_counts c set pages = c.pages - gone.n
            from (select lexeme, count(*) as n from removed, unnest(tsvector_to_array(removed.tsv)) as lexeme
                  group by lexeme) as gone
            where c.gram = gone.lexeme;
          return null;
        end $$`.execute(db);
      await sql`create function guji_text_grams_changed() returns trigger language plpgsql as $$
        begin
          insert into text_gram_counts (gram, pages)
            select lexeme, sum(n) from (
              select lexeme, 1 as n from added, unnest(tsvector_to_array(added.tsv)) as lexeme
              union all
              select lexeme, -1 from removed, unnest(tsvector_to_array(removed.tsv)) as lexeme
            ) as delta
            group by lexeme having sum(n) <> 0 order by lexeme
          on conflict (gram) do update set pages = text_gram_counts.pages + excluded.pages;
          return null;
        end $$`.execute(db);
      await sql`create trigger page_texts_grams_added after insert on page_texts
        referencing new table as added for each statement execute function guji_text_grams_added()`.execute(
        db,
      );
      await sql`create trigger page_texts_grams_removed after delete on page_texts
        referencing old table as removed for each statement execute function guji_text_grams_removed()`.execute(
        db,
      );
      await sql`create trigger page_texts_grams_changed after update on page_texts
        referencing old table as removed new table as added
        for each statement execute function guji_text_grams_changed()`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') {
        await sql`drop trigger page_texts_fts_deleted`.execute(db);
        return;
      }
      for (const name of ['added', 'removed', 'changed'])
        await sql.raw(`drop trigger page_texts_grams_${name} on page_texts`).execute(db);
      for (const name of ['added', 'removed', 'changed'])
        await sql.raw(`drop function guji_text_grams_${name}()`).execute(db);
      await sql`drop table text_gram_counts`.execute(db);
      await sql`drop function guji_text_grams(text)`.execute(db);
      // Back to one token per character with positions.
      await sql`update page_texts set tsv = to_tsvector('simple', regexp_replace(folded, '(.)', '\\1 ', 'g'))`.execute(
        db,
      );
    },
  };
}
