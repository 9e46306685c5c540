/** ALTO XML (v4 written; v2–v4 read, in pixels, mm10 or inch1200) to and from OCR JSON. */
import { boundingBox, type OcrJson, type OcrWord } from '@guji/shared';
import {
  emptyOcr,
  escapeXml,
  groupOf,
  GROUPS,
  OcrFormatError,
  round,
  splitWord,
  WordBudget,
  type Box,
  type Group,
} from './common.ts';
import { checkSize, MarkupReader, type Attributes, type MarkupVisitor } from './markup-reader.ts';

export function toAlto(ocr: OcrJson, imageName: string): string {
  const { width, height } = ocr.imginfo;
  const blocks = GROUPS.flatMap((group) =>
    ocr.ocr_res[group].length === 0
      ? []
      : [
          `      <TextBlock ID="${group}">\n${ocr.ocr_res[group]
            .map((line, l) => {
              const box = boundingBox(line.words.map((w) => w.points));
              const strings = line.words
                .map(
                  (w, i) =>
                    `          <String ID="${group}_${l}_${i}" CONTENT="${escapeXml(w.word)}" HPOS="${w.points.left}" VPOS="${w.points.top}" WIDTH="${w.points.right - w.points.left}" HEIGHT="${w.points.bottom - w.points.top}" WC="${round(w.confidence)}"${w.type === 'note' ? ' STYLEREFS="note"' : ''}/>`,
                )
                .join('\n');
              return `        <TextLine ID="${group}_${l}" HPOS="${box.left}" VPOS="${box.top}" WIDTH="${box.right - box.left}" HEIGHT="${box.bottom - box.top}">\n${strings}\n        </TextLine>`;
            })
            .join('\n')}\n      </TextBlock>`,
        ],
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<alto xmlns="http://www.loc.gov/standards/alto/ns-v4#" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.loc.gov/standards/alto/ns-v4# http://www.loc.gov/standards/alto/v4/alto-4-4.xsd">
  <Description>
    <MeasurementUnit>pixel</MeasurementUnit>
    <sourceImageInformation><fileName>${escapeXml(imageName)}</fileName></sourceImageInformation>
  </Description>
  <Styles><TextStyle ID="note" FONTSIZE="8"/></Styles>
  <Layout>
    <Page ID="page" WIDTH="${width}" HEIGHT="${height}" PHYSICAL_IMG_NR="1">
    <PrintSpace HPOS="0" VPOS="0" WIDTH="${width}" HEIGHT="${height}">
${blocks.join('\n')}
    </PrintSpace>
    </Page>
  </Layout>
</alto>
`;
}

export interface OcrReadOptions {
  /**
   * The page's size in pixels: ALTO measured in mm10 or inch1200 (allowed by ALTO v2 and v3) is scaled
   * to it; without it such a file is refused.
   */
  pageSize?: { width: number; height: number };
}

/** A streaming reader of one ALTO file. */
export function altoReader(options: OcrReadOptions): MarkupReader {
  return new MarkupReader(new AltoVisitor(options), true, 'ALTO');
}

/** Reads ALTO XML (v2–v4, with or without a namespace prefix) into OCR JSON; anything unreadable is an OcrFormatError. */
export function fromAlto(xml: string, options: OcrReadOptions = {}): OcrJson {
  checkSize('alto', xml);
  const reader = altoReader(options);
  reader.write(xml);
  return reader.end();
}

const ALTO_UNITS: Record<string, true> = { pixel: true, mm10: true, inch1200: true };

/**
 * ALTO: `Page` WIDTH/HEIGHT is the page; each `TextLine` a line of its nearest `TextBlock` (group from
 * the block's ID); each `String` CONTENT with HPOS/VPOS/WIDTH/HEIGHT, WC and STYLEREFS="note".
 * `MeasurementUnit` other than pixel is scaled to the page's pixel size.
 */
class AltoVisitor implements MarkupVisitor {
  private page: { width: number; height: number } | undefined;
  private unit = 'pixel';
  private inUnit = false;
  private unitText = '';
  private readonly groups: Group[] = [];
  private line: OcrWord[] | undefined;
  private readonly lines: Array<{ group: Group; words: OcrWord[] }> = [];
  private readonly budget = new WordBudget('ALTO');

  constructor(private readonly options: OcrReadOptions) {}

  open(name: string, a: Attributes): void {
    switch (name) {
      case 'measurementunit':
        this.inUnit = true;
        this.unitText = '';
        return;
      case 'page':
        if (!this.page) this.page = { width: Number(a.width), height: Number(a.height) };
        return;
      case 'textblock':
        this.groups.push(groupOf(a.id));
        return;
      case 'textline':
        this.flushLine();
        this.line = [];
        return;
      case 'string': {
        if (!this.line) return;
        const content = a.content ?? '';
        const left = Number(a.hpos);
        const top = Number(a.vpos);
        const w = Number(a.width);
        const h = Number(a.height);
        if (!content || ![left, top, w, h].every(Number.isFinite)) return;
        const words = splitWord(
          content,
          { left, top, right: left + w, bottom: top + h },
          Number(a.wc ?? '1'),
          /\bnote\b/i.test(a.stylerefs ?? ''),
        );
        this.budget.take(words.length);
        // A String of several characters (other systems write words): one box each, side by side in reading direction.
        this.line.push(...words);
        return;
      }
    }
  }

  close(name: string): void {
    if (name === 'measurementunit') {
      this.inUnit = false;
      this.unit = this.unitText.trim().toLowerCase() || 'pixel';
    } else if (name === 'textline') this.flushLine();
    else if (name === 'textblock') this.groups.pop();
  }

  text(text: string): void {
    if (this.inUnit && this.unitText.length < 32) this.unitText += text;
  }

  private flushLine(): void {
    if (this.line && this.line.length > 0)
      this.lines.push({ group: this.groups.at(-1) ?? 'content', words: this.line });
    this.line = undefined;
  }

  finish(): OcrJson {
    this.flushLine();
    const page = this.page;
    if (!page || !(page.width > 0) || !(page.height > 0))
      throw new OcrFormatError('ALTO 文件缺少页面（Page）及其宽高');
    if (!ALTO_UNITS[this.unit])
      throw new OcrFormatError(`ALTO 文件的度量单位（MeasurementUnit）“${this.unit}”无法识别`);
    let width = Math.round(page.width);
    let height = Math.round(page.height);
    let scale = (box: Box): Box => box;
    if (this.unit !== 'pixel') {
      const target = this.options.pageSize;
      if (!target)
        throw new OcrFormatError(`ALTO 文件以 ${this.unit} 为度量单位，需要本页的像素尺寸才能换算`);
      const sx = target.width / page.width;
      const sy = target.height / page.height;
      width = target.width;
      height = target.height;
      scale = (box) => ({
        left: Math.round(box.left * sx),
        top: Math.round(box.top * sy),
        right: Math.round(box.right * sx),
        bottom: Math.round(box.bottom * sy),
      });
    }
    if (!(width > 0) || !(height > 0)) throw new OcrFormatError('ALTO 文件缺少页面（Page）及其宽高');
    const result = emptyOcr(width, height);
    for (const { group, words } of this.lines) {
      result.ocr_res[group].push({
        words: words.map((w) => {
          const points = scale(w.points);
          return points === w.points
            ? w
            : {
                ...w,
                points,
                fontSize: Math.round(Math.min(points.right - points.left, points.bottom - points.top)),
              };
        }),
      });
    }
    if (GROUPS.every((g) => result.ocr_res[g].length === 0))
      throw new OcrFormatError('ALTO 文件中没有文字（String）');
    return result;
  }
}
