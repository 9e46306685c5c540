import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageImage } from '../../test/catalog-factory.ts';
import { VerticalPageEngine } from './engine.ts';
import { ThreadedOcrEngine } from './engine-thread.ts';

describe('OCR engine in its own thread', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-ocr-thread-'));
  let threaded: ThreadedOcrEngine;
  beforeAll(async () => {
    threaded = await ThreadedOcrEngine.create();
  });
  afterAll(async () => {
    await threaded.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads a page as the engine does on the calling thread, and says which engine it is', async () => {
    const file = path.join(dir, 'page.png');
    fs.writeFileSync(file, await pageImage(4, 800, 600));
    expect(threaded.name).toBe(VerticalPageEngine.describe().engine);
    const local = await VerticalPageEngine.create();
    try {
      expect(await threaded.recognize(file)).toEqual(await local.recognize(file));
    } finally {
      await local.close();
    }
  });

  it('answers a page it cannot read with an error, and goes on with the next', async () => {
    await expect(threaded.recognize(path.join(dir, 'missing.png'))).rejects.toThrow(/missing\.png/);
    const file = path.join(dir, 'next.png');
    fs.writeFileSync(file, await pageImage(2, 600, 400));
    expect((await threaded.recognize(file)).ocr.imginfo).toEqual({ width: 600, height: 400 });
  });

  it('starts a new thread when its thread is gone', async () => {
    const engine = await ThreadedOcrEngine.create();
    await engine.close();
    const file = path.join(dir, 'again.png');
    fs.writeFileSync(file, await pageImage(1, 600, 400));
    expect((await engine.recognize(file)).ocr.imginfo).toEqual({ width: 600, height: 400 });
    await engine.close();
  });
});
