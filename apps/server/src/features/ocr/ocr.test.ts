import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OcrJson } from '@guji/shared';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { createBook } from '../../../test/catalog-factory.ts';
import { makeReader } from '../../../test/factories.ts';

const READING_ROOM = '10.8.0.5';

describe.each(DIALECTS)('proofreading OCR text over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  let book: Awaited<ReturnType<typeof createBook>>;
  let staff: string;
  let reader: string;
  beforeAll(async () => {
    h = await createHttpHarness(dialect, { READING_ROOM_CIDRS: '10.8.0.0/16' });
    await h.context.services.auth.upsertAccount({
      loginName: 'ocrstaff',
      password: GOOD_PASSWORD,
      roles: ['reader', 'catalogAdmin'],
    });
    staff = (await h.login('ocrstaff', GOOD_PASSWORD)).cookie;
    reader = (await makeReader(h, 'ocrreader')).cookie;
  });
  // Each test proofreads a book of its own.
  beforeEach(async () => {
    book = await createBook(h.context, { title: '論語', volumes: [1], texts: [['子曰學而時習之']] });
  });
  afterAll(async () => h.close());

  const pageId = () => book.pageIds[0]!;
  const current = async () =>
    (await h.request({ method: 'GET', url: `/api/pages/${pageId()}/ocr`, cookie: staff })).json<{
      ocr: OcrJson;
    }>().ocr;
  const search = async (text: string) =>
    (
      await h.request({
        method: 'GET',
        url: `/api/search/full-text?text=${encodeURIComponent(text)}`,
        remoteAddress: READING_ROOM,
        cookie: staff, // full-text search is for signed-in readers (issue 13 item 11)
      })
    ).json<{ total: number }>().total;

  it('saves a corrected character as a new version; the old text stays as version 1; search follows', async () => {
    const learned = await search('曰學');
    const ocr = await current();
    ocr.ocr_res.content[0]!.words[2]!.word = '斆'; // 學 misread, corrected to a variant
    const saved = await h.request({
      method: 'PUT',
      url: `/api/pages/${pageId()}/ocr`,
      cookie: staff,
      body: { ocr },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ imageId: pageId(), version: 2 });
    expect((await current()).ocr_res.content[0]!.words[2]!.word).toBe('斆');
    expect(await search('曰斆')).toBe(1);
    expect(await search('曰學')).toBe(learned - 1);

    const versions = (
      await h.request({ method: 'GET', url: `/api/pages/${pageId()}/ocr/versions`, cookie: staff })
    ).json<{
      place: unknown;
      versions: Array<{ version: number; source: string; createdBy: string | null; characters: number }>;
    }>();
    // Where the page is, for the proofreader's heading and its way back to the book (issue 32).
    expect(versions.place).toEqual({
      catalogId: book.bookId,
      title: '論語',
      fascicleId: book.volumeIds[0],
      volumeName: '卷一',
      pageNumber: 1,
      pageName: '第1葉',
    });
    expect(versions.versions).toEqual([
      expect.objectContaining({ version: 2, source: 'proofread', createdBy: 'ocrstaff', characters: 7 }),
      expect.objectContaining({ version: 1, source: 'original', createdBy: null, characters: 7 }),
    ]);

    // Restoring version 1 is a new version 3: nothing saved is lost.
    const restored = await h.request({
      method: 'POST',
      url: `/api/pages/${pageId()}/ocr/versions/1/restore`,
      cookie: staff,
    });
    expect(restored.json()).toMatchObject({ version: 3 });
    expect(await search('曰學')).toBe(learned);
    expect(await search('曰斆')).toBe(0);
  });

  it('lets only catalogue staff (or the book’s owner) proofread', async () => {
    const ocr = await current();
    expect(
      (await h.request({ method: 'PUT', url: `/api/pages/${pageId()}/ocr`, cookie: reader, body: { ocr } }))
        .statusCode,
    ).toBe(403);
    expect(
      (await h.request({ method: 'PUT', url: `/api/pages/${pageId()}/ocr`, body: { ocr } })).statusCode,
    ).toBe(401);
    expect(
      (await h.request({ method: 'GET', url: `/api/pages/${pageId()}/ocr/versions`, cookie: reader }))
        .statusCode,
    ).toBe(403);
  });

  it('refuses a result for another image size, and changes nothing', async () => {
    const ocr = await current();
    const bad = await h.request({
      method: 'PUT',
      url: `/api/pages/${pageId()}/ocr`,
      cookie: staff,
      body: { ocr: { ...ocr, imginfo: { width: 10, height: 10 } } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe('识别结果的图像尺寸（10×10）与本页（600×400）不符');
    expect(await current()).toEqual(ocr);
  });

  it('exports ALTO, hOCR and text to readers, and imports them back as a version', async () => {
    const alto = await h.request({
      method: 'GET',
      url: `/api/pages/${pageId()}/ocr/export?format=alto`,
      cookie: reader,
    });
    expect(alto.statusCode).toBe(200);
    expect(alto.headers['content-type']).toContain('application/xml');
    expect(alto.headers['content-disposition']).toContain('.alto.xml');
    const text = await h.request({
      method: 'GET',
      url: `/api/pages/${pageId()}/ocr/export?format=txt`,
      cookie: reader,
    });
    expect(text.body).toBe('子曰學而時習之\n');
    expect(
      (await h.request({ method: 'GET', url: `/api/pages/${pageId()}/ocr/export?format=hocr` })).statusCode,
    ).toBe(401);

    const edited = alto.body.replace('CONTENT="習"', 'CONTENT="习"');
    const imported = await h.request({
      method: 'POST',
      url: `/api/pages/${pageId()}/ocr/import`,
      cookie: staff,
      body: { format: 'alto', content: edited },
    });
    expect(imported.statusCode).toBe(200);
    expect((await current()).ocr_res.content[0]!.words[5]!.word).toBe('习');
    const broken = await h.request({
      method: 'POST',
      url: `/api/pages/${pageId()}/ocr/import`,
      cookie: staff,
      body: { format: 'hocr', content: '<html></html>' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json<{ message: string }>().message).toBe('hOCR 文件缺少页面（ocr_page）及其 bbox');
  });
});
