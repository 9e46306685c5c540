import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageText, type OcrJson } from '@guji/shared';
import { DIALECTS } from '../../test/helpers.ts';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../test/http.ts';
import { createBook, ocrFor } from '../../test/catalog-factory.ts';
import type { OcrEngine } from '../ocr/engine.ts';
import { nowIso } from '../db/database.ts';
import { createJobHandlers } from './job-handlers.ts';
import type { JobDataMap } from '../jobs/registry.ts';
import { JobWorker, type JobHandlers } from '../jobs/worker.ts';

const READING_ROOM = '10.8.0.5';

/** A stand-in engine that "reads" a fixed text, so the job flow is tested without the model. */
function fakeEngine(text: string): () => Promise<OcrEngine> {
  return () =>
    Promise.resolve({
      name: 'fake',
      description: 'test engine',
      recognize: () => Promise.resolve({ ocr: ocrFor(text, 600, 400), warnings: [] }),
      close: () => Promise.resolve(),
    });
}

describe.each(DIALECTS)('OCR jobs on %s', (dialect) => {
  let h: HttpHarness;
  let staff: string;
  beforeAll(async () => {
    h = await createHttpHarness(
      dialect,
      { READING_ROOM_CIDRS: '10.8.0.0/16', OCR_ON_INGEST: 'true' },
      { ocrEngine: fakeEngine('天地玄黃宇宙洪荒') },
    );
    await h.context.services.auth.upsertAccount({
      loginName: 'jobstaff',
      password: GOOD_PASSWORD,
      roles: ['reader', 'catalogAdmin'],
    });
    staff = (await h.login('jobstaff', GOOD_PASSWORD)).cookie;
  });
  afterAll(async () => h.close());

  const search = async (text: string) =>
    (
      await h.request({
        method: 'GET',
        url: `/api/search/full-text?text=${encodeURIComponent(text)}`,
        remoteAddress: READING_ROOM,
        cookie: staff, // full-text search is for signed-in readers (issue 13 item 11)
      })
    ).json<{
      total: number;
    }>().total;

  it('reads imported pages that came without text, and their text becomes searchable', async () => {
    // Every page the fake engine reads says 玄黃: count what this book adds to what other tests made.
    const before = await search('玄黃');
    // The factory runs the worker until the queue is empty: pyramids and OCR.
    const book = await createBook(h.context, { title: '千字文', volumes: [2] });
    const ocr = (await h.context.repos.catalog.findPage(book.pageIds[0]!))!.ocr_json;
    expect(ocr).not.toBeNull();
    expect((await search('玄黃')) - before).toBe(2);
    const versions = await h.context.services.ocr.versions(book.pageIds[0]!, {
      userId: 1,
      roles: ['catalogAdmin'],
      readingRoom: false,
    });
    expect(versions.versions.map((v) => v.source)).toEqual(['ocr:fake']);
  });

  it('runs again on demand for a volume, as one idempotent job per page, keeping every version', async () => {
    const book = await createBook(h.context, {
      title: '急就篇',
      volumes: [3],
      texts: [['急就奇觚與眾異', '羅列諸物名姓字', '分別部居不雜廁']],
    });
    const run = await h.request({
      method: 'POST',
      url: '/api/ocr/run',
      cookie: staff,
      body: { scope: 'volume', id: book.volumeIds[0] },
    });
    expect(run.json()).toEqual({ queued: 3 });
    // Asking again before the worker ran queues nothing new (one job per page).
    await h.request({
      method: 'POST',
      url: '/api/ocr/run',
      cookie: staff,
      body: { scope: 'volume', id: book.volumeIds[0] },
    });
    const worker = h.context.createWorker(pino({ level: 'silent' }));
    let jobs = 0;
    while (await worker.runOnce()) jobs++;
    expect(jobs).toBe(3);
    const page = await h.context.repos.catalog.findPage(book.pageIds[1]!);
    expect(pageText(JSON.parse(page!.ocr_json!) as OcrJson)).toBe('天地玄黃宇宙洪荒');
    const versions = await h.context.services.ocr.versions(book.pageIds[1]!, {
      userId: 1,
      roles: ['catalogAdmin'],
      readingRoom: false,
    });
    expect(versions.versions.map((v) => v.source)).toEqual(['ocr:fake', 'original']);
    expect(
      (await h.request({ method: 'POST', url: '/api/ocr/run', body: { scope: 'book', id: book.bookId } }))
        .statusCode,
    ).toBe(401);
  });

  it('saves no version when another worker took its job over meanwhile (the version commits with the job)', async () => {
    const book = await createBook(h.context, { volumes: [1], texts: [['急就奇觚']] });
    const pageId = book.pageIds[0]!;
    const before = await h.context.repos.ocrVersions.list(pageId);
    const jobId = await h.context.queue.enqueue('ocr.page', { pageId }, { tx: h.context.database.db });
    const { jobs } = h.context.repos;
    const real = createJobHandlers(h.context);
    // While this worker reads the page, its lease is found stale and another worker claims the job.
    const handlers: JobHandlers<JobDataMap> = {
      ...real,
      'ocr.page': async (data, context) => {
        const taken = await jobs.claim('worker-b', nowIso(), nowIso(new Date(Date.now() + 60_000)));
        expect(taken?.id).toBe(jobId);
        return real['ocr.page'](data, context);
      },
    };
    const worker = new JobWorker<JobDataMap>(jobs, handlers, pino({ level: 'silent' }));
    expect(await worker.runOnce()).toBe(true);
    expect(await h.context.repos.ocrVersions.list(pageId)).toEqual(before);
    expect(await jobs.findById(jobId)).toMatchObject({ status: 'running', locked_by: 'worker-b' });
  });
});

