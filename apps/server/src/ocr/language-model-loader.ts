/** The OCR's language model from the texts at hand: finding and reading them, caching the built model. */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ConverterBuilder, type ConverterFunction } from 'opencc-js/core';
import * as cn2tPreset from 'opencc-js/preset/cn2t';
import { CharLanguageModel, isHan, LM_FORMAT } from './language-model.ts';

/** Where the texts the model is built from may lie: the demo classics the project carries, and beside it. */
const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');
export const DEFAULT_LM_TEXTS = [
  path.join(REPO_ROOT, 'apps/server/demo-data/classics'),
  // The shared data of the development and CI machines (MIT-licensed poems and classics), when present.
  path.join(REPO_ROOT, '../shared/data/classics'),
  path.join(REPO_ROOT, '../shared/data/corpus'),
];

/**
 * The classics bench/ocr's rendered leaves are typeset from (file names start so): left out of the
 * benchmark's language model and of the recogniser's training text, so that those leaves test reading,
 * not remembering.
 */
export const RENDERED_LEAF_TEXTS = ['lunyu', 'mengzi', 'shijing', 'zhongyong'];

/** The files of the folders (or files) given: .json, .jsonl, .jsonl.gz and .txt, sorted by name. */
export function textFiles(sources: string[], exclude: string[] = []): string[] {
  const files: string[] = [];
  const wanted = /\.(json|jsonl|jsonl\.gz|txt)$/;
  for (const source of sources) {
    if (!fs.existsSync(source)) continue;
    const list = fs.statSync(source).isDirectory()
      ? fs
          .readdirSync(source)
          .sort()
          .map((f) => path.join(source, f))
      : [source];
    for (const file of list)
      if (wanted.test(file) && !exclude.some((name) => path.basename(file).startsWith(name)))
        files.push(file);
  }
  return files;
}

/** Every string a JSON value holds. */
function* strings(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const item of value) yield* strings(item);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) yield* strings(item);
}

let toTraditional: ConverterFunction | undefined;

/**
 * The texts of one file: each string of a JSON file, each line of a JSON-lines file (gzipped or not),
 * each line of a text file. A file written in simplified characters (more than 2 % of its characters
 * change under OpenCC's simplified → traditional) is turned traditional, as the pages are.
 */
export function* fileTexts(file: string): Generator<string> {
  let raw = fs.readFileSync(file);
  if (file.endsWith('.gz')) raw = zlib.gunzipSync(raw);
  const content = raw.toString('utf8');
  let texts: Iterable<string>;
  if (file.endsWith('.json')) texts = strings(JSON.parse(content));
  else if (/\.jsonl(\.gz)?$/.test(file))
    texts = (function* () {
      for (const line of content.split('\n')) if (line.trim() !== '') yield* strings(JSON.parse(line));
    })();
  else texts = content.split('\n');
  const sample = content.slice(0, 20000);
  toTraditional ??= ConverterBuilder(cn2tPreset)({ from: 'cn', to: 't' });
  const converted = toTraditional(sample);
  let changed = 0;
  let han = 0;
  const a = [...sample];
  const b = [...converted];
  a.forEach((ch, i) => {
    if (!isHan(ch.codePointAt(0)!)) return;
    han++;
    if (b[i] !== ch) changed++;
  });
  const simplified = a.length === b.length && han > 0 && changed / han > 0.02;
  for (const text of texts) yield simplified ? toTraditional(text) : text;
}

/**
 * The model built from the files, kept in `node_modules/.cache/guji` under a name that changes with the
 * files (path, size, time) and the format, so it is built once per machine (a few seconds for the 19 M
 * characters of the shared poems) and loaded in ~0.1 s after. Undefined when there are no texts.
 */
export function loadLanguageModel(
  options: { sources?: string[]; exclude?: string[]; cacheDir?: string } = {},
): CharLanguageModel | undefined {
  const sources =
    options.sources ??
    (process.env.OCR_LM_TEXTS ? process.env.OCR_LM_TEXTS.split(',').map((s) => s.trim()) : DEFAULT_LM_TEXTS);
  const files = textFiles(sources, options.exclude);
  if (files.length === 0) return undefined;
  const signature = createHash('sha256')
    .update(
      JSON.stringify([
        LM_FORMAT,
        ...files.map((f) => {
          const stat = fs.statSync(f);
          return [f, stat.size, Math.round(stat.mtimeMs)];
        }),
      ]),
    )
    .digest('hex')
    .slice(0, 16);
  const cacheDir = options.cacheDir ?? path.join(REPO_ROOT, 'node_modules/.cache/guji');
  const cached = path.join(cacheDir, `ocr-lm-${signature}.bin`);
  if (fs.existsSync(cached)) {
    const model = CharLanguageModel.deserialize(fs.readFileSync(cached));
    if (model) return model;
  }
  const model = CharLanguageModel.build(
    (function* () {
      for (const file of files) yield* fileTexts(file);
    })(),
  );
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
    // Written under a temporary name and renamed, so a reader never sees half a file.
    const partial = `${cached}.${process.pid}.${Date.now()}.tmp`;
    fs.writeFileSync(partial, model.serialize());
    fs.renameSync(partial, cached);
  } catch {
    // A read-only installation builds the model at each start instead.
  }
  return model;
}
