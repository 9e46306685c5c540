import { Parser } from 'htmlparser2';
import { boundingBox, OCR_IMPORT_MAX_CHARS, type OcrJson, type OcrWord } from '@guji/shared';

/**
 * OCR JSON (spec §3) to and from ALTO XML (v4) and hOCR, so a library can take our text elsewhere and
 * bring text from another OCR system. One character is one ALTO `String` / one hOCR `ocrx_word`; a
 * column is a `TextLine` / `ocr_line`; the spec's groups are `TextBlock`s / `ocr_par`s with the group's
 * name as their id prefix; confidence is ALTO `WC` (0–1) and hOCR `x_wconf` (0–100); small notes carry
 * `STYLEREFS="note"` / `class="ocrx_word note"`. Files are read with a streaming parser (htmlparser2:
 * XML mode for ALTO, HTML mode for hOCR) within OCR_IMPORT_LIMITS, never with regular expressions.
 */
export type OcrFormat = 'alto' | 'hocr' | 'txt';

const GROUPS = ['header', 'middleSeam', 'content', 'footer', 'others'] as const;
type Group = (typeof GROUPS)[number];

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The page's body text in reading order, one column a line. */
export function toText(ocr: OcrJson): string {
  return ocr.ocr_res.content.map((line) => line.words.map((w) => w.word).join('')).join('\n') + '\n';
}

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

export function toHocr(ocr: OcrJson, imageName: string): string {
  const { width, height } = ocr.imginfo;
  const bbox = (b: { left: number; top: number; right: number; bottom: number }) =>
    `bbox ${b.left} ${b.top} ${b.right} ${b.bottom}`;
  const pars = GROUPS.flatMap((group) =>
    ocr.ocr_res[group].length === 0
      ? []
      : [
          `   <p class="ocr_par" id="${group}">\n${ocr.ocr_res[group]
            .map((line, l) => {
              const words = line.words
                .map(
                  (w, i) =>
                    `     <span class="ocrx_word${w.type === 'note' ? ' note' : ''}" id="${group}_${l}_${i}" title="${bbox(w.points)}; x_wconf ${Math.round(w.confidence * 100)}; x_fsize ${round(w.fontSize)}">${escapeXml(w.word)}</span>`,
                )
                .join('\n');
              return `    <span class="ocr_line" id="${group}_${l}" title="${bbox(boundingBox(line.words.map((w) => w.points)))}">\n${words}\n    </span>`;
            })
            .join('\n')}\n   </p>`,
        ],
  );
  return `<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="zh-Hant" lang="zh-Hant">
 <head>
  <meta charset="utf-8"/>
  <title>${escapeXml(imageName)}</title>
  <meta name="ocr-system" content="guji-library"/>
  <meta name="ocr-capabilities" content="ocr_page ocr_par ocr_line ocrx_word"/>
 </head>
 <body>
  <div class="ocr_page" id="page" title="image &quot;${escapeXml(imageName)}&quot;; bbox 0 0 ${width} ${height}">
${pars.join('\n')}
  </div>
 </body>
</html>
`;
}

export class OcrFormatError extends Error {}

/**
 * Bounds of reading one imported file (besides its size, OCR_IMPORT_MAX_CHARS): a real page's ALTO or
 * hOCR has a few thousand elements nested about ten deep, so anything far past that is refused as soon
 * as it is seen, and the work stays linear in the input.
 */
export const OCR_IMPORT_LIMITS = {
  /** Characters of the file (the request schema refuses longer content first). */
  maxChars: OCR_IMPORT_MAX_CHARS,
  /** Elements of the whole file. */
  maxElements: 100_000,
  /** Elements open at once. */
  maxDepth: 64,
  /** Characters of text read into the page (one ALTO String of several characters counts each). */
  maxWords: 20_000,
} as const;

/** How much of the file is parsed between two turns of the event loop. */
const CHUNK_CHARS = 16 * 1024;

type Box = { left: number; top: number; right: number; bottom: number };
type Attributes = Record<string, string>;

/** What an ALTO or hOCR reader does with the parser's events; names are local and lower case. */
interface MarkupVisitor {
  open(name: string, attributes: Attributes): void;
  close(name: string): void;
  text(text: string): void;
  finish(): OcrJson;
}

/**
 * A streaming parse (htmlparser2: XML mode for ALTO, HTML mode for hOCR) that feeds a visitor and
 * enforces OCR_IMPORT_LIMITS while it reads: a limit passed stops the parse with an OcrFormatError.
 */
class MarkupReader {
  private readonly parser: Parser;
  private readonly open: string[] = [];
  private elements = 0;

