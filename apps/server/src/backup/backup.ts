import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { Dialect } from '../db/database.ts';
import { MIGRATION_NAMES, migrateToLatest } from '../db/migrator.ts';
import type { Database } from '../db/schema.ts';
import {
  backupObjects,
  entryOf,
  OBJECTS_DIR,
  objectStoreHasFiles,
  restoreObjects,
  sha256File,
  walk,
} from './backup-files.ts';
import {
  columnsOf,
  DERIVED_TABLES,
  encodeValue,
  insertRows,
  quote,
  referenceOrder,
  resetSequences,
  tablesOf,
} from './postgres-tables.ts';

/**
 * Backups of a library (issue 17): a consistent snapshot of the database and every file under DATA_DIR,
 * with a manifest of checksums. SQLite is copied with its online backup API (readers and writers go on
 * meanwhile); PostgreSQL is read table by table inside one REPEATABLE READ transaction, so every table is
 * seen at the same instant, and written as JSON lines (no pg_dump needed, any PostgreSQL 13+ server).
 * The IIIF disk cache and temporary upload folders are left out: both are remade on demand. With
 * STORAGE_URL=s3://… every object under the library's prefix is copied too (`objects/`, backup-files.ts).
 */

export const BACKUP_FORMAT = 'guji-backup';
const MANIFEST = 'manifest.json';
const SQLITE_COPY = 'database.sqlite';
const PG_DIR = 'database';
const FILES_DIR = 'files';
/** Folders under DATA_DIR that are not kept: remade on demand. */
const SKIPPED_DIRS = new Set(['cache', 'tmp']);

export interface BackupEntry {
  path: string;
  bytes: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: 1;
  createdAt: string;
  dialect: Dialect;
  /** The last migration applied to the database when it was copied. */
  schema: string;
  database: BackupEntry[];
  files: BackupEntry[];
  /** The object store's files by key (STORAGE_URL=s3://…), under `objects/`; absent on local disk. */
  objects?: BackupEntry[];
}

/** A backup refused or found damaged: the message is for the person at the console. */
export class BackupError extends Error {}

/** The files of the library: DATA_DIR less the database, its journal, the cache and temporary folders. */
function libraryFiles(config: Config): string[] {
  const dataDir = path.resolve(config.dataDir);
  const dbFile = config.database.dialect === 'sqlite' ? path.resolve(config.database.file) : null;
  const skipped = dbFile
    ? new Set([dbFile, `${dbFile}-wal`, `${dbFile}-shm`, `${dbFile}-journal`])
    : new Set();
  return [...walk(dataDir)].filter((file) => {
    const top = path.relative(dataDir, file).split(path.sep)[0] ?? '';
    return !skipped.has(file) && !SKIPPED_DIRS.has(top) && !file.endsWith('.tmp');
  });
}

function assertEmptyFolder(dir: string): void {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
    throw new BackupError(`备份目录不是空的：${dir}（请指定一个新目录）`);
  }
  fs.mkdirSync(dir, { recursive: true });
}

