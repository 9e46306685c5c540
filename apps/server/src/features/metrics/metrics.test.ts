import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { runInRequest } from '../../lib/request-context.ts';

const TOKEN = 'metrics-token-for-tests';

describe('GET /metrics', () => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await createHttpHarness('sqlite', { METRICS_TOKEN: TOKEN });
  });
  afterAll(() => h.close());

  it('refuses a scraper without the token, or with a wrong one', async () => {
    const none = await h.request({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.json()).toMatchObject({ message: '需要正确的指标令牌（METRICS_TOKEN）' });
    const wrong = await h.request({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('guji_');
  });

  it('gives request latency by route pattern, the job queue and job durations by kind', async () => {
    await h.request({ method: 'GET', url: '/api/site' });
    await h.request({ method: 'GET', url: '/api/books/987654' });
    await h.context.queue.enqueue('maintenance.purge', {}, { tx: h.context.database.db });
    await h.context.queue.enqueue('maintenance.purge', {}, { tx: h.context.database.db });
    await h.context.createWorker(h.app.log).runOnce();

    const response = await h.request({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const text = response.body;
    expect(text).toMatch(
      /guji_http_request_duration_seconds_count\{method="GET",route="\/api\/site",status="200"\} 1/,
    );
    // A route pattern, not the address asked for: one series however many books there are.
    expect(text).toMatch(/route="\/api\/books\/:catalogId",status="404"\}/);
    expect(text).not.toContain('/api/books/987654');
    expect(text).toMatch(/guji_jobs\{status="queued"\} 1/);
    expect(text).toMatch(/guji_jobs\{status="succeeded"\} 1/);
    expect(text).toMatch(/guji_job_duration_seconds_count\{kind="maintenance.purge",outcome="succeeded"\} 1/);
    expect(text).toContain('guji_ocr_pages_total 0');
    expect(text).toContain('guji_process_resident_memory_bytes');
    // SQLite has no pool; its gauge has no series.
    expect(text).not.toMatch(/guji_db_pool_connections\{/);
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  it('is not served at all', async () => {
    const h = await createHttpHarness('sqlite');
    try {
      const response = await h.request({ method: 'GET', url: '/metrics' });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('guji_');
    } finally {
      await h.close();
    }
  });
});

describe('request ids', () => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await createHttpHarness('sqlite');
  });
  afterAll(() => h.close());

  it('answers each request with an id of its own, or the proxy’s when it sent a sound one', async () => {
    const a = await h.request({ method: 'GET', url: '/api/site' });
    const b = await h.request({ method: 'GET', url: '/api/site' });
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    const kept = await h.request({
      method: 'GET',
      url: '/api/site',
      headers: { 'x-request-id': 'nginx-7f3a9c' },
    });
    expect(kept.headers['x-request-id']).toBe('nginx-7f3a9c');
    const hostile = await h.request({
      method: 'GET',
      url: '/api/site',
      headers: { 'x-request-id': 'a b\u0007<script>' },
    });
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('follows a job the request queued into the worker’s log lines', async () => {
    const id = await runInRequest({ requestId: 'req-upload-42' }, () =>
      h.context.queue.enqueue('maintenance.purge', {}, { tx: h.context.database.db }),
    );
    const lines: string[] = [];
    const logger = Fastify({
      logger: {
        level: 'info',
        stream: new Writable({
          write(chunk: Buffer, _encoding, done) {
            lines.push(chunk.toString());
            done();
          },
        }),
      },
    }).log;
    expect(await h.context.createWorker(logger).runOnce()).toBe(true);
    const record = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((r) => r.jobId === id);
    expect(record).toMatchObject({ reqId: 'req-upload-42', msg: 'job succeeded' });
  });
});

describe('liveness and readiness', () => {
  it('live while the process answers; ready while the database does', async () => {
    const h = await createHttpHarness('sqlite');
    try {
      expect((await h.request({ method: 'GET', url: '/api/health/live' })).json()).toEqual({ status: 'ok' });
      const ready = await h.request({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ok' });

      await h.context.database.destroy();
      const down = await h.request({ method: 'GET', url: '/api/health/ready' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: 'unavailable', reason: '数据库无法连接' });
      // Still alive: a supervisor must not restart a process for its database.
      expect((await h.request({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      await h.app.close();
    }
  });
});
