import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, sql, SqliteDialect, type SqliteDatabase, type Transaction } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from './schema.ts';
import { TableWrites } from './table-writes.ts';

/** The tables whose rows the IIIF image routes keep between requests (TableWrites). */
const CATALOGUE_TABLES = new Set(['books', 'volumes', 'pages']);

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
  /** Changes this process made to the catalogue's books, volumes and pages (db/table-writes.ts). */
  catalogueWrites: TableWrites;
  destroy(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  /** Queries waiting for a free connection. */
  waiting: number;
}

function handle(db: Db, dialect: Dialect, catalogueWrites: TableWrites, pool?: pg.Pool): DatabaseHandle {
  return {
    db,
    dialect,
    catalogueWrites,
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
    // A server that does not answer (a network fault, a failover) fails a request after 5 s instead of
    // holding it; TCP keep-alive finds connections to a machine that went away.
    const pool = new pg.Pool({
      connectionString: database.url,
      max: 10,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    // A connection the server ends (a restart, a failover, an administrator) emits 'error'; without a
    // listener that would crash the process. The pool listens only while a connection is idle (and drops
    // it); one in use between two queries (a transaction's) needs its own listener: its next query fails
    // (a 503, isDatabaseUnreachable) and the pool drops it when it is released.
    pool.on('connect', (client) => {
      client.on('error', (error) => {
        console.warn(`PostgreSQL closed a connection: ${error.message}`);
      });
    });
    pool.on('error', () => {
      /* logged by the connection's own listener above; the pool drops the idle connection */
    });
    const writes = new TableWrites(CATALOGUE_TABLES);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [writes] });
    return handle(db, 'postgres', writes, pool);
  }
  if (database.file !== ':memory:') fs.mkdirSync(path.dirname(database.file), { recursive: true });
  const sqlite = new BetterSqlite3(database.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const writes = new TableWrites(CATALOGUE_TABLES);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    plugins: [writes],
  });
  return handle(db, 'sqlite', writes);
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

/** PostgreSQL's codes of a server that cannot serve now: connection exceptions, shutting down, starting. */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-3]|53300)$/;

/**
 * True when a query failed because the database could not be reached or is restarting (refused or
 * lost connection, shutdown, start-up, no free connection slot), not because of the query: worth a
 * 503 and a retry, never a 500.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  const e = error as { code?: unknown; syscall?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (UNAVAILABLE_SQLSTATE.test(code)) return true;
  if (e.syscall === 'connect' || ['ECONNRESET', 'EPIPE'].includes(code)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /^Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
    message,
  );
}

/** Current time as the ISO-8601 text stored in every date column. */
export const nowIso = (now: Date = new Date()): string => now.toISOString();
