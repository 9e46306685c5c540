/**
 * Column crops of the real pages, for scoring the recogniser while it trains (train.py `--real`): each
 * page's columns as the product's layout finds them (text detector + column layout), cut from the upright
 * grey page and scaled to the recogniser's 48 px width, with the page's transcription.
 *
 *   node --import tsx training/real-columns.ts OUT_DIR
 *
 * The crops are made from ../shared/data/ocr-real, which must not be committed (one page has no
 * licence): write them to an ignored folder (training/.cache/real).
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { DETECTOR, TextDetector } from '../apps/server/src/ocr/detector.ts';
import { columnCrop } from '../apps/server/src/ocr/column-crop.ts';
import { layoutFromBoxes } from '../apps/server/src/ocr/layout.ts';
import { loadPage, uprightPage } from '../apps/server/src/ocr/page-image.ts';

const REAL = path.resolve(import.meta.dirname, '../../shared/data/ocr-real');
const out = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '.cache/real'));
fs.mkdirSync(out, { recursive: true });

const pages: Array<{ name: string; work: string; truth: string; columns: Array<{ file: string }> }> = [];
const detector = await TextDetector.load();
const files = [REAL, path.join(REAL, 'dev')].flatMap((dir) =>
  fs
    .readdirSync(dir)
    .filter((f) => /\.(png|jpg)$/.test(f) && fs.existsSync(path.join(dir, f.replace(/\.\w+$/, '.gt.txt'))))
    .map((f) => path.join(dir, f)),
);
for (const file of files.sort()) {
  const name = path.basename(file).replace(/\.\w+$/, '');
  const page = await uprightPage(await loadPage(file));
  const layout = layoutFromBoxes(
    await detector.detect(page.image),
    page.image,
    page.threshold,
    await detector.detect(page.image, DETECTOR.fineHeight, 1),
  );
  const columns: Array<{ file: string }> = [];
  for (const [i, column] of layout.columns.entries()) {
    if (column.kind !== 'text' && column.kind !== 'note') continue;
    const crop = await columnCrop(page.image, column.box);
    const cropFile = `${name}-${String(i).padStart(2, '0')}.png`;
    await sharp(Buffer.from(crop.data), { raw: { width: crop.width, height: crop.height, channels: 1 } })
      .png()
      .toFile(path.join(out, cropFile));
    columns.push({ file: cropFile });
  }
  const truth = fs.readFileSync(file.replace(/\.\w+$/, '.gt.txt'), 'utf8');
  pages.push({ name, work: name.split('-').slice(0, 2).join('-'), truth, columns });
  console.log(`${name}: ${columns.length} columns`);
}
fs.writeFileSync(path.join(out, 'columns.json'), JSON.stringify({ pages }, null, 1));
await detector.release();
