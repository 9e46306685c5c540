/** hOCR (HTML with ocr_page, ocr_par, ocr_line, ocrx_word) to and from OCR JSON. */
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

/** A streaming reader of one hOCR file. */
export function hocrReader(): MarkupReader {
  return new MarkupReader(new HocrVisitor(), false, 'hOCR');
}

/** Reads hOCR (ocr_page, ocr_carea, ocr_par, ocr_line, ocrx_word) into OCR JSON. */
export function fromHocr(html: string): OcrJson {
  checkSize('hocr', html);
  const reader = hocrReader();
  reader.write(html);
  return reader.end();
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

function parseBbox(title: string): Box | undefined {
  const match = /bbox\s+(-?\d+)\s+(-?\d+)\s+(-?\d+)\s+(-?\d+)/.exec(title);
  if (!match) return undefined;
  const [left, top, right, bottom] = match.slice(1).map(Number) as [number, number, number, number];
  return { left, top, right, bottom };
}
