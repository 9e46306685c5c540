import { describe, expect, it } from 'vitest';
import { OcrJson } from '@guji/shared';
import { ocrFor } from '../../test/catalog-factory.ts';
import { fromAlto, fromHocr, OcrFormatError, toAlto, toHocr, toText } from './formats.ts';

const page = (): OcrJson => {
  const ocr = ocrFor('學而時習之不亦說乎有朋自遠方來', 600, 400);
  ocr.ocr_res.content[1]!.words[2]!.type = 'note';
  ocr.ocr_res.content[0]!.words[1]!.confidence = 0.42;
  ocr.ocr_res.middleSeam.push({
    words: [
      {
        word: '論',
        type: 'text',
        confidence: 1,
        points: { left: 290, top: 10, right: 310, bottom: 30 },
        fontSize: 20,
      },
    ],
  });
  return ocr;
};

describe('OCR exchange formats', () => {
  it('writes the body text in reading order, a column a line', () => {
    expect(toText(page())).toBe('學而時習之不亦說乎有\n朋自遠方來\n');
  });

  it('round-trips through ALTO: characters, boxes, confidence, notes and groups', () => {
    const ocr = page();
    const alto = toAlto(ocr, 'p1.jpg');
    expect(alto).toContain('<alto xmlns="http://www.loc.gov/standards/alto/ns-v4#"');
    expect(alto).toContain('CONTENT="學" HPOS="560" VPOS="20" WIDTH="20" HEIGHT="20" WC="0.9"');
    expect(OcrJson.parse(fromAlto(alto))).toEqual(ocr);
  });

  it('round-trips through hOCR', () => {
    const ocr = page();
    const hocr = toHocr(ocr, 'p1.jpg');
    expect(hocr).toContain(
      'class="ocrx_word" id="content_0_0" title="bbox 560 20 580 40; x_wconf 90; x_fsize 20">學</span>',
    );
    const back = fromHocr(hocr);
    // hOCR keeps whole-number confidences (x_wconf) and takes the font size from the box.
    expect(back.ocr_res.content.map((l) => l.words.map((w) => w.word).join(''))).toEqual([
      '學而時習之不亦說乎有',
      '朋自遠方來',
    ]);
    expect(back.ocr_res.content[0]!.words[1]!.confidence).toBe(0.42);
    expect(back.ocr_res.content[1]!.words[2]!.type).toBe('note');
    expect(back.ocr_res.middleSeam[0]!.words[0]!.word).toBe('論');
    expect(back.imginfo).toEqual({ width: 600, height: 400 });
  });

  it('reads other systems’ files: words of several characters split into one box each, escapes', () => {
    const alto = `<alto><Layout><Page WIDTH="100" HEIGHT="200"><PrintSpace><TextBlock ID="b1"><TextLine>
      <String CONTENT="天地&amp;玄" HPOS="10" VPOS="0" WIDTH="20" HEIGHT="90" WC="0.8"/></TextLine></TextBlock></PrintSpace></Page></Layout></alto>`;
    const ocr = fromAlto(alto);
    expect(ocr.ocr_res.content[0]!.words.map((w) => [w.word, w.points.top, w.points.bottom])).toEqual([
      ['天', 0, 23],
      ['地', 23, 45],
      ['&', 45, 68],
      ['玄', 68, 90],
    ]);
  });

  it('refuses files without a page or without text, saying what is missing', () => {
    expect(() => fromAlto('<alto></alto>')).toThrow(OcrFormatError);
    expect(() => fromAlto('<alto><Page WIDTH="10" HEIGHT="10"></Page></alto>')).toThrow(
      'ALTO 文件中没有文字（String）',
    );
    expect(() => fromHocr('<html><body>no page</body></html>')).toThrow(
      'hOCR 文件缺少页面（ocr_page）及其 bbox',
    );
  });
});
