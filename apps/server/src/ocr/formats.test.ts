import { describe, expect, it } from 'vitest';
import { OcrJson } from '@guji/shared';
import { ocrFor } from '../../test/catalog-factory.ts';
import {
  fromAlto,
  fromHocr,
  OCR_IMPORT_LIMITS,
  OcrFormatError,
  readOcrFile,
  toAlto,
  toHocr,
  toText,
} from './formats.ts';

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

describe('reading ALTO and hOCR from other systems', () => {
  const words = (ocr: OcrJson) => ocr.ocr_res.content.map((l) => l.words.map((w) => w.word).join(''));

  it('reads ALTO v2 (ABBYY-style: composed blocks, SP, styles)', () => {
    const alto = `<?xml version="1.0" encoding="UTF-8"?>
<alto xmlns="http://www.loc.gov/standards/alto/ns-v2#" xmlns:xlink="http://www.w3.org/1999/xlink">
  <Description><MeasurementUnit>pixel</MeasurementUnit>
    <OCRProcessing ID="OCR_0"><ocrProcessingStep><processingSoftware><softwareName>ABBYY FineReader</softwareName></processingSoftware></ocrProcessingStep></OCRProcessing>
  </Description>
  <Styles><TextStyle ID="TS1" FONTSIZE="10"/></Styles>
  <Layout><Page ID="P1" PHYSICAL_IMG_NR="1" HEIGHT="400" WIDTH="600">
    <PrintSpace HPOS="0" VPOS="0" WIDTH="600" HEIGHT="400">
      <ComposedBlock ID="CB1" HPOS="500" VPOS="20" WIDTH="80" HEIGHT="200">
        <TextBlock ID="TB1" HPOS="500" VPOS="20" WIDTH="80" HEIGHT="200" STYLEREFS="TS1">
          <TextLine HPOS="560" VPOS="20" WIDTH="20" HEIGHT="120">
            <String CONTENT="天地" HPOS="560" VPOS="20" WIDTH="20" HEIGHT="40" WC="0.93"/><SP WIDTH="0" HPOS="560" VPOS="60"/>
            <String CONTENT="玄" HPOS="560" VPOS="60" WIDTH="20" HEIGHT="20" WC="0.5"/>
          </TextLine>
          <TextLine HPOS="530" VPOS="20" WIDTH="20" HEIGHT="20"><String CONTENT="黃" HPOS="530" VPOS="20" WIDTH="20" HEIGHT="20"/></TextLine>
        </TextBlock>
      </ComposedBlock>
    </PrintSpace>
  </Page></Layout>
</alto>`;
    const ocr = OcrJson.parse(fromAlto(alto));
    expect(ocr.imginfo).toEqual({ width: 600, height: 400 });
    expect(words(ocr)).toEqual(['天地玄', '黃']);
    expect(ocr.ocr_res.content[0]!.words[2]).toMatchObject({
      confidence: 0.5,
      points: { top: 60, bottom: 80 },
    });
  });

  it('reads ALTO v3 with a namespace prefix, and ALTO v2 measured in mm10 scaled to the page', () => {
    const v3 = `<?xml version="1.0"?>
<alto:alto xmlns:alto="http://www.loc.gov/standards/alto/ns-v3#">
  <alto:Layout><alto:Page WIDTH="600.0" HEIGHT="400.0"><alto:PrintSpace>
    <alto:TextBlock ID="header_0"><alto:TextLine><alto:String CONTENT="卷一" HPOS="280" VPOS="0" WIDTH="40" HEIGHT="20" WC="0.8"/></alto:TextLine></alto:TextBlock>
    <alto:TextBlock ID="b2"><alto:TextLine><alto:String CONTENT="學" HPOS="560.5" VPOS="20" WIDTH="20" HEIGHT="20" STYLEREFS="note"/></alto:TextLine></alto:TextBlock>
  </alto:PrintSpace></alto:Page></alto:Layout>
</alto:alto>`;
    const ocr = OcrJson.parse(fromAlto(v3));
    expect(ocr.ocr_res.header[0]!.words.map((w) => w.word)).toEqual(['卷', '一']);
    expect(ocr.ocr_res.content[0]!.words[0]).toMatchObject({
      word: '學',
      type: 'note',
      points: { left: 560.5 },
    });

    const mm10 = `<alto xmlns="http://www.loc.gov/standards/alto/ns-v2#"><Description><MeasurementUnit>mm10</MeasurementUnit></Description>
      <Layout><Page WIDTH="3000" HEIGHT="2000"><PrintSpace><TextBlock><TextLine>
      <String CONTENT="子" HPOS="2800" VPOS="100" WIDTH="100" HEIGHT="100"/></TextLine></TextBlock></PrintSpace></Page></Layout></alto>`;
    expect(() => fromAlto(mm10)).toThrow('ALTO 文件以 mm10 为度量单位，需要本页的像素尺寸才能换算');
    const scaled = fromAlto(mm10, { pageSize: { width: 600, height: 400 } });
    expect(scaled.imginfo).toEqual({ width: 600, height: 400 });
    expect(scaled.ocr_res.content[0]!.words[0]!.points).toEqual({
      left: 560,
      top: 20,
      right: 580,
      bottom: 40,
    });
  });

  it('reads Tesseract hOCR: carea, par, line and header spans, nested markup in words', () => {
    const hocr = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
 <head><title></title><meta http-equiv="Content-Type" content="text/html;charset=utf-8"/>
  <meta name='ocr-system' content='tesseract 5.3.0' /></head>
 <body>
  <div class='ocr_page' id='page_1' title='image "p.png"; bbox 0 0 600 400; ppageno 0'>
   <div class='ocr_carea' id='block_1_1' title="bbox 500 20 580 220">
    <p class='ocr_par' id='par_1_1' lang='chi_tra' title="bbox 500 20 580 220">
     <span class='ocr_line' id='line_1_1' title="bbox 560 20 580 120; baseline 0 0; x_size 20">
      <span class='ocrx_word' id='word_1_1' title='bbox 560 20 580 40; x_wconf 91'><strong>天</strong></span>
      <span class='ocrx_word' id='word_1_2' title='bbox 560 40 580 80; x_wconf 88'>地<em>玄</em></span>
     </span>
     <span class='ocr_header' id='line_1_2' title="bbox 530 20 550 40">
      <span class='ocrx_word' id='word_1_3' title='bbox 530 20 550 40; x_wconf 70'>&amp;</span>
     </span>
    </p>
   </div>
  </div>
 </body>
</html>`;
    const ocr = OcrJson.parse(fromHocr(hocr));
    expect(ocr.imginfo).toEqual({ width: 600, height: 400 });
    expect(words(ocr)).toEqual(['天地玄', '&']);
    expect(ocr.ocr_res.content[0]!.words.map((w) => w.confidence)).toEqual([0.91, 0.88, 0.88]);
  });

  it('refuses hostile markup in linear work: too deep, too many elements, too much text, too large', async () => {
    // The request of issue 13: an unclosed TextBlock 64,000 times (about 700 KB).
    const hostile = '<Page WIDTH="10" HEIGHT="10">' + '<TextBlock>'.repeat(64_000);
    expect(() => fromAlto(hostile)).toThrow('ALTO 文件的元素嵌套过深（超过 64 层），无法导入');
    await expect(readOcrFile('alto', hostile)).rejects.toThrow(OcrFormatError);
    const flat = '<Page WIDTH="10" HEIGHT="10">' + '<TextBlock/>'.repeat(OCR_IMPORT_LIMITS.maxElements);
    expect(() => fromAlto(flat)).toThrow('ALTO 文件的元素过多（超过 100000 个），不像是一页的文字');
    const crowded = `<div class="ocr_page" title="bbox 0 0 10 10"><span class="ocr_line">${'<span class="ocrx_word" title="bbox 0 0 1 1">字</span>'.repeat(20_001)}</span></div>`;
    expect(() => fromHocr(crowded)).toThrow('hOCR 文件的文字过多（超过 20000 字），不像是一页的文字');
    expect(() => fromHocr(' '.repeat(OCR_IMPORT_LIMITS.maxChars + 1))).toThrow('hOCR 文件过大');
    // 600 KB of paragraphs that were quadratic for the old regular expressions: read to the end.
    const paragraphs = '<div class="ocr_page" title="bbox 0 0 10 10">' + '<p class="ocr_par">'.repeat(30_000);
    await expect(readOcrFile('hocr', paragraphs)).rejects.toThrow('hOCR 文件中没有文字（ocrx_word）');
  });

  it('reads a file in slices as it reads it whole', async () => {
    const alto = toAlto(page(), 'p1.jpg').replace('<TextLine', '<!-- 注 -->\n<TextLine');
    const big = alto.replace('</Layout>', `<!--${'x'.repeat(40_000)}--></Layout>`);
    expect(await readOcrFile('alto', big)).toEqual(fromAlto(alto));
    expect(await readOcrFile('hocr', toHocr(page(), 'p1.jpg'))).toEqual(fromHocr(toHocr(page(), 'p1.jpg')));
  });
});
