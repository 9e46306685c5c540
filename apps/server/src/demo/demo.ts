import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import type { IngestBook } from '../features/import/ingest.service.ts';
import { DEMO_CLASSIFICATION, loadDemoBooks, type DemoBook, type DemoClass } from './books.ts';
import { loadGlyphs } from './fonts.ts';
import { layoutVolume } from './layout.ts';
import { leafCharacters, renderLeaf } from './render.ts';
import { chineseNumeral } from '../lib/chinese-numeral.ts';

/** The demo texts shipped with the project (public domain; MIT-licensed collection, see its README). */
export const CLASSICS_DIR = path.resolve(import.meta.dirname, '../../demo-data/classics');

/**
 * A real scanned book (Apache-2.0, see its README): four leaves of 史記 卷一 from the 文淵閣 四庫全書
 * manuscript, imported without text so that the OCR reads them (issue 14: a new user sees OCR on a real
 * page, not only on the typeset leaves).
 */
export const SCANNED_DIR = path.resolve(import.meta.dirname, '../../demo-data/scans/shiji-wyg-juan1');
const SCANNED_LEAVES = [
  ['1a', '第一葉前半'],
  ['1b', '第一葉後半'],
  ['2a', '第二葉前半'],
  ['2b', '第二葉後半'],
] as const;

const INTRODUCTION =
  '本站演示书库收录七部古籍。其中《論語》《孟子》《大學》《中庸》《詩經》《千字文》六部，书页由本系统依公有领域的传世文本排印为木刻版式：' +
  '四周双边、界行分栏、版心鱼尾，文字自右而左竖排，以演示古籍的检索、分卷目录、影像阅读与识别文字等功能。' +
  '这些书页为本站排印的演示本，并非某一历史版本的扫描件。第七部《史記》存卷一前二葉，为文淵閣《四庫全書》写本的真实书影，' +
  '其文字由本站 OCR 自动识别，未经校对。其中《孟子》《中庸》仅在阅览室开放阅读，其余各书登录后即可在线阅读。';

export interface DemoResult {
  books: number;
  /** Typeset leaves (with ground-truth text) and scanned ones (read by the OCR). */
  leaves: number;
  scannedLeaves: number;
  omittedCharacters: string[];
}

/** The demo's classification tree (經史子集), added or updated in place. */
export async function addDemoClassification(context: AppContext): Promise<void> {
  const add = async (nodes: DemoClass[], parentId: number | null) => {
    for (const [sort, node] of nodes.entries()) {
      const id = await context.repos.classifications.upsert({
        code: node.code,
        name: node.name,
        parentId,
        sort,
      });
      await add(node.children, id);
    }
  };
  await add(DEMO_CLASSIFICATION, null);
}

type DemoRecord = Omit<IngestBook, 'volumes'>;

/** A typeset demo book's catalogue record. */
const demoRecord = (book: DemoBook): DemoRecord => ({
  sourceKey: `demo:${book.key}`,
  title: book.title,
  author: book.author,
  publishDynasty: book.publishDynasty,
  coverageDynasty: book.coverageDynasty,
  editionType: '演示排印本',
  callNumber: book.callNumber,
  classCode: book.classCode,
  isVisible: true,
  isOpen: book.isOpen,
});

/** The scanned 史記's catalogue record; its pages are read by the OCR whatever OCR_ON_INGEST says. */
const SHIJI_RECORD: DemoRecord = {
  sourceKey: 'demo:shiji-wyg',
  title: '史記',
  author: '（漢）司馬遷撰；（南朝宋）裴駰集解；（唐）司馬貞索隱；（唐）張守節正義',
  publishDynasty: '西漢',
  coverageDynasty: '清乾隆間文淵閣四庫全書寫本（書影，存卷一前二葉）',
  editionType: '寫本',
  callNumber: 'DEMO-史-001',
  classCode: 'SHI.ZHENGSHI',
  isVisible: true,
  isOpen: true,
  alwaysOcr: true,
};

/**
 * The catalogue records of every demo book, as importDemoLibrary writes them (without pages): what the
 * MARC tests export and read back.
 */
export const demoCatalogue = (): DemoRecord[] => [
  ...loadDemoBooks(CLASSICS_DIR).map(demoRecord),
  SHIJI_RECORD,
];

/**
 * Typesets the demo library into woodblock-style page images with ground-truth OCR JSON, imports it
 * (replacing an earlier demo import) and sets the collection introduction if none is set.
 */
export async function importDemoLibrary(
  context: AppContext,
  log: (line: string) => void = () => {},
): Promise<DemoResult> {
  await addDemoClassification(context);

  const books = loadDemoBooks(CLASSICS_DIR);
  let leaves = 0;
  const omitted = new Set<string>();
  for (const book of books) {
    const layouts = book.volumes.map((volume) => layoutVolume(volume.chapters));
    const chars = new Set<string>();
    layouts.forEach((layout, v) => {
      for (const leaf of layout.leaves)
        for (const ch of leafCharacters(leaf, book.title, book.volumes[v]!.name)) chars.add(ch);
    });
    const glyphs = await loadGlyphs(chars);
    const missing = new Set(glyphs.missing);
    for (const ch of missing) omitted.add(ch);
    const volumes: IngestBook['volumes'] = [];
    for (const [v, volume] of book.volumes.entries()) {
      const layout = missing.size > 0 ? layoutVolume(volume.chapters, { omitChars: missing }) : layouts[v]!;
      const pages = [];
      for (const leaf of layout.leaves) {
        const rendered = await renderLeaf(leaf, {
          bookTitle: book.title,
          volumeName: volume.name,
          glyphs,
          seed: leaves + leaf.leafNumber * 7919,
        });
        pages.push({
          name: `第${chineseNumeral(leaf.leafNumber)}葉`,
          source: `${book.key}/${volume.name}/${leaf.leafNumber}.png`,
          data: rendered.png,
          ocrJson: rendered.ocr,
        });
      }
      leaves += pages.length;
      volumes.push({
        name: volume.name,
        introduction: volume.introduction,
        pages,
        directory: layout.directory.map((entry) => ({ name: entry.name, pageIndex: entry.leafIndex })),
      });
    }
    await context.services.ingest.importBook({ ...demoRecord(book), volumes });
    log(`《${book.title}》${volumes.length} 卷，${volumes.reduce((n, v) => n + v.pages.length, 0)} 葉`);
  }
  // The scanned book: pages without text, whose OCR is queued whatever OCR_ON_INGEST says (it is what
  // the book is there to show).
  await context.services.ingest.importBook({
    ...SHIJI_RECORD,
    volumes: [
      {
        name: '卷一',
        introduction: '五帝本紀第一（前二葉）',
        pages: SCANNED_LEAVES.map(([file, name]) => ({
          name,
          source: `shiji-wyg-juan1/${file}.jpg`,
          data: fs.readFileSync(path.join(SCANNED_DIR, `${file}.jpg`)),
        })),
        directory: [{ name: '五帝本紀第一', pageIndex: 0 }],
      },
    ],
  });
  log(`《史記》1 卷，${SCANNED_LEAVES.length} 葉（真实书影，待 OCR 识别）`);
  const site = await context.services.settings.get();
  if (!site.introduction) await context.services.settings.update({ introduction: INTRODUCTION });
  return {
    books: books.length + 1,
    leaves,
    scannedLeaves: SCANNED_LEAVES.length,
    omittedCharacters: [...omitted],
  };
}
