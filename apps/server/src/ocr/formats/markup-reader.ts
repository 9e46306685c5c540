/** The streaming markup parse (htmlparser2) that ALTO and hOCR are read by, within OCR_IMPORT_LIMITS. */
import { Parser } from 'htmlparser2';
import type { OcrJson } from '@guji/shared';
import { OCR_IMPORT_LIMITS, OcrFormatError } from './common.ts';

export type Attributes = Record<string, string>;

/** What an ALTO or hOCR reader does with the parser's events; names are local and lower case. */
export interface MarkupVisitor {
  open(name: string, attributes: Attributes): void;
  close(name: string): void;
  text(text: string): void;
  finish(): OcrJson;
}

/**
 * A streaming parse (htmlparser2: XML mode for ALTO, HTML mode for hOCR) that feeds a visitor and
 * enforces OCR_IMPORT_LIMITS while it reads: a limit passed stops the parse with an OcrFormatError.
 */
export class MarkupReader {
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

/** Refuses a file longer than OCR_IMPORT_LIMITS.maxChars before any of it is parsed. */
export function checkSize(format: 'alto' | 'hocr', content: string): void {
  if (content.length > OCR_IMPORT_LIMITS.maxChars)
    throw new OcrFormatError(
      `${format === 'alto' ? 'ALTO' : 'hOCR'} 文件过大：一页不能超过 ${OCR_IMPORT_LIMITS.maxChars / 10_000} 万字符`,
    );
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