describe.each(DIALECTS)('OCR job warnings on %s', (dialect) => {
  let h: HttpHarness;
  let staff: string;
  const warning = {
    code: 'little-text' as const,
    message: '版面找到了文字区域，但只识别出 2 个字（按行长约应有 40 字），可能有漏识，请核对。',
  };
  beforeAll(async () => {
    h = await createHttpHarness(
      dialect,
      { OCR_ON_INGEST: 'false' },
      {
        ocrEngine: () =>
          Promise.resolve({
            name: 'doubtful',
            description: 'reads little and says so',
            recognize: () => Promise.resolve({ ocr: ocrFor('天地', 600, 400), warnings: [warning] }),
            close: () => Promise.resolve(),
          }),
      },
    );
    await h.context.services.auth.upsertAccount({
      loginName: 'warnstaff',
      password: GOOD_PASSWORD,
      roles: ['reader', 'catalogAdmin'],
    });
    staff = (await h.login('warnstaff', GOOD_PASSWORD)).cookie;
  });
  afterAll(async () => h.close());

  it("keeps what the engine noticed with the job's result and the version, for the proofreader", async () => {
    const book = await createBook(h.context, { volumes: [1] });
    const pageId = book.pageIds[0]!;
    const jobId = await h.context.queue.enqueue('ocr.page', { pageId }, { tx: h.context.database.db });
    const worker = h.context.createWorker(pino({ level: 'silent' }));
    while (await worker.runOnce());
    const job = await h.context.repos.jobs.findById(jobId);
    expect(JSON.parse(job!.result!)).toMatchObject({ engine: 'doubtful', warnings: [warning] });
    const listed = await h.request({
      method: 'GET',
      url: `/api/pages/${pageId}/ocr/versions`,
      cookie: staff,
    });
    expect(listed.statusCode).toBe(200);
    const versions = listed.json<{ versions: Array<{ source: string; warnings: unknown[] }> }>().versions;
    expect(versions[0]).toMatchObject({ source: 'ocr:doubtful', warnings: [warning] });
    // A proofread version is the proofreader's: it carries no engine warning.
    const saved = await h.request({
      method: 'PUT',
      url: `/api/pages/${pageId}/ocr`,
      cookie: staff,
      body: { ocr: ocrFor('天地玄黃', 600, 400) },
    });
    expect(saved.statusCode).toBe(200);
    const after = (
      await h.request({ method: 'GET', url: `/api/pages/${pageId}/ocr/versions`, cookie: staff })
    ).json<{ versions: Array<{ source: string; warnings: unknown[] }> }>().versions;
    expect(after[0]).toMatchObject({ source: 'proofread', warnings: [] });
    expect(after[1]).toMatchObject({ source: 'ocr:doubtful', warnings: [warning] });
  });
});
