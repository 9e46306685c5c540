import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import type { OcrJson, OcrWarning } from '@guji/shared';
import type { OcrEngine } from '../ocr/engine.ts';
import { VerticalPageEngine } from '../ocr/engine.ts';
import { toAlto, toHocr, toText } from '../ocr/formats.ts';
import { MAX_PAGE_PIXELS } from '../lib/image-limits.ts';
import { withTempDir } from '../storage/temp.ts';

/** The output formats of `ocr`, with the file extension each is written with under --out. */
export const OCR_FORMATS = { text: 'txt', json: 'json', alto: 'alto.xml', hocr: 'hocr.html' } as const;
export type OcrFormat = keyof typeof OCR_FORMATS;

/** One recognised image, or one page of a multi-page TIFF (`page` counts from 1). */
export interface OcrOutput {
  source: string;
  page: number | undefined;
  name: string;
  content: string;
  /** What the engine noticed about its result. */
  warnings: OcrWarning[];
}

/** Writes one result in a format: text is the main text, one line per column in reading order. */
export function formatOcr(ocr: OcrJson, format: OcrFormat, imageName: string): string {
  switch (format) {
    case 'text':
      return toText(ocr);
    case 'json':
      return `${JSON.stringify(ocr, null, 2)}\n`;
    case 'alto':
      return toAlto(ocr, imageName);
    case 'hocr':
      return toHocr(ocr, imageName);
  }
}

/**
 * Recognises image files with the engine the jobs use (PNG, JPEG, TIFF — every page of a multi-page
 * TIFF, bilevel CCITT ones included — or anything else sharp reads) and returns each result in
 * `format`. Pages of a TIFF are written to a temporary folder under `workDir` first, as the engine
 * reads files.
 */
export async function recognizeFiles(
  engine: OcrEngine,
  files: string[],
  format: OcrFormat,
  workDir: string,
): Promise<OcrOutput[]> {
  const outputs: OcrOutput[] = [];
  for (const file of files) {
    const meta = await sharp(file, { limitInputPixels: MAX_PAGE_PIXELS }).metadata();
    const pages = meta.format === 'tiff' ? (meta.pages ?? 1) : 1;
    const base = path.basename(file).replace(/\.[^.]+$/, '');
    if (pages === 1) {
      const { ocr, warnings } = await engine.recognize(file);
      outputs.push({
        source: file,
        page: undefined,
        name: base,
        content: formatOcr(ocr, format, path.basename(file)),
        warnings,
      });
      continue;
    }
    await withTempDir(workDir, async (dir) => {
      for (let page = 0; page < pages; page++) {
        const single = path.join(dir, `${page + 1}.png`);
        await sharp(file, { page, limitInputPixels: MAX_PAGE_PIXELS }).png().toFile(single);
        const { ocr, warnings } = await engine.recognize(single);
        const name = `${base}-${page + 1}`;
        outputs.push({
          source: file,
          page: page + 1,
          name,
          content: formatOcr(ocr, format, `${name}.png`),
          warnings,
        });
      }
    });
  }
  return outputs;
}

const USAGE = 'ocr FILE… [--format text|json|alto|hocr] [--out DIR]';

/**
 * `npm run cli -- ocr FILE… [--format text|json|alto|hocr] [--out DIR]`: prints each result (several
 * files: each after a line `== FILE ==`), or writes `NAME.txt` / `.json` / `.alto.xml` / `.hocr.html`
 * into DIR. Needs no database.
 */
export async function ocrCommand(args: string[], dataDir: string): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { format: { type: 'string', default: 'text' }, out: { type: 'string' } },
    });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n用法: ${USAGE}`);
    return 2;
  }
  const format = parsed.values.format as OcrFormat;
  if (!(format in OCR_FORMATS)) {
    console.error(`未知的格式：${format}（可用 text、json、alto、hocr）`);
    return 2;
  }
  const files = parsed.positionals;
  if (files.length === 0) {
    console.error(`请给出要识别的图像文件\n用法: ${USAGE}`);
    return 2;
  }
  for (const file of files) {
    try {
      await fs.access(file);
    } catch {
      console.error(`找不到文件：${file}`);
      return 1;
    }
  }
  const engine = await VerticalPageEngine.create();
  try {
    const outputs = await recognizeFiles(engine, files, format, dataDir);
    // The engine's warnings go to standard error, so the text on standard output stays the text.
    for (const output of outputs)
      for (const warning of output.warnings)
        console.error(
          `提示：${output.source}${output.page ? ` 第 ${output.page} 页` : ''}：${warning.message}`,
        );
    if (parsed.values.out) {
      await fs.mkdir(parsed.values.out, { recursive: true });
      for (const output of outputs) {
        const target = path.join(parsed.values.out, `${output.name}.${OCR_FORMATS[format]}`);
        await fs.writeFile(target, output.content);
        console.log(`${output.source}${output.page ? ` 第 ${output.page} 页` : ''} → ${target}`);
      }
    } else {
      for (const output of outputs) {
        if (outputs.length > 1) console.log(`== ${output.source}${output.page ? ` #${output.page}` : ''} ==`);
        process.stdout.write(output.content);
      }
    }
    return 0;
  } catch (error) {
    console.error(`识别失败：${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await engine.close();
  }
}
