import { boundingBox, type OcrJson, type OcrWord } from '@guji/shared';

/**
 * OCR JSON (spec §3) to and from ALTO XML (v4) and hOCR, so a library can take our text elsewhere and
 * bring text from another OCR system. One character is one ALTO `String` / one hOCR `ocrx_word`; a
 * column is a `TextLine` / `ocr_line`; the spec's groups are `TextBlock`s / `ocr_par`s with the group's
 * name as their id prefix; confidence is ALTO `WC` (0–1) and hOCR `x_wconf` (0–100); small notes carry
 * `STYLEREFS="note"` / `class="ocrx_word note"`.
 */
export type OcrFormat = 'alto' | 'hocr' | 'txt';

const GROUPS = ['header', 'middleSeam', 'content', 'footer', 'others'] as const;
type Group = (typeof GROUPS)[number];

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&amp;/g, '&');

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

/** Reads ALTO XML (v2–v4) or hOCR back into OCR JSON; anything unreadable is an OcrFormatError. */
export function fromAlto(xml: string): OcrJson {
  const page = /<Page\b[^>]*>/i.exec(xml)?.[0];
  const width = Number(attr(page ?? '', 'WIDTH'));
  const height = Number(attr(page ?? '', 'HEIGHT'));
  if (!page || !(width > 0) || !(height > 0)) throw new OcrFormatError('ALTO 文件缺少页面（Page）及其宽高');
  const result = emptyOcr(width, height);
  const blocks = [...xml.matchAll(/<TextBlock\b([^>]*)>([\s\S]*?)<\/TextBlock>/gi)];
  for (const [, blockAttrs = '', body = ''] of blocks) {
    const group = groupOf(attr(blockAttrs, 'ID'));
    for (const [, lineBody = ''] of body.matchAll(/<TextLine\b[^>]*>([\s\S]*?)<\/TextLine>/gi)) {
      const words: OcrWord[] = [];
      for (const [tag] of lineBody.matchAll(/<String\b[^>]*\/?>/gi)) {
        const content = unescapeXml(attr(tag, 'CONTENT') ?? '');
        const left = Number(attr(tag, 'HPOS'));
        const top = Number(attr(tag, 'VPOS'));
        const w = Number(attr(tag, 'WIDTH'));
        const h = Number(attr(tag, 'HEIGHT'));
        if (!content || ![left, top, w, h].every(Number.isFinite)) continue;
        const wc = Number(attr(tag, 'WC') ?? '1');
        const note = /\bnote\b/i.test(attr(tag, 'STYLEREFS') ?? '');
        // A String of several characters (other systems write words): one box each, side by side in reading direction.
        words.push(...splitWord(content, { left, top, right: left + w, bottom: top + h }, wc, note));
      }
      if (words.length > 0) result.ocr_res[group].push({ words });
    }
  }
  if (GROUPS.every((g) => result.ocr_res[g].length === 0))
    throw new OcrFormatError('ALTO 文件中没有文字（String）');
  return result;
}

export function fromHocr(html: string): OcrJson {
  const pageTitle = /class=["'][^"']*\bocr_page\b[^"']*["'][^>]*title=["']([^"']*)["']/i.exec(html)?.[1];
  const pageBox = pageTitle ? parseBbox(unescapeXml(pageTitle)) : undefined;
  if (!pageBox || pageBox.right <= 0 || pageBox.bottom <= 0)
    throw new OcrFormatError('hOCR 文件缺少页面（ocr_page）及其 bbox');
  const result = emptyOcr(pageBox.right, pageBox.bottom);
  // Paragraphs name their group when they came from here; other systems' lines all go to content.
  const pars = [...html.matchAll(/<p\b([^>]*)>([\s\S]*?)<\/p>/gi)];
  const sections =
    pars.length > 0 ? pars.map((m) => [m[1] ?? '', m[2] ?? ''] as const) : [['', html] as const];
  for (const [parAttrs, body] of sections) {
    const group = groupOf(attr(parAttrs, 'id'));
    const lines = body
      .split(/<span\b[^>]*class=["'][^"']*\bocr_(?:line|textfloat|caption)\b[^"']*["'][^>]*>/i)
      .slice(1);
    for (const line of lines) {
      const words: OcrWord[] = [];
      for (const [, wordAttrs = '', text = ''] of line.matchAll(
        /<span\b([^>]*class=["'][^"']*\bocrx_word\b[^"']*["'][^>]*)>([\s\S]*?)<\/span>/gi,
      )) {
        const title = unescapeXml(attr(wordAttrs, 'title') ?? '');
        const box = parseBbox(title);
        const content = unescapeXml(text.replace(/<[^>]+>/g, '')).trim();
        if (!box || !content) continue;
        const conf = /x_wconf\s+(\d+(?:\.\d+)?)/.exec(title);
        const note = /\bnote\b/.test(attr(wordAttrs, 'class') ?? '');
        words.push(...splitWord(content, box, conf ? Number(conf[1]) / 100 : 1, note));
      }
      if (words.length > 0) result.ocr_res[group].push({ words });
    }
  }
  if (GROUPS.every((g) => result.ocr_res[g].length === 0))
    throw new OcrFormatError('hOCR 文件中没有文字（ocrx_word）');
  return result;
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

function attr(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return match ? (match[1] ?? match[2]) : undefined;
}

function parseBbox(title: string): { left: number; top: number; right: number; bottom: number } | undefined {
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
