import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpHarness, type HttpHarness } from '../../test/http.ts';
import { createTestContext, DIALECTS, type TestContext } from '../../test/helpers.ts';
import { makeBook, makePrintOrder, makeReader, makeReservation } from '../../test/factories.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { migrateToLatest, MIGRATION_NAMES } from '../db/migrator.ts';
import { backupLibrary, restoreLibrary, verifyBackup } from './backup.ts';

/** Every row of every table (search indexes included), in a stable order, for comparing two libraries. */
async function everyRow(db: Db, dialect: 'sqlite' | 'postgres'): Promise<Record<string, unknown[]>> {
  const tables =
    dialect === 'sqlite'
      ? (
          await sql<{ name: string }>`select name from sqlite_master where type = 'table'
            and name not like 'sqlite_%' and name not like '%_fts_%' and name <> 'kysely_migration_lock'`.execute(
            db,
          )
        ).rows.map((row) => row.name)
      : (
          await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE'
            and table_name <> 'kysely_migration_lock'`.execute(db)
        ).rows.map((row) => row.name);
  const all: Record<string, unknown[]> = {};
  for (const table of tables.sort()) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows;
    // On PostgreSQL the schema is built anew at restore: the migrations' names match, not their times.
    all[table] = rows
      .map((row) => JSON.stringify(table === 'kysely_migration' ? { name: row.name } : row))
      .sort();
  }
  return all;
}

function filesUnder(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (dir === root && (entry.name === 'cache' || entry.name === 'tmp')) continue;
        walk(full);
      } else if (!/\.sqlite(-wal|-shm)?$/.test(entry.name)) {
        out[path.relative(root, full)] = fs.readFileSync(full).toString('base64');
      }
    }
  };
  walk(root);
  return out;
}

describe.each(DIALECTS)('backup and restore (%s)', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-backup-'));
    cleanups.push(() => Promise.resolve(fs.rmSync(dir, { recursive: true, force: true })));
    return dir;
  };

  /** A library with readers, a book with pages and OCR versions, a print order, a reservation and a note. */
  async function library(): Promise<HttpHarness> {
    const h = await createHttpHarness(dialect);
    cleanups.push(() => h.close());
    const reader = await makeReader(h, 'backup');
    const callNumber = `BAK-${dialect}-${Date.now()}`;
    const book = await makeBook(h, { callNumber, volumes: [2], texts: [['子曰學而時習之', '有朋自遠方來']] });
    await makePrintOrder(h, reader, book, 2);
    const row = (await h.context.repos.catalog.findBook(book.bookId))!;
    await makeReservation(h, reader, { callNumber, title: row.title });
    const note = await h.request({
      method: 'POST',
      url: '/api/notes',
      cookie: reader.cookie,
      body: { imageId: book.pageIds[0], x: 10, y: 20, w: 30, h: 40, text: '此處「學」字漫漶' },
    });
    expect(note.statusCode).toBe(200);
    return h;
  }

  it('round-trips a library: every row and every file, checked against the manifest', async () => {
    const h = await library();
    const dir = path.join(tempDir(), 'backup');
    const manifest = await backupLibrary(h.context.config, dir);
    expect(manifest.schema).toBe(MIGRATION_NAMES.at(-1));
    expect(manifest.files.length).toBeGreaterThan(0);
    expect(verifyBackup(dir)).toEqual(manifest);

    const target: TestContext = await createTestContext(dialect);
    cleanups.push(() => target.close());
    // The target's own (fresh) library is replaced; its server is stopped first.
    await target.context.close();
    await restoreLibrary(target.context.config, dir, { force: true });
    const restored = openDatabase(target.context.config.database);
    try {
      await migrateToLatest(restored.db, dialect);
      expect(await everyRow(restored.db, dialect)).toEqual(await everyRow(h.context.database.db, dialect));
    } finally {
      await restored.destroy();
    }
    expect(filesUnder(target.context.config.dataDir)).toEqual(filesUnder(h.context.config.dataDir));
    // The close above must not be run twice.
    target.context.close = () => Promise.resolve();
  });

  it('refuses a damaged backup, one from a newer schema, and a library that has data, changing nothing', async () => {
    const h = await library();
    const dir = path.join(tempDir(), 'backup');
    const manifest = await backupLibrary(h.context.config, dir);
    const config = h.context.config;
    const before = filesUnder(config.dataDir);

    // A library with data is not replaced without --force.
    await expect(restoreLibrary(config, dir)).rejects.toThrow(/已有/);

    // One byte changed in a page image.
    const page = manifest.files.find((entry) => !entry.path.startsWith('cache'))!;
    const damaged = path.join(dir, 'files', page.path);
    const bytes = fs.readFileSync(damaged);
    bytes[bytes.length - 1] = bytes.at(-1)! ^ 0xff;
    fs.writeFileSync(damaged, bytes);
    await expect(restoreLibrary(config, dir, { force: true })).rejects.toThrow(
      `备份文件已损坏（校验和不符）：${page.path}`,
    );
    bytes[bytes.length - 1] = bytes.at(-1)! ^ 0xff;
    fs.writeFileSync(damaged, bytes);

    // A schema this program does not know.
    const file = path.join(dir, 'manifest.json');
    fs.writeFileSync(file, JSON.stringify({ ...manifest, schema: '9999-from-the-future' }));
    await expect(restoreLibrary(config, dir, { force: true })).rejects.toThrow(
      /备份来自更新的数据库结构（9999-from-the-future）/,
    );
    expect(filesUnder(config.dataDir)).toEqual(before);
  });

  it('refuses a manifest without its database, a garbage database and symbolic links, leaving the library as it was', async () => {
    // Issue 30 item 5: "database": [] and a garbage database file replaced a working library.
    const h = await library();
    const dir = path.join(tempDir(), 'backup');
    const manifest = await backupLibrary(h.context.config, dir);
    const config = h.context.config;
    const before = filesUnder(config.dataDir);
    const rows = await everyRow(h.context.database.db, dialect);
    const file = path.join(dir, 'manifest.json');
    const write = (m: unknown) => fs.writeFileSync(file, JSON.stringify(m));

    write({ ...manifest, database: [] });
    await expect(restoreLibrary(config, dir, { force: true })).rejects.toThrow(
      '备份清单没有列出数据库文件（或其校验和），不予恢复',
    );
    if (dialect === 'sqlite') {
      // Garbage in place of the database, with a checksum that matches it: opened and checked first.
      const copy = path.join(dir, 'database.sqlite');
      const good = fs.readFileSync(copy);
      fs.writeFileSync(copy, Buffer.alloc(8192, 0x5a));
      const entry = manifest.database.find((e) => e.path === 'database.sqlite')!;
      const { sha256File } = await import('./backup-files.ts');
      write({
        ...manifest,
        database: [{ ...entry, bytes: fs.statSync(copy).size, sha256: sha256File(copy) }],
      });
      await expect(restoreLibrary(config, dir, { force: true })).rejects.toThrow(
        '备份中的数据库文件无法打开或已损坏，不予恢复：数据目录和数据库保持原样',
      );
      fs.writeFileSync(copy, good);
    }
    write(manifest);

    // A page of the backup replaced by a link to a file outside it, its checksum made to match.
    const page = manifest.files.find((entry) => entry.path.startsWith('masters'))!;
    const linked = path.join(dir, 'files', page.path);
    const outside = path.join(tempDir(), 'hostname');
    fs.writeFileSync(outside, 'secret-host\n');
    fs.rmSync(linked);
    fs.symlinkSync(outside, linked);
    const { sha256File } = await import('./backup-files.ts');
    write({
      ...manifest,
      files: manifest.files.map((e) =>
        e === page ? { ...e, bytes: fs.statSync(outside).size, sha256: sha256File(outside) } : e,
      ),
    });
    await expect(restoreLibrary(config, dir, { force: true })).rejects.toThrow(
      `备份中有符号链接，不予恢复：${page.path}`,
    );
    expect(filesUnder(config.dataDir)).toEqual(before);
    expect(await everyRow(h.context.database.db, dialect)).toEqual(rows);
  });

  it('writes only into a new or empty folder outside DATA_DIR', async () => {
    const h = await library();
    const inside = path.join(h.context.config.dataDir, 'backups');
    await expect(backupLibrary(h.context.config, inside)).rejects.toThrow(/不能在数据目录/);
    const used = tempDir();
    fs.writeFileSync(path.join(used, 'other.txt'), '別人的文件');
    await expect(backupLibrary(h.context.config, used)).rejects.toThrow(/备份目录不是空的/);
    expect(fs.readFileSync(path.join(used, 'other.txt'), 'utf8')).toBe('別人的文件');
  });
});
