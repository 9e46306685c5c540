import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { makeBook, makeReader, type MadeUser } from '../../test/factories.ts';
import { createHttpHarness, type HttpHarness } from '../../test/http.ts';
import { startOwnPostgres, type OwnPostgres } from '../../test/own-postgres.ts';

interface Sample {
  /** Which kind of request (index into `kinds`). */
  kind: number;
  phase: 'up' | 'down' | 'back';
  status: number;
  code: string | undefined;
  message: string | undefined;
  ms: number;
}

/**
 * Issue 17 part 5: the PostgreSQL server is restarted (a fast shutdown, then a start) while readers keep
 * asking for books, their account and their collection, and the process's own worker polls for jobs.
 * While it is down every request is answered at once with 503 and a clear Chinese message (never a 500,
 * never a hang), the process lives on, and once it is back every kind of request succeeds again without
 * a restart of the process. A PostgreSQL server of this test's own, so no other test sees the restart.
 */
describe('PostgreSQL restarted under load', () => {
  let server: OwnPostgres;
  let h: HttpHarness;
  let reader: MadeUser;
  let bookId: number;
  beforeAll(async () => {
    server = await startOwnPostgres();
    h = await createHttpHarness('postgres', {}, {}, { postgresAdminUrl: server.url, runWorker: true });
    bookId = (await makeBook(h, { volumes: [1] })).bookId;
    reader = await makeReader(h, 'restart');
  });
  afterAll(async () => {
    await h?.close();
    await server?.close();
  });

  it('answers 503 at once while it is down and recovers once it is back', async () => {
    const kinds = [
      () => h.request({ method: 'GET', url: `/api/books/${bookId}` }),
      () => h.request({ method: 'GET', url: '/api/me', cookie: reader.cookie }),
      () => h.request({ method: 'PUT', url: `/api/books/${bookId}/collect`, cookie: reader.cookie }),
    ];
    let phase: Sample['phase'] = 'up';
    let running = true;
    const samples: Sample[] = [];
    const loop = async (kind: number) => {
      const send = kinds[kind]!;
      while (running) {
        const started = performance.now();
        const response = await send();
        const body = response.json<{ code?: string; message?: string }>();
        samples.push({
          kind,
          // The phase in which the answer came (one sent before the shutdown may be answered after it).
          phase,
          status: response.statusCode,
          code: body.code,
          message: body.message,
          ms: performance.now() - started,
        });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    // Two readers per kind of request.
    const load = Promise.all([0, 1, 2, 0, 1, 2].map((kind) => loop(kind)));
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    await pause(500);
    phase = 'down';
    await server.stop();
    await pause(1500);
    const health = await h.request({ method: 'GET', url: '/api/health' });
    const live = await h.request({ method: 'GET', url: '/api/health/live' });
    await server.start();
    phase = 'back';
    // Back: wait until every kind has succeeded after the restart, then a little more load.
    const until = Date.now() + 20_000;
    const recovered = () =>
      kinds.every((_, kind) =>
        samples.some((s) => s.phase === 'back' && s.status === 200 && s.kind === kind),
      );
    while (!recovered() && Date.now() < until) await pause(100);
    await pause(300);
    running = false;
    await load;

    const of = (p: Sample['phase']) => samples.filter((s) => s.phase === p);
    expect(of('up').length).toBeGreaterThan(0);
    expect(of('up').filter((s) => s.status !== 200)).toEqual([]);
    // Down: a clear 503 (or, for a request that got its answer before the shutdown, a 200), quickly.
    const down = of('down');
    expect(down.filter((s) => s.status === 503).length).toBeGreaterThan(3);
    for (const s of down) {
      expect([200, 503]).toContain(s.status);
      if (s.status === 503)
        expect(s).toMatchObject({ code: 'DATABASE_UNAVAILABLE', message: MSG.databaseUnavailable });
      expect(s.ms).toBeLessThan(3000);
    }
    expect(health.statusCode).toBe(503);
    expect(live.statusCode).toBe(200);
    // Back: nothing but 200 and 503, and the last requests of every reader succeed.
    const back = of('back');
    expect(back.every((s) => s.status === 200 || s.status === 503)).toBe(true);
    expect(back.slice(-kinds.length * 2).every((s) => s.status === 200)).toBe(true);
    const me = await h.request({ method: 'GET', url: '/api/me', cookie: reader.cookie });
    expect(me.statusCode).toBe(200);
  });
});