async function backupPostgres(url: string, dir: string): Promise<{ schema: string; files: string[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const files: string[] = [];
  let schema = '';
  try {
    await client.query('begin isolation level repeatable read read only');
    fs.mkdirSync(path.join(dir, PG_DIR));
    for (const table of await tablesOf(client)) {
      if (DERIVED_TABLES.has(table)) continue;
      const columns = await columnsOf(client, table);
      const file = path.join(dir, PG_DIR, `${table}.ndjson`);
      const out = fs.openSync(file, 'w');
      try {
        fs.writeSync(out, JSON.stringify(columns) + '\n');
        const { rows } = await client.query<unknown[]>({
          // In the order of the first column (the id): parents before the children that refer to them.
          text: `select ${columns.map(quote).join(', ')} from ${quote(table)} order by 1`,
          rowMode: 'array',
        });
        for (const row of rows) fs.writeSync(out, JSON.stringify(row.map(encodeValue)) + '\n');
      } finally {
        fs.closeSync(out);
      }
      files.push(file);
      if (table === 'kysely_migration') {
        const last = await client.query<{ name: string }>(
          'select name from kysely_migration order by name desc limit 1',
        );
        schema = last.rows[0]?.name ?? '';
      }
    }
    await client.query('commit');
  } finally {
    await client.end();
  }
  return { schema, files };
}

async function backupSqlite(file: string, dir: string): Promise<{ schema: string; files: string[] }> {
  if (!fs.existsSync(file)) throw new BackupError(`数据库文件不存在：${file}`);
  const source = new BetterSqlite3(file, { fileMustExist: true });
  const copy = path.join(dir, SQLITE_COPY);
  try {
    await source.backup(copy);
  } finally {
    source.close();
  }
  // One self-contained file: no -wal or -shm beside it (the server turns WAL on again when it opens it).
  const db = new BetterSqlite3(copy);
  try {
    db.pragma('journal_mode = DELETE');
    const row = db.prepare('select name from kysely_migration order by name desc limit 1').get() as
      { name: string } | undefined;
    return { schema: row?.name ?? '', files: [copy] };
  } finally {
    db.close();
  }
}

/** Writes a backup of the library into `dir` (a new or empty folder); returns its manifest. */
export async function backupLibrary(config: Config, dir: string, now = new Date()): Promise<BackupManifest> {
  const target = path.resolve(dir);
  const dataDir = path.resolve(config.dataDir);
  if (target === dataDir || target.startsWith(dataDir + path.sep)) {
    throw new BackupError(`备份目录不能在数据目录（DATA_DIR）之内：${target}`);
  }
  assertEmptyFolder(target);
  // The database first: a file added after it is harmless (nothing refers to it), while a row whose
  // file the copy missed would be a broken page.
  const database =
    config.database.dialect === 'sqlite'
      ? await backupSqlite(config.database.file, target)
      : await backupPostgres(config.database.url, target);
  const files: BackupEntry[] = [];
  for (const file of libraryFiles(config)) {
    const relative = path.relative(dataDir, file);
    const copy = path.join(target, FILES_DIR, relative);
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.copyFileSync(file, copy);
    files.push(entryOf(path.join(target, FILES_DIR), copy));
  }
  const objects = await backupObjects(config, target);
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: 1,
    createdAt: now.toISOString(),
    dialect: config.database.dialect,
    schema: database.schema,
    database: database.files.map((file) => entryOf(target, file)),
    files,
    ...(objects ? { objects } : {}),
  };
  fs.writeFileSync(path.join(target, MANIFEST), JSON.stringify(manifest, null, 2));
  return manifest;
}

/** Reads a backup's manifest and checks every file against it; throws BackupError on any difference. */
export function verifyBackup(dir: string): BackupManifest {
  const file = path.join(dir, MANIFEST);
  if (!fs.existsSync(file)) throw new BackupError(`不是备份目录（缺少 ${MANIFEST}）：${dir}`);
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT || manifest.version !== 1) {
    throw new BackupError(`无法识别的备份格式：${String(manifest.format)} ${String(manifest.version)}`);
  }
  const check = (root: string, entry: BackupEntry) => {
    const full = path.resolve(root, entry.path);
    if (!full.startsWith(path.resolve(root) + path.sep))
      throw new BackupError(`备份清单中的路径越界：${entry.path}`);
    if (!fs.existsSync(full)) throw new BackupError(`备份缺少文件：${entry.path}`);
    // A link (to /etc/…, or a folder linked elsewhere) is never followed into the library.
    if (
      fs.lstatSync(full).isSymbolicLink() ||
      !fs.realpathSync(full).startsWith(fs.realpathSync(root) + path.sep)
    )
      throw new BackupError(`备份中有符号链接，不予恢复：${entry.path}`);
    if (fs.statSync(full).size !== entry.bytes || sha256File(full) !== entry.sha256) {
      throw new BackupError(`备份文件已损坏（校验和不符）：${entry.path}`);
    }
  };
  // The database must be listed (with its checksum): a backup without it restores nothing it can vouch for.
  const listed = manifest.database.map((entry) => entry.path);
  const hasDatabase =
    manifest.dialect === 'sqlite'
      ? listed.includes(SQLITE_COPY)
      : listed.includes(`${PG_DIR}/kysely_migration.ndjson`) && listed.includes(`${PG_DIR}/users.ndjson`);
  if (!hasDatabase) throw new BackupError('备份清单没有列出数据库文件（或其校验和），不予恢复');
  for (const entry of manifest.database) check(dir, entry);
  for (const entry of manifest.files) check(path.join(dir, FILES_DIR), entry);
  for (const entry of manifest.objects ?? []) check(path.join(dir, OBJECTS_DIR), entry);
  return manifest;
}

