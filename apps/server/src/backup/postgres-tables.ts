import fs from 'node:fs';
import readline from 'node:readline';
import type pg from 'pg';

/** PostgreSQL tables of a backup: which there are, their columns, their order, their rows as JSON lines. */

/** Values a JSON line cannot hold as they are. */
export function encodeValue(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return { $base64: value.toString('base64') };
  if (value instanceof Date) return value.toISOString();
  return value;
}

export function decodeValue(value: unknown): unknown {
  if (value && typeof value === 'object' && '$base64' in value) {
    return Buffer.from(String(value.$base64), 'base64');
  }
  return value;
}

/**
 * Tables the database's own triggers fill from other tables (the full-text gram counts of migration 0020):
 * not dumped; a restore empties them and the triggers count the restored rows again.
 */
export const DERIVED_TABLES = new Set(['text_gram_counts']);

export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function tablesOf(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ table_name: string }>(
    `select table_name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name <> 'kysely_migration_lock'
      order by table_name`,
  );
  return rows.map((row) => row.table_name);
}

export async function columnsOf(client: pg.ClientBase, table: string): Promise<string[]> {
  const { rows } = await client.query<{ column_name: string }>(
    `select column_name from information_schema.columns
      where table_schema = current_schema() and table_name = $1 and is_generated = 'NEVER'
      order by ordinal_position`,
    [table],
  );
  return rows.map((row) => row.column_name);
}

/**
 * Inserts the rows of a table's JSON lines file (its columns first), line by line, 500 rows a statement:
 * a large library's page texts never sit in memory at once.
 */
export async function insertRows(conn: pg.ClientBase, table: string, file: string): Promise<void> {
  let columns: string[] | undefined;
  let batch: unknown[][] = [];
  const insert = async () => {
    const values: unknown[] = [];
    const tuples = batch.map((row) => {
      const marks = row.map((value) => {
        values.push(value);
        return `$${values.length}`;
      });
      return `(${marks.join(', ')})`;
    });
    batch = [];
    await conn.query(
      `insert into ${quote(table)} (${columns!.map(quote).join(', ')}) overriding system value values ${tuples.join(', ')}`,
      values,
    );
  };
  const lines = readline.createInterface({ input: fs.createReadStream(file) });
  for await (const line of lines) {
    if (!line) continue;
    if (!columns) {
      columns = JSON.parse(line) as string[];
      continue;
    }
    batch.push((JSON.parse(line) as unknown[]).map(decodeValue));
    if (batch.length === 500) await insert();
  }
  if (batch.length > 0) await insert();
}

/** `tables` ordered so that a table comes after every other table its foreign keys refer to. */
export async function referenceOrder(client: pg.ClientBase, tables: string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `select tc.table_name as child, ccu.table_name as parent
       from information_schema.table_constraints tc
       join information_schema.constraint_column_usage ccu
         on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
      where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`,
  );
  const parents = new Map<string, Set<string>>(tables.map((table) => [table, new Set<string>()]));
  for (const { child, parent } of rows) if (child !== parent) parents.get(child)?.add(parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (table: string, path: Set<string>) => {
    if (placed.has(table) || path.has(table)) return;
    path.add(table);
    for (const parent of parents.get(table) ?? []) if (parents.has(parent)) visit(parent, path);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

/** Moves every serial or identity column's sequence on past the highest id its table now holds. */
export async function resetSequences(conn: pg.ClientBase): Promise<void> {
  const { rows: serials } = await conn.query<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and (column_default like 'nextval(%' or is_identity = 'YES')`,
  );
  for (const { table_name, column_name } of serials) {
    await conn.query(
      `select setval(pg_get_serial_sequence($1, $2), coalesce((select max(${quote(column_name)}) from ${quote(table_name)}), 0) + 1, false)`,
      [quote(table_name), column_name],
    );
  }
}
