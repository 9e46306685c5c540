import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidRealName, yuan } from '@guji/shared';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { makeBook, makePrintOrder, makeReader, makeStaff } from '../../../test/factories.ts';
import { drawnChars, embeddedFonts, pdfPageTexts, squeeze } from '../../../test/pdf.ts';

/**
 * The print file's cover sheet and page stamps are real text (issue 16): a PDF text extractor reads the
 * reader's name, the site's name and the order's lines verbatim, and every one of their characters is
 * drawn from an embedded font, simplified, traditional and rare (CJK Ext. B) alike.
 */
describe.each(DIALECTS)('print PDF text (%s)', (dialect) => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
  });
  afterAll(() => h.close());

  it('has the cover sheet and stamps as text, every character drawn from an embedded font', async () => {
    // Simplified 张, traditional 麗, 𠮷 (U+20BB7, CJK Ext. B): a real name the rule accepts.
    const realName = '张麗𠮷';
    expect(isValidRealName(realName)).toBe(true);
    const reader = await makeReader(h, 'pdftextreader', { realName });
    const desk = await makeStaff(h, ['printAdmin'], 'pdftextdesk');
    const book = await makeBook(h, { volumes: [2] });
    const order = await makePrintOrder(h, reader, book, 2);
    const d = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      h.request({ method, url, body, cookie: desk.cookie });
    const items = (await d('GET', `/api/admin/print/orders/${order.orderNum}/items`)).json<
      Array<{ id: number; title: string }>
    >();
    const ids = items.map((i) => i.id);
    expect((await d('POST', '/api/admin/print/items/confirm-payment', { ids })).statusCode).toBe(200);
    const printed = (await d('POST', '/api/admin/print/items/printed', { ids })).json<{ pdfUrl: string }>();
    const file = await d('GET', printed.pdfUrl);
    expect(file.headers['content-type']).toBe('application/pdf');
    const bytes = new Uint8Array(file.rawPayload);

    const text = await pdfPageTexts(bytes);
    // A cover sheet and the two pages.
    expect(text).toHaveLength(3);
    const title = items[0]!.title;
    const cover = [
      '古籍数字图书馆',
      `打印订单 ${order.orderNum}`,
      `读者：${realName}  ${reader.phone}`,
      '取件：到馆自取',
      `支付：现金  合计 ¥${yuan(order.totalFen)}  本次打印 2 页`,
      '发票：不需要',
      `1. 《${title}》卷一 第 1 页`,
      `2. 《${title}》卷一 第 2 页`,
    ];
    for (const line of cover) expect(text[0]).toContain(squeeze(line));
    const stamps = [`${order.orderNum} · ${title} · 1`, `${order.orderNum} · ${title} · 2`];
    expect(text[1]).toContain(stamps[0]);
    expect(text[2]).toContain(stamps[1]);

    const fonts = await embeddedFonts(bytes);
    expect(fonts.length).toBeGreaterThan(0);
    for (const line of [...cover, ...stamps]) {
      expect(drawnChars(fonts, line).join('')).toBe(line.replace(/\s/g, ''));
    }
  });
});