export interface RestoreOptions {
  /** Replace a library that already has data (its database rows and files). */
  force?: boolean;
}

/**
 * Refuses, changing nothing, a backup this program cannot restore here: from a newer schema or the other
 * dialect, or over a library that has files, objects or a database unless `force` says to replace them.
 */
async function refuseRestore(
  config: Config,
  manifest: BackupManifest,
  options: RestoreOptions,
): Promise<void> {
  if (manifest.schema && !MIGRATION_NAMES.includes(manifest.schema)) {
    throw new BackupError(
      `备份来自更新的数据库结构（${manifest.schema}），本程序只认识到 ${MIGRATION_NAMES.at(-1) ?? ''}：请先升级程序再恢复`,
    );
  }
  if (manifest.dialect !== config.database.dialect) {
    throw new BackupError(
      `备份来自 ${manifest.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}，不能恢复到当前配置的 ${
        config.database.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'
      } 数据库`,
    );
  }
  if (!options.force && libraryFiles(config).length > 0) {
    throw new BackupError(`数据目录已有文件：${path.resolve(config.dataDir)}（确认要替换时加 --force）`);
  }
  const store = options.force ? undefined : await objectStoreHasFiles(config);
  if (store) throw new BackupError(`对象存储已有文件：${store}（确认要替换时加 --force）`);
  const dbFile = config.database.dialect === 'sqlite' ? path.resolve(config.database.file) : undefined;
  if (dbFile && !options.force && fs.existsSync(dbFile)) {
    throw new BackupError(`数据库已存在：${dbFile}（确认要替换时加 --force）`);
  }
}

/**
 * Restores a backup into the configured database and DATA_DIR, with no server running on them. Checks the
 * whole backup first and refuses one from a newer schema than this program knows, or from the other
 * dialect, changing nothing. The caller migrates the restored database to the latest schema.
 */
