import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBook, makeReader, makeStaff, type MadeUser } from '../../test/factories.ts';
import { createHttpHarness, multipartFile, type HttpHarness } from '../../test/http.ts';
import { envOf, Processes, waitFor, type ServerProcess } from '../../test/processes.ts';
import { makeZip } from '../../test/zip.ts';
import { removeOrphanMasters } from '../features/import/orphan-masters.ts';
import { removeStaleTempDirs } from '../storage/temp.ts';
import { systemClock } from '../lib/clock.ts';

interface Answer {
  status: number;
  body: string;
}

/**
 * Sends a request to a `serve` process over real HTTP; `writeFirst` bytes of the body go out at once and
 * the rest only when `finish` is called (an upload still under way).
 */
function send(
  proc: ServerProcess,
  method: string,
  url: string,
  options: { cookie: string; body: Buffer; contentType: string; writeFirst?: number },
): { answer: Promise<Answer>; finish(): void } {
  const request = http.request(`${proc.url}${url}`, {
    method,
    agent: false,
    headers: {
      cookie: options.cookie,
      'content-type': options.contentType,
      'content-length': options.body.length,
    },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('error', reject);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
  });
  // Awaited later (or expected to fail); never an unhandled rejection meanwhile.
  answer.catch(() => undefined);
  const first = options.writeFirst ?? options.body.length;
  request.write(options.body.subarray(0, first));
  const finish = () => request.end(options.body.subarray(first));
  if (first === options.body.length) finish();
  return { answer, finish };
}

/** The folders under DATA_DIR/masters whose names start with `prefix`. */
const masterFolders = (dataDir: string, prefix: string) =>
  fs.existsSync(path.join(dataDir, 'masters'))
    ? fs.readdirSync(path.join(dataDir, 'masters')).filter((name) => name.startsWith(prefix))
    : [];

/**
 * Issue 17 part 5: a `serve` process killed with kill -9 in the middle of a zip import (while the package is
 * still arriving, and inside the transaction that writes the book) and in the middle of a checkout (inside
 * its transaction). The client's connection breaks; nothing partial is left (no book, no order, no item
 * moved; the masters stored before the kill are removed by the daily purge); the same request succeeds
 * against a restarted process. Real processes on one PostgreSQL database; the kill lands inside a
 * transaction because the test holds a table lock the transaction waits for.
 */
