import sharp from 'sharp';
import type { OcrJson } from '@guji/shared';
import pino from 'pino';
import type { AppContext } from '../src/context.ts';
import type { IngestBook } from '../src/features/import/ingest.service.ts';

let seq = 0;

/** A small page image with a dark bar whose position tells pages apart. */
export async function pageImage(
  index: number,
  width = 600,
  height = 400,
  format: 'png' | 'jpeg' | 'tiff' = 'png',
): Promise<Buffer> {
  const bar = { create: { width: 40, height: height - 40, channels: 3 as const, background: '#202020' } };
  const base = sharp({ create: { width, height, channels: 3, background: '#e9dcc0' } }).composite([
    { input: await sharp(bar).png().toBuffer(), left: 20 + ((index * 60) % (width - 80)), top: 20 },
  ]);
  return format === 'png'
    ? base.png().toBuffer()
    : format === 'jpeg'
      ? base.jpeg().toBuffer()
      : base.tiff().toBuffer();
}

/** Imports a book with the given volumes of pages and makes its pyramids. Returns ids. */
export async function createBook(
  context: AppContext,
  options: Partial<Omit<IngestBook, 'volumes'>> & {
    volumes?: number[];
    pageSize?: [number, number];
    /** Recognised text per volume and page: each page gets OCR JSON with one box per character. */
    texts?: string[][];
  } = {},
): Promise<{ bookId: number; pageIds: number[]; volumeIds: number[] }> {
  const n = seq++;
  const [width, height] = options.pageSize ?? [600, 400];
  const volumes = await Promise.all(
    (options.volumes ?? [3]).map(async (count, v) => ({
      name: `卷${'一二三四五六七八九十'[v] ?? v + 1}`,
      introduction: null,
      pages: await Promise.all(
        Array.from({ length: count }, async (_, p) => ({
          name: `第${p + 1}葉`,
          source: `v${v + 1}/p${p + 1}.png`,
          data: await pageImage(p, width, height),
          ...(options.texts?.[v]?.[p] === undefined
            ? {}
            : { ocrJson: ocrFor(options.texts[v][p], width, height) }),
        })),
      ),
      directory:
        count > 1
          ? [
              { name: '第一章', pageIndex: 0 },
              { name: '第二章', pageIndex: Math.min(1, count - 1) },
            ]
          : [{ name: '全文', pageIndex: 0 }],
    })),
  );
  const { volumes: _v, pageSize: _p, texts: _t, ...fields } = options;
  const result = await context.services.ingest.importBook({
    sourceKey: `test:${n}`,
    title: `测试古籍${n}`,
    author: '佚名',
    isVisible: true,
    isOpen: true,
    ...fields,
    volumes,
  });
  const worker = context.createWorker(pino({ level: 'silent' }));
  while (await worker.runOnce()) {
    /* make every pyramid */
  }
  const volumeIds = (await context.repos.catalog.listVolumes(result.bookId)).map((v) => v.id);
  return { ...result, volumeIds };
}

/**
 * OCR JSON for a text: columns of 10 characters from the right, each character a 20-pixel box, so a test
 * can tell which box belongs to which character (the n-th character: column floor(n / 10), row n % 10).
 */
export function ocrFor(text: string, width: number, height: number): OcrJson {
  const chars = [...text];
  const content = [];
  for (let c = 0; c * 10 < chars.length; c++) {
    content.push({
      words: chars.slice(c * 10, c * 10 + 10).map((word, r) => ({
        word,
        type: 'text' as const,
        confidence: 0.9,
        points: {
          left: width - 40 - c * 30,
          top: 20 + r * 25,
          right: width - 20 - c * 30,
          bottom: 40 + r * 25,
        },
        fontSize: 20,
      })),
    });
  }
  return {
    imginfo: { width, height },
    ocr_res: { header: [], footer: [], middleSeam: [], content, others: [] },
  };
}