export async function restoreLibrary(
  config: Config,
  dir: string,
  options: RestoreOptions = {},
): Promise<BackupManifest> {
  const source = path.resolve(dir);
  const manifest = verifyBackup(source);
  await refuseRestore(config, manifest, options);
  const dataDir = path.resolve(config.dataDir);
  const dbFile = config.database.dialect === 'sqlite' ? path.resolve(config.database.file) : undefined;
  // First, nothing of the library changes: the backup's files are copied beside it (DATA_DIR/tmp, the
  // same disk, so they are moved into place by renaming) and its database copy is opened and checked.
  const tmp = path.join(dataDir, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  const staged = fs.mkdtempSync(path.join(tmp, 'restore-new-'));
  const previous = fs.mkdtempSync(path.join(tmp, 'restore-old-'));
  /** What was moved, to move it back if the restore fails half way. */
  const moved: Array<{ from: string; to: string }> = [];
  const move = (from: string, to: string) => {
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.renameSync(from, to);
    moved.push({ from, to });
  };
  try {
    for (const entry of manifest.files) {
      const target = path.join(staged, entry.path);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(path.join(source, FILES_DIR, entry.path), target);
    }
    let dbCopy: string | undefined;
    if (dbFile) {
      fs.mkdirSync(path.dirname(dbFile), { recursive: true });
      dbCopy = `${dbFile}.restore.tmp`;
      fs.copyFileSync(path.join(source, SQLITE_COPY), dbCopy);
      checkSqliteCopy(dbCopy, manifest.schema);
    }
    // Then the swap: the database (SQLite: the checked copy renamed into place, the old one kept aside
    // until the end; PostgreSQL: one transaction), then the files.
    if (dbFile && dbCopy) {
      for (const suffix of ['', '-wal', '-shm', '-journal'])
        if (fs.existsSync(dbFile + suffix)) move(dbFile + suffix, path.join(previous, `database${suffix}`));
      move(dbCopy, dbFile);
    } else if (config.database.dialect === 'postgres') {
      await restorePostgres(config.database.url, source, manifest, options);
    }
    for (const file of libraryFiles(config))
      move(file, path.join(previous, 'files', path.relative(dataDir, file)));
    for (const entry of manifest.files) move(path.join(staged, entry.path), path.join(dataDir, entry.path));
  } catch (error) {
    // Back as it was: what was moved goes back, newest first.
    for (const { from, to } of moved.reverse()) {
      try {
        fs.mkdirSync(path.dirname(from), { recursive: true });
        fs.renameSync(to, from);
      } catch {
        // Left in DATA_DIR/tmp/restore-old-…: the message below says where.
      }
    }
    if (dbFile) fs.rmSync(`${dbFile}.restore.tmp`, { force: true });
    fs.rmSync(staged, { recursive: true, force: true });
    fs.rmSync(previous, { recursive: true, force: true });
    if (error instanceof BackupError) throw error;
    throw new BackupError(`恢复失败，数据目录和数据库保持原样：${String(error)}`, { cause: error });
  }
  // The cache may hold the old library's pages; the old files go.
  fs.rmSync(path.join(dataDir, 'cache'), { recursive: true, force: true });
  fs.rmSync(staged, { recursive: true, force: true });
  fs.rmSync(previous, { recursive: true, force: true });
  if (manifest.objects) await restoreObjects(config, source, manifest.objects);
  return manifest;
}

/** A backup's SQLite copy opens, passes SQLite's own check and is at the schema its manifest names. */
function checkSqliteCopy(file: string, schema: string): void {
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    const check = db.pragma('quick_check', { simple: true });
    const last = db.prepare('select name from kysely_migration order by name desc limit 1').pluck().get();
    if (check !== 'ok' || (schema && last !== schema)) throw new Error(String(check));
  } catch {
    throw new BackupError('备份中的数据库文件无法打开或已损坏，不予恢复：数据目录和数据库保持原样');
  } finally {
    db?.close();
  }
}

async function restorePostgres(
  url: string,
  dir: string,
  manifest: BackupManifest,
  options: RestoreOptions,
): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const client = await pool.connect();
  try {
    const existing = await tablesOf(client);
    if (existing.includes('users') && !options.force) {
      const { rows } = await client.query<{ n: string }>('select count(*) as n from users');
      if (Number(rows[0]?.n ?? 0) > 0) throw new BackupError('数据库已有数据（确认要替换时加 --force）');
    }
  } finally {
    client.release();
  }
  // The schema as it was when the backup was taken; the caller migrates the rows on to the latest.
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    if (manifest.schema) await migrateToLatest(db, 'postgres', manifest.schema);
    const conn = await pool.connect();
    try {
      await conn.query('begin');
      // The OAI-PMH triggers (migration 0022) stand aside: its table comes back from the backup as it was.
      await conn.query(`select set_config('guji.restore', 'on', true)`);
      const tables = (await tablesOf(conn)).filter((table) => table !== 'kysely_migration');
      if (tables.length)
        await conn.query(`truncate ${tables.map(quote).join(', ')} restart identity cascade`);
      // Tables in the order of their foreign keys, so every row finds the rows it refers to.
      const dumped = new Map(manifest.database.map((entry) => [path.basename(entry.path, '.ndjson'), entry]));
      for (const table of await referenceOrder(conn, tables)) {
        const entry = dumped.get(table);
        if (!entry) continue;
        await insertRows(conn, table, path.join(dir, entry.path));
      }
      await resetSequences(conn);
      await conn.query('commit');
    } catch (error) {
      await conn.query('rollback');
      throw error;
    } finally {
      conn.release();
    }
  } finally {
    await db.destroy();
  }
}
