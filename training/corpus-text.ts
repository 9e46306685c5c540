/**
 * Writes the texts the recogniser's synthetic columns are drawn from, as one traditional-character text
 * file (one source text a line): the same files, and the same simplified → traditional handling, as the
 * OCR's language model (apps/server/src/ocr/language-model-loader.ts) — the demo classics and, where present,
 * ../shared/data/classics and ../shared/data/corpus — less the classics bench/ocr's rendered leaves are
 * typeset from (RENDERED_LEAF_TEXTS), so that those leaves stay a fair test of the recogniser.
 *
 *   node --import tsx training/corpus-text.ts training/.cache/text.txt
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_LM_TEXTS,
  fileTexts,
  RENDERED_LEAF_TEXTS,
  textFiles,
} from '../apps/server/src/ocr/language-model-loader.ts';

const out = process.argv[2] ?? path.join(import.meta.dirname, '.cache/text.txt');
fs.mkdirSync(path.dirname(out), { recursive: true });
const fd = fs.openSync(out, 'w');
let chars = 0;
for (const file of textFiles(DEFAULT_LM_TEXTS, RENDERED_LEAF_TEXTS)) {
  for (const text of fileTexts(file)) {
    const line = text.replace(/\s+/g, '');
    if (line === '') continue;
    fs.writeSync(fd, `${line}\n`);
    chars += line.length;
  }
}
fs.closeSync(fd);
console.log(`${out}: ${chars} characters`);
