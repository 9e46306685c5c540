import path from 'node:path';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DIALECTS, type TestContext } from '../../test/helpers.ts';
import type { Db, Dialect } from './database.ts';

/** A column as db/schema.ts declares it or as the migrated database has it. */
interface Column {
  /** 'number' or 'string': what a query reads back. */
  kind: 'number' | 'string';
  nullable: boolean;
  /** An insert may leave it out: Generated<…> in schema.ts; a default, an identity or null in the database. */
  generated: boolean;
}
type Tables = Record<string, Record<string, Column>>;

/**
 * Tables of the database that schema.ts does not describe, each with why: the migrator's own and SQLite's;
 * the full-text indexes of page text and their rebuild tables (search/text-index.*.ts reach them with
 * their own SQL); the catalogue's title index (book-search.repository.ts, raw SQL on FTS5).
 */
const UNDESCRIBED =
  /^(kysely_migration(_lock)?|sqlite_.*|page_text_fts.*|text_gram_counts.*|page_texts_(changes|next)|books_fts.*)$/;

/**
 * Columns schema.ts leaves out, with why: PostgreSQL's text index of a page, its tsvector and folded text
 * (migration 0007; written and read only by search/text-index.postgres.ts's own SQL).
 */
const UNDESCRIBED_COLUMNS = new Set(['page_texts.tsv', 'page_texts.folded']);

/** db/schema.ts's `Database`, read with TypeScript's checker. */
function declaredTables(): Tables {
  const file = path.join(import.meta.dirname, 'schema.ts');
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const database = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Database',
  )!;
  const tables: Tables = {};
  for (const table of checker.getTypeAtLocation(database).getProperties()) {
    const columns: Record<string, Column> = {};
    for (const column of checker.getTypeOfSymbol(table).getProperties()) {
      const text = checker.typeToString(
        checker.getTypeOfSymbol(column),
        undefined,
        ts.TypeFormatFlags.NoTruncation,
      );
      const generated = /^Generated</.test(text);
      const inner = generated ? text.slice('Generated<'.length, -1) : text;
      const parts = inner.split('|').map((p) => p.trim());
      const nullable = parts.includes('null');
      const rest = parts.filter((p) => p !== 'null');
      // `number | string`: a bigint, which PostgreSQL's driver reads back as a string.
      const kind = rest.every((p) => p === 'number' || (p === 'string' && rest.includes('number')))
        ? 'number'
        : rest.every((p) => p === 'string' || p.startsWith('"'))
          ? 'string'
          : undefined;
      if (!kind) throw new Error(`${table.name}.${column.name}: unexpected type ${text}`);
      columns[column.name] = { kind, nullable, generated };
    }
    tables[table.name] = columns;
  }
  return tables;
}

const NUMERIC = /^(integer|bigint|smallint|real|double precision|numeric|int|int4|int8)$/i;
const TEXTUAL = /^(text|character varying|varchar|character|jsonb?)$/i;

function kindOf(type: string, where: string): Column['kind'] {
  if (NUMERIC.test(type)) return 'number';
  if (TEXTUAL.test(type)) return 'string';
  throw new Error(`${where}: column type ${type} is neither a number nor a text`);
}

/** The migrated database's tables and columns. */
async function migratedTables(db: Db, dialect: Dialect): Promise<Tables> {
  const tables: Tables = {};
  if (dialect === 'sqlite') {
    const names = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(
      db,
    );
    for (const { name } of names.rows) {
      if (UNDESCRIBED.test(name)) continue;
      const info = await sql<{
        name: string;
        type: string;
        notnull: number;
        dflt_value: string | null;
        pk: number;
      }>`
        select * from pragma_table_info(${name})`.execute(db);
      const single = info.rows.filter((c) => c.pk > 0).length === 1;
      tables[name] = Object.fromEntries(
        info.rows
          .filter((c) => !UNDESCRIBED_COLUMNS.has(`${name}.${c.name}`))
          .map((c) => {
            // A single INTEGER PRIMARY KEY is the rowid: numbered by SQLite, never null.
            const rowid = single && c.pk > 0 && /^integer$/i.test(c.type);
            return [
              c.name,
              {
                kind: kindOf(c.type, `${name}.${c.name}`),
                nullable: c.notnull === 0 && c.pk === 0,
                generated: rowid || c.dflt_value !== null || (c.notnull === 0 && c.pk === 0),
              },
            ];
          }),
      );
    }
  } else {
    const rows = await sql<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
      column_default: string | null;
      is_identity: string;
    }>`select table_name, column_name, data_type, is_nullable, column_default, is_identity
         from information_schema.columns c
        where table_schema = current_schema()
          and exists (select 1 from information_schema.tables t
                       where t.table_schema = c.table_schema and t.table_name = c.table_name
                         and t.table_type = 'BASE TABLE')`.execute(db);
    for (const c of rows.rows) {
      if (UNDESCRIBED.test(c.table_name) || UNDESCRIBED_COLUMNS.has(`${c.table_name}.${c.column_name}`))
        continue;
      (tables[c.table_name] ??= {})[c.column_name] = {
        kind: kindOf(c.data_type, `${c.table_name}.${c.column_name}`),
        nullable: c.is_nullable === 'YES',
        generated: c.is_identity === 'YES' || c.column_default !== null || c.is_nullable === 'YES',
      };
    }
  }
  return tables;
}

/**
 * db/schema.ts is written by hand beside the migrations; the queries are typed by it. This test migrates
 * a fresh database of each dialect and compares: the same tables, the same columns, each a number or a
 * text as declared, nullable exactly where the type admits null, and what the type lets an insert leave
 * out (Generated<…>) filled in by the database. A migration that forgets schema.ts (or the reverse) fails here.
 */
/** Read once for both dialects (building TypeScript's program takes a second). */
const declared = declaredTables();

describe.each(DIALECTS)('the migrated schema is db/schema.ts (%s)', (dialect) => {
  let t: TestContext;
  let migrated: Tables;
  beforeAll(async () => {
    t = await createTestContext(dialect);
    migrated = await migratedTables(t.context.database.db, dialect);
  });
  afterAll(() => t.close());

  it('has the same tables', () => {
    expect(Object.keys(migrated).sort()).toEqual(Object.keys(declared).sort());
  });

  it('has the same columns, each of the declared kind, nullability and default', () => {
    const differences: string[] = [];
    for (const [table, columns] of Object.entries(declared)) {
      const actual = migrated[table] ?? {};
      for (const name of new Set([...Object.keys(columns), ...Object.keys(actual)])) {
        const want = columns[name];
        const got = actual[name];
        if (!want) differences.push(`${table}.${name}: in the database, not in schema.ts`);
        else if (!got) differences.push(`${table}.${name}: in schema.ts, not in the database`);
        else
          for (const key of ['kind', 'nullable'] as const)
            if (want[key] !== got[key])
              differences.push(
                `${table}.${name}: ${key} is ${String(got[key])} in the database, ${String(want[key])} in schema.ts`,
              );
        // An insert may leave out what schema.ts makes optional only if the database fills it in (a
        // default, an identity, null). The other way round is allowed: schema.ts may ask for a value the
        // database could default (the code always gives it).
        if (want && got && want.generated && !got.generated)
          differences.push(
            `${table}.${name}: schema.ts lets an insert leave it out; the database has no default`,
          );
      }
    }
    expect(differences).toEqual([]);
  });
});
