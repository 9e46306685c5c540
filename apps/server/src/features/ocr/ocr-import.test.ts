import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OCR_IMPORT_MAX_CHARS } from '@guji/shared';
import { createHttpHarness, GOOD_PASSWORD, type HttpHarness } from '../../../test/http.ts';
import { createBook } from '../../../test/catalog-factory.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { makeReader } from '../../../test/factories.ts';

/** The request of issue 13: an unclosed TextBlock 64,000 times (about 700 KB). */
const HOSTILE_ALTO = '<Page WIDTH="10" HEIGHT="10">' + '<TextBlock>'.repeat(64_000);
/** About 770 KB of empty, well-formed blocks: read to the end, a slice per turn of the event loop. */
const FLAT_ALTO = '<Page WIDTH="10" HEIGHT="10">' + '<TextBlock/>'.repeat(64_000);
/** About 600 KB of hOCR paragraphs (each `<p>` closes the one before): quadratic for the old regexes. */
const HOSTILE_HOCR = '<div class="ocr_page" title="bbox 0 0 10 10">' + '<p class="ocr_par">'.repeat(31_000);

describe.each(DIALECTS)('importing hostile ALTO and hOCR on %s', (dialect) => {
  let h: HttpHarness;
  let pageId: number;
  let staff: string;
  let reader: string;
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    const book = await createBook(h.context, { title: '孝經', volumes: [1], texts: [['仲尼居曾子侍']] });
    pageId = book.pageIds[0]!;
    await h.context.services.auth.upsertAccount({
      loginName: 'importstaff',
      password: GOOD_PASSWORD,
      roles: ['reader', 'catalogAdmin'],
    });
    staff = (await h.login('importstaff', GOOD_PASSWORD)).cookie;
    reader = (await makeReader(h, 'importreader')).cookie;
  });
  afterAll(async () => h.close());

  const importing = (format: 'alto' | 'hocr', content: string, cookie?: string) =>
    h.request({
      method: 'POST',
      url: `/api/pages/${pageId}/ocr/import`,
      body: { format, content },
      ...(cookie ? { cookie } : {}),
    });
  const versions = async () =>
    (await h.request({ method: 'GET', url: `/api/pages/${pageId}/ocr/versions`, cookie: staff })).json<{
      versions: unknown[];
    }>().versions.length;

  it('answers who may not change the page before reading the file', async () => {
    const before = await versions();
    // An unreadable file would be a 400: the 401 and 403 show that nothing was parsed.
    const anonymous = await importing('alto', HOSTILE_ALTO);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json<{ message: string }>().message).toBe('请先登录');
    expect((await importing('hocr', '<html></html>')).statusCode).toBe(401);
    const stranger = await importing('alto', HOSTILE_ALTO, reader);
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json<{ message: string }>().message).toBe('只有编目人员或本书的上传者可以校对文字');
    expect(await versions()).toBe(before);
  });

  it('refuses the issue’s 700 KB of unclosed TextBlocks at once, while /api/health answers', async () => {
    const before = await versions();
    const [imported, health] = await Promise.all([
      importing('alto', HOSTILE_ALTO, staff),
      h.request({ method: 'GET', url: '/api/health' }),
    ]);
    expect(health.statusCode).toBe(200);
    expect(imported.statusCode).toBe(400);
    expect(imported.json()).toEqual({
      code: 'OCR_IMPORT_INVALID',
      message: 'ALTO 文件的元素嵌套过深（超过 64 层），无法导入',
    });
    expect(await versions()).toBe(before);
  });

  it.each([
    ['alto', FLAT_ALTO, 'ALTO 文件中没有文字（String）'],
    ['hocr', HOSTILE_HOCR, 'hOCR 文件中没有文字（ocrx_word）'],
  ] as const)(
    'reads %s markup of 600–800 KB to the end without holding up /api/health',
    async (format, content, message) => {
      const finished: string[] = [];
      const imported = importing(format, content, staff).then((response) => {
        finished.push('import');
        return response;
      });
      // Asked for after the import started; answered before the import is done with its file.
      const health = await h.request({ method: 'GET', url: '/api/health' });
      finished.push('health');
      expect(health.statusCode).toBe(200);
      const response = await imported;
      expect(finished).toEqual(['health', 'import']);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(message);
    },
  );

  it('refuses a file over the cap with a Chinese message, and 5 MB bodies unread', async () => {
    const before = await versions();
    const tooLong = await importing('hocr', ' '.repeat(OCR_IMPORT_MAX_CHARS + 1), staff);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json<{ message: string }>().message).toBe(
      '文件过大：一页的 ALTO 或 hOCR 文件不能超过 200 万字符（约 2 MB）',
    );
    const fiveMb = await importing('alto', '<TextBlock>'.repeat(460_000), staff);
    expect(fiveMb.statusCode).toBe(413);
    expect(fiveMb.json<{ message: string }>().message).toBe('上传的文件过大');
    expect(await versions()).toBe(before);
  });

  it('imports a namespaced ALTO v3 file as a new version', async () => {
    const alto = `<?xml version="1.0" encoding="UTF-8"?>
<alto xmlns="http://www.loc.gov/standards/alto/ns-v3#"><Description><MeasurementUnit>pixel</MeasurementUnit></Description>
<Layout><Page WIDTH="600" HEIGHT="400"><PrintSpace><TextBlock ID="b1"><TextLine>
<String CONTENT="仲尼居" HPOS="560" VPOS="20" WIDTH="20" HEIGHT="60" WC="0.9"/></TextLine></TextBlock></PrintSpace></Page></Layout></alto>`;
    const imported = await importing('alto', alto, staff);
    expect(imported.statusCode).toBe(200);
    expect(
      imported
        .json<{ ocr: { ocr_res: { content: Array<{ words: Array<{ word: string }> }> } } }>()
        .ocr.ocr_res.content[0]!.words.map((w) => w.word),
    ).toEqual(['仲', '尼', '居']);
  });
});