describe('a web process killed in the middle of a request', () => {
  const processes = new Processes();
  let h: HttpHarness;
  let env: Record<string, string>;
  let serve: ServerProcess;
  let locker: pg.Client;
  beforeAll(async () => {
    // The real clock: sessions made here are checked by the child processes, which use it too.
    h = await createHttpHarness('postgres', {}, { clock: systemClock });
    env = envOf(h.context.config, { JOBS_IN_PROCESS: 'false' });
    serve = await processes.serve(env);
    const database = h.context.config.database;
    locker = new pg.Client({ connectionString: database.dialect === 'postgres' ? database.url : '' });
    await locker.connect();
  });
  afterAll(async () => {
    await processes.stopAll();
    await locker?.end();
    await h?.close();
  });

  /**
   * Waits until a request's statement waits for the lock the test holds on `table` (it is inside its
   * transaction). Read from pg_locks: a statement blocked while it is parsed shows in pg_stat_activity
   * with the previous statement's text.
   */
  const waitForBlocked = (table: string) =>
    waitFor(`a statement waiting for the lock on ${table}`, async () => {
      const { rows } = await locker.query<{ n: string }>(
        'select count(*) as n from pg_locks where not granted and relation = $1::regclass',
        [table],
      );
      return Number(rows[0]!.n) > 0;
    });
  const restart = async () => {
    await serve.kill9();
    serve = await processes.serve(env);
  };

  it('leaves no book of a zip import and takes the same upload after a restart', async () => {
    const dataDir = h.context.config.dataDir;
    const first = await makeStaff(h, ['catalogAdmin'], 'crashimport');
    const second = await makeStaff(h, ['catalogAdmin'], 'crashimport');
    const kept = await makeBook(h, { volumes: [1], sourceKey: 'crash:kept' });
    const noise = () =>
      sharp(randomBytes(400 * 400 * 3), { raw: { width: 400, height: 400, channels: 3 } })
        .png()
        .toBuffer();
    const zip = makeZip({
      'metadata.json': JSON.stringify({
        sourceKey: 'crash:import',
        title: '中斷之書',
        volumes: [{ name: '卷一', images: 'v1' }],
      }),
      'v1/1.png': await noise(),
      'v1/2.png': await noise(),
    });
    const { payload, contentType } = multipartFile('file', 'package.zip', zip, 'application/zip');
    const upload = (user: MadeUser, writeFirst?: number) =>
      send(serve, 'POST', '/api/admin/import', {
        cookie: user.cookie,
        body: payload,
        contentType,
        ...(writeFirst === undefined ? {} : { writeFirst }),
      });

    // 1. Killed while the package is still arriving: half of it is on disk in an upload folder.
    const arriving = upload(first, payload.length >> 1);
    const tmp = path.join(dataDir, 'tmp');
    await waitFor('the package on disk', () =>
      fs.existsSync(tmp)
        ? fs.readdirSync(tmp).some((d) => fs.statSync(path.join(tmp, d)).isDirectory())
        : false,
    );
    await restart();
    await expect(arriving.answer).rejects.toThrow();
    expect(await h.context.repos.catalog.findBookBySourceKey('crash:import')).toBeUndefined();
    expect(masterFolders(dataDir, 'crash_import-')).toEqual([]);

    // 2. Killed inside the transaction that writes the book, its masters already stored.
    await locker.query('begin');
    await locker.query('lock table books in share mode');
    const writing = upload(second);
    await waitForBlocked('books');
    expect(masterFolders(dataDir, 'crash_import-')).toHaveLength(1);
    await restart();
    await locker.query('rollback');
    await expect(writing.answer).rejects.toThrow();
    expect(await h.context.repos.catalog.findBookBySourceKey('crash:import')).toBeUndefined();

    // What the two leave behind is removed by the daily purge (here: as if a day had passed), the
    // masters of the books that were imported are not.
    const dayLater = Date.now() + 1000;
    expect(await removeStaleTempDirs(dataDir, dayLater)).toBeGreaterThanOrEqual(1);
    expect(await removeOrphanMasters(h.context.storage, h.context.repos.catalog, dayLater)).toBe(1);
    expect(masterFolders(dataDir, 'crash_import-')).toEqual([]);
    expect(masterFolders(dataDir, 'crash_kept-')).toHaveLength(1);
    const keptPage = (await h.context.repos.catalog.findPage(kept.pageIds[0]!))!;
    expect(fs.existsSync(h.context.storage.localPath(keptPage.master_key)!)).toBe(true);

    // 3. The same upload to the restarted process: the whole book, once. (A killed upload holds its
    // user's upload slot for a minute; each user has two.)
    const retried = await upload(second).answer;
    expect(retried.status, retried.body).toBe(200);
    const book = await h.context.repos.catalog.findBookBySourceKey('crash:import');
    expect(book).toBeDefined();
    expect(await h.context.repos.catalog.pageFiles({ bookId: book!.id })).toHaveLength(2);
    expect(masterFolders(dataDir, 'crash_import-')).toHaveLength(1);
    // The pages' jobs were committed with them.
    const jobs = await h.context.repos.jobs.page({ status: 'queued', offset: 0, limit: 100 });
    const pages = (await h.context.repos.catalog.pageFiles({ bookId: book!.id })).map((p) => p.id);
    for (const pageId of pages)
      expect(jobs.rows.some((j) => j.data === JSON.stringify({ pageId }))).toBe(true);
  });

  it('leaves no order of a checkout and takes the same checkout after a restart', async () => {
    const reader = await makeReader(h, 'crashcheckout');
    const book = await makeBook(h, { volumes: [3] });
    const as = { cookie: reader.cookie, remoteAddress: '203.0.113.9' };
    const added = await h.request({
      method: 'POST',
      url: '/api/print/items',
      body: { fascicleId: book.volumeIds[0], from: 1, to: 3 },
      ...as,
    });
    expect(added.statusCode, added.body).toBe(200);
    const itemIds = (await h.request({ method: 'GET', url: '/api/print/items?tab=unpaid', ...as }))
      .json<{ records: Array<{ id: number }> }>()
      .records.map((item) => item.id);
    expect(itemIds).toHaveLength(3);
    const checkout = () =>
      send(serve, 'POST', '/api/print/orders', {
        cookie: reader.cookie,
        body: Buffer.from(JSON.stringify({ itemIds, extract: 0, payment: 0 })),
        contentType: 'application/json',
      });
    const state = async () => {
      const { rows } = await locker.query<{ order_id: number | null; pay_status: number }>(
        'select order_id, pay_status from print_items where id = any($1) order by id',
        [itemIds],
      );
      const orders = await locker.query<{ n: string }>(
        'select count(*) as n from print_orders o join users u on u.id = o.user_id where u.login_name = $1',
        [reader.loginName],
      );
      return { items: rows, orders: Number(orders.rows[0]!.n) };
    };

    // Killed inside the checkout's transaction: the order row is written, the items not yet moved.
    await locker.query('begin');
    await locker.query('lock table print_items in share mode');
    const paying = checkout();
    await waitForBlocked('print_items');
    await restart();
    await locker.query('rollback');
    await expect(paying.answer).rejects.toThrow();
    // Nothing of it: no order, every item unpaid and in no order.
    expect(await state()).toEqual({
      items: itemIds.map(() => ({ order_id: null, pay_status: 0 })),
      orders: 0,
    });

    // The same checkout to the restarted process: one order with all three items.
    const retried = await checkout().answer;
    expect(retried.status, retried.body).toBe(200);
    expect(JSON.parse(retried.body)).toMatchObject({ totalPage: 3, payStatus: 0 });
    const after = await state();
    expect(after.orders).toBe(1);
    expect(new Set(after.items.map((item) => item.order_id)).size).toBe(1);
    expect(after.items[0]!.order_id).not.toBeNull();
  });
});