  constructor(
    private readonly visitor: MarkupVisitor,
    xml: boolean,
    private readonly label: string,
  ) {
    this.parser = new Parser(
      {
        onopentagname: () => {
          if (++this.elements > OCR_IMPORT_LIMITS.maxElements)
            throw new OcrFormatError(
              `${this.label} 文件的元素过多（超过 ${OCR_IMPORT_LIMITS.maxElements} 个），不像是一页的文字`,
            );
        },
        onopentag: (name, attributes) => {
          if (this.open.length >= OCR_IMPORT_LIMITS.maxDepth)
            throw new OcrFormatError(
              `${this.label} 文件的元素嵌套过深（超过 ${OCR_IMPORT_LIMITS.maxDepth} 层），无法导入`,
            );
          const local = localName(name);
          this.open.push(local);
          this.visitor.open(local, lowerCaseKeys(attributes));
        },
        onclosetag: (name) => {
          // A tag cut off by the end of the file is closed without having been opened.
          if (this.open.at(-1) !== localName(name)) return;
          this.open.pop();
          this.visitor.close(localName(name));
        },
        ontext: (text) => this.visitor.text(text),
      },
      { xmlMode: xml, decodeEntities: true, recognizeSelfClosing: true },
    );
  }

  write(chunk: string): void {
    this.parser.write(chunk);
  }

  end(): OcrJson {
    this.parser.end();
    return this.visitor.finish();
  }
}

export interface OcrReadOptions {
  /**
   * The page's size in pixels: ALTO measured in mm10 or inch1200 (allowed by ALTO v2 and v3) is scaled
   * to it; without it such a file is refused.
   */
  pageSize?: { width: number; height: number };
}

function readerFor(format: 'alto' | 'hocr', options: OcrReadOptions): MarkupReader {
  return format === 'alto'
    ? new MarkupReader(new AltoVisitor(options), true, 'ALTO')
    : new MarkupReader(new HocrVisitor(), false, 'hOCR');
}

function checkSize(format: 'alto' | 'hocr', content: string): void {
  if (content.length > OCR_IMPORT_LIMITS.maxChars)
    throw new OcrFormatError(
      `${format === 'alto' ? 'ALTO' : 'hOCR'} 文件过大：一页不能超过 ${OCR_IMPORT_LIMITS.maxChars / 10_000} 万字符`,
    );
}

/** Reads ALTO XML (v2–v4, with or without a namespace prefix) into OCR JSON; anything unreadable is an OcrFormatError. */
export function fromAlto(xml: string, options: OcrReadOptions = {}): OcrJson {
  checkSize('alto', xml);
  const reader = readerFor('alto', options);
  reader.write(xml);
  return reader.end();
}

/** Reads hOCR (ocr_page, ocr_carea, ocr_par, ocr_line, ocrx_word) into OCR JSON. */
export function fromHocr(html: string): OcrJson {
  checkSize('hocr', html);
  const reader = readerFor('hocr', {});
  reader.write(html);
  return reader.end();
}

/**
 * fromAlto / fromHocr for a request: the file is parsed a slice at a time, giving the event loop a
 * turn between slices, so a large file never holds up other requests.
 */
