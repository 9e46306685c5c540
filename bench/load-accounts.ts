/**
 * The reader accounts of bench/load.ts: made in the library's database (SQLite or PostgreSQL) and logged
 * in through the API.
 */
import { createHmac, randomUUID } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { ok, readerAgent, send } from './load-client.ts';

/** The database of the library under test, for what the benchmark sets up there. */
export interface LibraryDb {
  /** `?` placeholders; rows as objects. */
  query(text: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

export function openLibraryDb(target: { sqliteFile: string } | { postgresUrl: string }): LibraryDb {
  if ('sqliteFile' in target) {
    const db = new BetterSqlite3(target.sqliteFile, { timeout: 10_000 });
    return {
      query: (text, params = []) => {
        const statement = db.prepare(text);
        return Promise.resolve(
          statement.reader
            ? (statement.all(...params) as Array<Record<string, unknown>>)
            : (statement.run(...params), []),
        );
      },
      close: () => Promise.resolve(void db.close()),
    };
  }
  const pool = new pg.Pool({ connectionString: target.postgresUrl, max: 2 });
  return {
    query: async (text, params = []) => {
      let n = 0;
      const result = await pool.query(
        text.replace(/\?/g, () => `$${++n}`),
        params,
      );
      return result.rows as Array<Record<string, unknown>>;
    },
    close: () => pool.end(),
  };
}

/**
 * `count` reader accounts `load1`… with the demo reader's password and role, copied from its row (no
 * argon2 work here), made once; then each logged in, the captcha answered through the database (a
 * captcha row of known answer, as bench/lib.ts loginCookie does). Returns the session cookies.
 */
export async function readerSessions(
  origin: string,
  db: LibraryDb,
  secret: string,
  count: number,
): Promise<string[]> {
  const [reader] = await db.query("select * from users where login_name = 'reader'");
  if (!reader) throw new Error('no demo account "reader" in the library');
  const columns = Object.keys(reader).filter((name) => name !== 'id');
  for (let i = 1; i <= count; i++) {
    const row: Record<string, unknown> = {
      ...reader,
      login_name: `load${i}`,
      phone: `1770000${String(i).padStart(4, '0')}`,
    };
    await db.query(
      `insert into users (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})
       on conflict (login_name) do nothing`,
      columns.map((name) => row[name]),
    );
  }
  await db.query(
    `insert into user_roles (user_id, role) select id, 'reader' from users where login_name like 'load%'
     on conflict do nothing`,
  );
  const agent = readerAgent(origin);
  const cookies: string[] = [];
  try {
    for (let i = 1; i <= count; i++) {
      const captchaId = randomUUID();
      const now = new Date();
      const hash = createHmac('sha256', secret).update(`captcha:${captchaId}:bench`).digest('hex');
      await db.query('insert into captchas (id, answer_hash, created_at, expires_at) values (?, ?, ?, ?)', [
        captchaId,
        hash,
        now.toISOString(),
        new Date(now.getTime() + 300_000).toISOString(),
      ]);
      const reply = await send(origin, agent, 'POST', '/api/auth/login', {
        json: { loginName: `load${i}`, password: 'Shuyuan#2026', captchaId, captchaCode: 'bench' },
      });
      ok(reply, `login load${i}`);
      const cookie = /guji_session=([^;]+)/.exec(String(reply.headers['set-cookie'] ?? ''))?.[1];
      if (!cookie) throw new Error('login: no session cookie');
      cookies.push(cookie);
    }
  } finally {
    agent.destroy();
  }
  return cookies;
}
