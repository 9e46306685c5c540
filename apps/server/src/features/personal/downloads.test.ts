import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { drawnChars, embeddedFonts, pdfPageTexts } from '../../../test/pdf.ts';
import { personalClient, personalData, type TestBook } from './personal-test-kit.ts';

describe.each(DIALECTS)('downloads over HTTP (%s)', (dialect) => {
  let h: HttpHarness;
  let alice: string;
  let bob: string;
  let open: TestBook;
  let closed: TestBook;
  const as = (cookie: string) => personalClient(h, cookie);

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    ({ alice, bob, open, closed } = await personalData(h));
  });
  afterAll(async () => h.close());

  it('downloads a page as a stamped JPEG and as text, a volume as PDF, and lists them; access rules apply', async () => {
    const a = as(alice);
    const jpg = await a.get(`/api/pages/${open.pageIds[0]}/download.jpg`);
    expect(jpg.statusCode).toBe(200);
    expect(jpg.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(jpg.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBe(600);
    expect(meta.height).toBeGreaterThan(400); // the footer band
    const txt = await a.get(`/api/pages/${open.pageIds[0]}/download.txt`);
    expect(txt.body).toContain('學而時習之');
    const pdf = await a.get(`/api/volumes/${open.volumeIds[0]}/download.pdf`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect((await PDFDocument.load(pdf.rawPayload)).getPageCount()).toBe(2);
    // Each page's footer is real text, every character drawn from an embedded font.
    const pages = await pdfPageTexts(new Uint8Array(pdf.rawPayload));
    const footers = pages.map((text) => /古籍数字图书馆 · \S+ · \d{4}年\d{1,2}月\d{1,2}日/.exec(text)?.[0]);
    expect(footers).toEqual([expect.any(String), expect.any(String)]);
    const fonts = await embeddedFonts(new Uint8Array(pdf.rawPayload));
    expect(drawnChars(fonts, footers[0]!).join('')).toBe(footers[0]!.replace(/\s/g, ''));

    const list = (await a.get('/api/me/downloads')).json<{
      total: number;
      records: Array<{ id: number; kind: string; url: string }>;
    }>();
    expect(list.total).toBe(3);
    expect(list.records.map((d) => d.kind)).toEqual(['pdf', 'text', 'image']);
    expect(list.records[2]!.url).toBe(`/api/pages/${open.pageIds[0]}/download.jpg`);

    // A restricted book outside the reading room: refused, and nothing recorded.
    const refused = await a.get(`/api/pages/${closed.pageIds[0]}/download.jpg`);
    expect(refused.statusCode).toBe(403);
    expect((await a.get(`/api/volumes/${closed.volumeIds[0]}/download.pdf`)).statusCode).toBe(403);
    expect(
      (await h.request({ method: 'GET', url: `/api/pages/${open.pageIds[0]}/download.jpg` })).statusCode,
    ).toBe(401);
    expect((await a.get('/api/me/downloads')).json<{ total: number }>().total).toBe(3);

    // Bob can neither see nor delete Alice's downloads.
    expect((await as(bob).get('/api/me/downloads')).json<{ total: number }>().total).toBe(0);
    expect((await as(bob).del(`/api/me/downloads/${list.records[0]!.id}`)).statusCode).toBe(404);
    expect((await a.del(`/api/me/downloads/${list.records[0]!.id}`)).statusCode).toBe(200);

    // The site can switch whole-volume PDFs off.
    await h.context.services.settings.update({ downloadVolumePdf: false });
    const off = await a.get(`/api/volumes/${open.volumeIds[0]}/download.pdf`);
    expect(off.statusCode).toBe(403);
    expect(off.json()).toMatchObject({ message: MSG.downloadVolumeOff });
    await h.context.services.settings.update({ downloadVolumePdf: true });
  });
  it('dates the stamp by the library’s day (Asia/Shanghai), not the server’s UTC one (issue 32)', async () => {
    // 17:00 UTC on 1 June is 01:00 on 2 June in Shanghai.
    h.clock.advance(9 * 3600);
    try {
      const pdf = await as(alice).get(`/api/volumes/${open.volumeIds[0]}/download.pdf`);
      expect(pdf.statusCode).toBe(200);
      const [first] = await pdfPageTexts(new Uint8Array(pdf.rawPayload));
      expect(first).toMatch(/古籍数字图书馆 · \S+ · 2026年6月2日/);
    } finally {
      h.clock.advance(-9 * 3600);
    }
  });

  it('builds one volume PDF at a time per reader and a few per process: more get 429 with Retry-After', async () => {
    // Issue 30 item 10: eight at once by one reader took 330 MB and held health up to 973 ms.
    const url = `/api/volumes/${open.volumeIds[0]}/download.pdf`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => as(alice).get(url)));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200).length).toBeGreaterThanOrEqual(1);
    expect(codes.every((c) => c === 200 || c === 429)).toBe(true);
    const busy = answers.find((r) => r.statusCode === 429);
    expect(busy?.json()).toMatchObject({ message: '您已有一册 PDF 正在生成，请等它下载完成后再下载下一册' });
    expect(busy?.headers['retry-after']).toBe('10');
    // Once the build is over, the next one goes through.
    expect((await as(alice).get(url)).statusCode).toBe(200);
    // Another reader is not held up by Alice's build.
    const [mine, theirs] = await Promise.all([as(alice).get(url), as(bob).get(url)]);
    expect([mine.statusCode, theirs.statusCode]).toEqual([200, 200]);
  });
});
