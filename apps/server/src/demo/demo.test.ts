import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers.ts';
import { createJobHandlers } from '../wiring/job-handlers.ts';
import { characterErrorRate } from '../ocr/cer.ts';
import { importDemoLibrary, type DemoResult } from './demo.ts';
import { OcrJson, pageText } from '@guji/shared';

describe('demo library import', () => {
  let t: TestContext;
  let result: DemoResult;
  beforeAll(async () => {
    t = await createTestContext('sqlite');
    result = await importDemoLibrary(t.context);
  }, 120_000);
  afterAll(async () => t.close());

  it('imports seven books with volumes, chapters and classifications, open and reading-room only', async () => {
    expect(result.books).toBe(7);
    const { rows } = await t.context.repos.catalog.searchBooks({ visibleOnly: true, offset: 0, limit: 20 });
    expect(rows.map((b) => [b.title, b.is_open]).sort()).toEqual(
      [
        ['中庸', 0],
        ['千字文', 1],
        ['大學', 1],
        ['孟子', 0],
        ['史記', 1],
        ['詩經', 1],
        ['論語', 1],
      ].sort(),
    );
    const lunyu = rows.find((b) => b.title === '論語')!;
    const volumes = await t.context.repos.catalog.listVolumes(lunyu.id);
    expect(volumes.map((v) => v.name)).toEqual(['卷一', '卷二']);
    const directory = await t.context.repos.catalog.listDirectory(volumes[0]!.id);
    expect(directory[0]).toMatchObject({ name: '學而第一', page_seq: 1 });
    const tree = await t.context.services.catalog.classificationTree();
    expect(tree.map((n) => n.dictionaryName)).toEqual(['經部', '史部', '子部', '集部']);
  });

  it('stores ground-truth OCR JSON in the spec’s format for every typeset page', async () => {
    const { rows } = await t.context.repos.catalog.searchBooks({ visibleOnly: true, offset: 0, limit: 20 });
    let pages = 0;
    for (const book of rows.filter((b) => b.title !== '史記')) {
      for (const volume of await t.context.repos.catalog.listVolumes(book.id)) {
        for (const page of await t.context.repos.catalog.listPages(volume.id)) {
          pages++;
          const ocr = OcrJson.parse(JSON.parse(page.ocr_json ?? 'null'));
          expect(ocr.imginfo).toEqual({ width: page.width, height: page.height });
        }
      }
    }
    expect(pages).toBe(result.leaves);
    // The first page of 論語 (found by title: a second import in another test gives new ids).
    const lunyu = rows.find((b) => b.title === '論語')!;
    const [firstVolume] = await t.context.repos.catalog.listVolumes(lunyu.id);
    const [first] = await t.context.repos.catalog.listPages(firstVolume!.id);
    const text = OcrJson.parse(JSON.parse(first!.ocr_json!))
      .ocr_res.content.map((line) => line.words.map((w) => w.word).join(''))
      .join('');
    expect(text).toContain('學而第一');
    expect(text).toContain('子曰學而時習之');
  });

  it('sets the collection introduction, and a second import replaces the books instead of adding', async () => {
    expect((await t.context.services.settings.get()).introduction).toContain('演示书库');
    await importDemoLibrary(t.context);
    const { total } = await t.context.repos.catalog.searchBooks({ visibleOnly: false, offset: 0, limit: 1 });
    expect(total).toBe(7);
  }, 120_000);

  it('holds a real scanned book without text, which the OCR job reads', async () => {
    expect(result.scannedLeaves).toBe(4);
    const { rows } = await t.context.repos.catalog.searchBooks({ visibleOnly: true, offset: 0, limit: 20 });
    const shiji = rows.find((b) => b.title === '史記')!;
    expect(shiji).toMatchObject({ is_open: 1, class_code: 'SHI.ZHENGSHI', call_number: 'DEMO-史-001' });
    const [volume] = await t.context.repos.catalog.listVolumes(shiji.id);
    const pages = await t.context.repos.catalog.listPages(volume!.id);
    expect(pages.map((p) => p.name)).toEqual(['第一葉前半', '第一葉後半', '第二葉前半', '第二葉後半']);
    expect(pages.every((p) => p.ocr_json === null)).toBe(true);
    expect((await t.context.repos.catalog.listDirectory(volume!.id))[0]).toMatchObject({
      name: '五帝本紀第一',
      page_seq: 1,
    });
    // Its pages are queued for OCR even with OCR_ON_INGEST off (as in the tests' configuration): queuing
    // them again adds no job.
    const queued = (await t.context.repos.jobs.countByStatus()).queued;
    for (const page of pages)
      await t.context.queue.enqueue(
        'ocr.page',
        { pageId: page.id },
        { dedupeKey: `ocr:${page.id}`, tx: t.context.database.db },
      );
    expect((await t.context.repos.jobs.countByStatus()).queued).toBe(queued);
    // The job the import queued for leaf 2a, run as the worker runs it: the page gets its text.
    const handlers = createJobHandlers(t.context);
    const job = {
      jobId: 0,
      attempt: 1,
      progress: () => Promise.resolve(),
      completeIn: () => Promise.resolve(),
    };
    await handlers['ocr.page']({ pageId: pages[2]!.id }, job);
    const read = OcrJson.parse(JSON.parse((await t.context.repos.catalog.findPage(pages[2]!.id))!.ocr_json!));
    const truth = fs.readFileSync(
      path.resolve(import.meta.dirname, '../../test/fixtures/ocr-real/shiji-wyg-001-2a.gt.txt'),
      'utf8',
    );
    expect(characterErrorRate(truth.replace(/\s+/g, ''), pageText(read))).toBeLessThan(0.4);
  }, 120_000);
});
