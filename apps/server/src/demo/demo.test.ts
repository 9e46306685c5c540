import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers.ts';
import { importDemoLibrary, type DemoResult } from './demo.ts';
import { OcrJson } from '@guji/shared';

describe('demo library import', () => {
  let t: TestContext;
  let result: DemoResult;
  beforeAll(async () => {
    t = await createTestContext('sqlite');
    result = await importDemoLibrary(t.context);
  }, 120_000);
  afterAll(async () => t.close());

  it('imports six books with volumes, chapters and classifications, open and reading-room only', async () => {
    expect(result.books).toBe(6);
    const { rows } = await t.context.repos.catalog.searchBooks({ visibleOnly: true, offset: 0, limit: 20 });
    expect(rows.map((b) => [b.title, b.is_open]).sort()).toEqual(
      [
        ['中庸', 0],
        ['千字文', 1],
        ['大學', 1],
        ['孟子', 0],
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

  it('stores ground-truth OCR JSON in the spec’s format for every page', async () => {
    const { rows } = await t.context.repos.catalog.searchBooks({ visibleOnly: true, offset: 0, limit: 20 });
    let pages = 0;
    for (const book of rows) {
      for (const volume of await t.context.repos.catalog.listVolumes(book.id)) {
        for (const page of await t.context.repos.catalog.listPages(volume.id)) {
          pages++;
          const ocr = OcrJson.parse(JSON.parse(page.ocr_json ?? 'null'));
          expect(ocr.imginfo).toEqual({ width: page.width, height: page.height });
        }
      }
    }
    expect(pages).toBe(result.leaves);
    const first = await t.context.repos.catalog.findPage(1);
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
    expect(total).toBe(6);
  }, 120_000);
});
