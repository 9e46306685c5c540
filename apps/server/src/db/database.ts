import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, sql, SqliteDialect, type SqliteDatabase, type Transaction } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
/** What a repository method accepts: the database or an open transaction (STYLE.md `dbOrTx`). */
export type DbOrTx = Kysely<Database> | Transaction<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** Throws when the database cannot answer a query (GET /api/health). */
  ping(): Promise<void>;
  /** The PostgreSQL connection pool's state (for /metrics); null on SQLite, one connection in-process. */
  poolStats(): PoolStats | null;
  destroy(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  /** Queries waiting for a free connection. */
  waiting: number;
}

function handle(db: Db, dialect: Dialect, pool?: pg.Pool): DatabaseHandle {
  return {
    db,
    dialect,
    poolStats: () =>
      pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    destroy: () => db.destroy(),
  };
}

/** Opens the configured database: SQLite (WAL) by default, PostgreSQL for postgres:// URLs. */
export function openDatabase(database: Config['database']): DatabaseHandle {
  if (database.dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: database.url, max: 10 });
    // An idle connection the server ends (a restart, a failover, an administrator) is dropped from the
    // pool, which opens a new one when needed; without a listener pg would crash the process.
    pool.on('error', (error) => {
      console.warn(`PostgreSQL closed an idle connection: ${error.message}`);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return handle(db, 'postgres', pool);
  }
  if (database.file !== ':memory:') fs.mkdirSync(path.dirname(database.file), { recursive: true });
  const sqlite = new BetterSqlite3(database.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return handle(db, 'sqlite');
}

/**
 * Kysely prepares every query anew; preparing costs more than running most of our queries (measured:
 * about 40 % of the CPU of a tile request went to `prepare`). Statements are kept by their SQL text,
 * the most recently used few hundred. Kysely runs one query at a time on the connection, so a cached
 * statement is never in use twice at once.
 */
export function withStatementCache(sqlite: BetterSqlite3.Database, size = 500): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= size) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

/** Current time as the ISO-8601 text stored in every date column. */
export const nowIso = (now: Date = new Date()): string => now.toISOString();