export async function readOcrFile(
  format: 'alto' | 'hocr',
  content: string,
  options: OcrReadOptions = {},
): Promise<OcrJson> {
  checkSize(format, content);
  const reader = readerFor(format, options);
  for (let at = 0; at < content.length; at += CHUNK_CHARS) {
    reader.write(content.slice(at, at + CHUNK_CHARS));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return reader.end();
}

/** Counts the characters read against OCR_IMPORT_LIMITS.maxWords. */
class WordBudget {
  private used = 0;
  constructor(private readonly label: string) {}
  take(n: number): void {
    this.used += n;
    if (this.used > OCR_IMPORT_LIMITS.maxWords)
      throw new OcrFormatError(
        `${this.label} 文件的文字过多（超过 ${OCR_IMPORT_LIMITS.maxWords} 字），不像是一页的文字`,
      );
  }
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

const HOCR_LINES = ['ocr_line', 'ocr_textfloat', 'ocr_caption', 'ocr_header', 'ocr_footer'];

/** What an open hOCR element was, so its end does the right thing. */
type HocrRole = 'page' | 'par' | 'line' | 'word' | 'other';

/**
 * hOCR: the first `ocr_page`'s bbox is the page; lines (`ocr_line`, `ocr_textfloat`, `ocr_caption`,
 * `ocr_header`, `ocr_footer`) belong to their nearest `ocr_par` (or `<p>`, group from its id); an
 * `ocrx_word`'s text (nested spans included) with its title's bbox and x_wconf (0–100); class `note`.
 */
class HocrVisitor implements MarkupVisitor {
  private page: Box | undefined;
  private readonly roles: HocrRole[] = [];
  private readonly groups: Group[] = [];
  private line: OcrWord[] | undefined;
  private word: { box: Box | undefined; confidence: number; note: boolean; text: string } | undefined;
  private readonly lines: Array<{ group: Group; words: OcrWord[] }> = [];
  private readonly budget = new WordBudget('hOCR');

  open(name: string, a: Attributes): void {
    const classes = (a.class ?? '').split(/\s+/);
    const title = a.title ?? '';
    let role: HocrRole = 'other';
    if (classes.includes('ocr_page')) {
      role = 'page';
      this.page ??= parseBbox(title) ?? { left: 0, top: 0, right: 0, bottom: 0 };
    } else if (classes.includes('ocrx_word')) {
      role = 'word';
      const conf = /x_wconf\s+(\d+(?:\.\d+)?)/.exec(title);
      this.word = {
        box: parseBbox(title),
        confidence: conf ? Number(conf[1]) / 100 : 1,
        note: classes.includes('note'),
        text: '',
      };
    } else if (HOCR_LINES.some((c) => classes.includes(c))) {
      role = 'line';
      this.flushLine();
      this.line = [];
    } else if (classes.includes('ocr_par') || name === 'p') {
      role = 'par';
      this.groups.push(groupOf(a.id));
    }
    this.roles.push(role);
  }

  close(): void {
    const role = this.roles.pop();
    if (role === 'word') this.flushWord();
    else if (role === 'line') this.flushLine();
    else if (role === 'par') this.groups.pop();
  }

  text(text: string): void {
    if (this.word) this.word.text += text;
  }

  private flushWord(): void {
    const word = this.word;
    this.word = undefined;
    const content = word?.text.trim();
    if (!word?.box || !content || !this.line) return;
    const words = splitWord(content, word.box, word.confidence, word.note);
    this.budget.take(words.length);
    this.line.push(...words);
  }

  private flushLine(): void {
    if (this.line && this.line.length > 0)
      this.lines.push({ group: this.groups.at(-1) ?? 'content', words: this.line });
    this.line = undefined;
  }

  finish(): OcrJson {
    this.flushLine();
    const box = this.page;
    if (!box || box.right <= 0 || box.bottom <= 0)
      throw new OcrFormatError('hOCR 文件缺少页面（ocr_page）及其 bbox');
    const result = emptyOcr(box.right, box.bottom);
    for (const { group, words } of this.lines) result.ocr_res[group].push({ words });
    if (GROUPS.every((g) => result.ocr_res[g].length === 0))
      throw new OcrFormatError('hOCR 文件中没有文字（ocrx_word）');
    return result;
  }
}

/** `alto:String` → `string`: ALTO's elements whatever prefix the file binds its namespace to. */
function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1).toLowerCase();
}

function lowerCaseKeys(attributes: Attributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) out[key.toLowerCase()] = value;
  return out;
}

function emptyOcr(width: number, height: number): OcrJson {
  return {
    imginfo: { width, height },
    ocr_res: { header: [], footer: [], middleSeam: [], content: [], others: [] },
  };
}

function groupOf(id: string | undefined): Group {
  const name = (id ?? '').split(/[_\-\s]/)[0] ?? '';
  return (GROUPS as readonly string[]).includes(name) ? (name as Group) : 'content';
}

function parseBbox(title: string): Box | undefined {
  const match = /bbox\s+(-?\d+)\s+(-?\d+)\s+(-?\d+)\s+(-?\d+)/.exec(title);
  if (!match) return undefined;
  const [left, top, right, bottom] = match.slice(1).map(Number) as [number, number, number, number];
  return { left, top, right, bottom };
}

/** One box per character; a box holding several characters is divided along its longer side. */
function splitWord(
  content: string,
  box: { left: number; top: number; right: number; bottom: number },
  confidence: number,
  note: boolean,
): OcrWord[] {
  const chars = [...content].filter((c) => c.trim() !== '');
  const vertical = box.bottom - box.top >= box.right - box.left;
  const step = (vertical ? box.bottom - box.top : box.right - box.left) / Math.max(1, chars.length);
  return chars.map((word, i) => {
    const points = vertical
      ? {
          left: box.left,
          right: box.right,
          top: Math.round(box.top + i * step),
          bottom: Math.round(box.top + (i + 1) * step),
        }
      : {
          top: box.top,
          bottom: box.bottom,
          left: Math.round(box.left + i * step),
          right: Math.round(box.left + (i + 1) * step),
        };
    return {
      word,
      type: note ? ('note' as const) : ('text' as const),
      confidence: Math.min(1, Math.max(0, Number.isFinite(confidence) ? confidence : 1)),
      points,
      fontSize: Math.round(Math.min(points.right - points.left, points.bottom - points.top)),
    };
  });
}

const round = (x: number) => Math.round(x * 1000) / 1000;
