import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

/**
 * What the OAI-PMH interface (/oai) has shown a harvester, kept by the database itself: one row per book
 * that has ever been in the public catalogue (visible and published), with the time its record last changed
 * and whether it has since been hidden, withdrawn or deleted. Triggers on `books` and `volumes` keep it, so
 * every path that changes a book (console, import, review of own books, deletion) is tracked without the
 * code remembering to, and a deleted book's row outlives it (the protocol's "persistent" deleted records).
 *
 * The datestamp is the database's clock in UTC, to the second (the granularity /oai declares). A book
 * that was never public has no row: a harvester never learns it existed.
 */
const PUBLIC = (row: 'new' | 'old') => `${row}.is_visible = 1 and ${row}.audit_status = '2'`;
/** The columns an OAI record shows; a change of another (view counts, review notes) is no new record. */
const SHOWN = [
  'title',
  'author',
  'publish_dynasty',
  'coverage_dynasty',
  'edition_type',
  'call_number',
  'class_code',
  'actual_volume',
  'book_number',
  'is_open',
];
const CHANGED = SHOWN.map((c) => `new.${c} is distinct from old.${c}`).join(' or ');

export function migration0022(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('oai_records')
        .addColumn('book_id', 'integer', (c) => c.primaryKey())
        // ISO 8601 UTC to the second: 2026-11-26T08:00:00Z (text compares in time order).
        .addColumn('datestamp', 'text', (c) => c.notNull())
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        // The book's classification when last shown: a deleted record stays in its set.
        .addColumn('class_code', 'text')
        .execute();
      await db.schema
        .createIndex('oai_records_datestamp')
        .on('oai_records')
        .columns(['datestamp', 'book_id'])
        .execute();
      if (dialect === 'sqlite') await sqliteTriggers(db);
      else await postgresTriggers(db);
      const now = dialect === 'sqlite' ? SQLITE_NOW : POSTGRES_NOW;
      await sql
        .raw(
          `insert into oai_records (book_id, datestamp, deleted, class_code)
           select id, ${now}, 0, class_code from books where ${PUBLIC('new').replaceAll('new.', '')}`,
        )
        .execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') {
        for (const name of ['books_oai_insert', 'books_oai_update', 'books_oai_delete', ...VOLUME_TRIGGERS])
          await sql.raw(`drop trigger if exists ${name}`).execute(db);
      } else {
        await sql`drop trigger if exists books_oai on books`.execute(db);
        await sql`drop trigger if exists volumes_oai on volumes`.execute(db);
        await sql`drop function if exists guji_oai_books()`.execute(db);
        await sql`drop function if exists guji_oai_volumes()`.execute(db);
      }
      await db.schema.dropTable('oai_records').execute();
    },
  };
}

const VOLUME_TRIGGERS = ['volumes_oai_insert', 'volumes_oai_delete', 'volumes_oai_update'];
const SQLITE_NOW = `strftime('%Y-%m-%dT%H:%M:%SZ', 'now')`;
const POSTGRES_NOW = `to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

async function sqliteTriggers(db: Kysely<unknown>) {
  const shown = (row: 'new') => `insert into oai_records (book_id, datestamp, deleted, class_code)
    select ${row}.id, ${SQLITE_NOW}, 0, ${row}.class_code where ${PUBLIC(row)}
    on conflict (book_id) do update set datestamp = excluded.datestamp, deleted = 0, class_code = excluded.class_code;`;
  await sql
    .raw(`create trigger books_oai_insert after insert on books begin ${shown('new')} end`)
    .execute(db);
  // SQLite's `is distinct from` is `is not`.
  const changed = CHANGED.replaceAll('is distinct from', 'is not');
  await sql
    .raw(
      `create trigger books_oai_update after update on books begin
        insert into oai_records (book_id, datestamp, deleted, class_code)
          select new.id, ${SQLITE_NOW}, 0, new.class_code
          where ${PUBLIC('new')} and (${changed}
            or not exists (select 1 from oai_records where book_id = new.id and deleted = 0))
          on conflict (book_id) do update
            set datestamp = excluded.datestamp, deleted = 0, class_code = excluded.class_code;
        update oai_records set deleted = 1, datestamp = ${SQLITE_NOW}
          where book_id = new.id and deleted = 0 and not (${PUBLIC('new')});
      end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger books_oai_delete after delete on books begin
        update oai_records set deleted = 1, datestamp = ${SQLITE_NOW} where book_id = old.id and deleted = 0;
      end`,
    )
    .execute(db);
  // A record lists its volumes (their IIIF manifests): a volume added, renamed or removed changes it.
  for (const [event, row] of [
    ['insert', 'new'],
    ['delete', 'old'],
    ['update of name, sort', 'new'],
  ] as const) {
    const name = `volumes_oai_${event.split(' ')[0]}`;
    await sql
      .raw(
        `create trigger ${name} after ${event} on volumes begin
          update oai_records set datestamp = ${SQLITE_NOW} where book_id = ${row}.book_id and deleted = 0;
        end`,
      )
      .execute(db);
  }
}

/**
 * A restore (backup/backup.ts) sets `guji.restore` for its transaction: the rows it inserts are the backup's,
 * and `oai_records` comes back from the backup as it was, so the triggers stand aside.
 */
async function postgresTriggers(db: Kysely<unknown>) {
  const restoring = `coalesce(current_setting('guji.restore', true), '') = 'on'`;
  await sql
    .raw(
      `create function guji_oai_books() returns trigger language plpgsql as $$
        begin
          if ${restoring} then return null; end if;
          if tg_op = 'DELETE' then
            update oai_records set deleted = 1, datestamp = ${POSTGRES_NOW} where book_id = old.id and deleted = 0;
            return null;
          end if;
          if ${PUBLIC('new')} then
            if tg_op = 'INSERT' or (${CHANGED})
              or not exists (select 1 from oai_records where book_id = new.id and deleted = 0) then
              insert into oai_records (book_id, datestamp, deleted, class_code)
                values (new.id, ${POSTGRES_NOW}, 0, new.class_code)
                on conflict (book_id) do update
                  set datestamp = excluded.datestamp, deleted = 0, class_code = excluded.class_code;
            end if;
          else
            update oai_records set deleted = 1, datestamp = ${POSTGRES_NOW} where book_id = new.id and deleted = 0;
          end if;
          return null;
        end $$`,
    )
    .execute(db);
  await sql`create trigger books_oai after insert or update or delete on books
    for each row execute function guji_oai_books()`.execute(db);
  await sql
    .raw(
      `create function guji_oai_volumes() returns trigger language plpgsql as $$
        begin
          if ${restoring} then return null; end if;
          update oai_records set datestamp = ${POSTGRES_NOW}
            where book_id = (case when tg_op = 'DELETE' then old.book_id else new.book_id end) and deleted = 0;
          return null;
        end $$`,
    )
    .execute(db);
  await sql`create trigger volumes_oai after insert or delete or update of name, sort on volumes
    for each row execute function guji_oai_volumes()`.execute(db);
}
