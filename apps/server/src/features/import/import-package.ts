import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import yauzl from 'yauzl';
import { z } from 'zod';
import { isSafeName, MSG } from '@guji/shared';
import { AppError, badRequest } from '../../errors.ts';
import { sniffImage } from '../../lib/image-sniff.ts';
import type { IngestBook, IngestDirectoryEntry, IngestService } from './ingest.service.ts';
import { naturalOrder } from '../../lib/natural-order.ts';

/**
 * Import packages: a metadata file (JSON or CSV) naming, per volume, a folder of page images, either
 * on disk or inside a zip. Everything is checked before anything is written; errors name the file,
 * row and field. Page order is the natural order of file names (2.jpg before 10.jpg).
 */

export const IMAGE_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.tif', '.tiff'];
export interface ZipLimits {
  maxEntries: number;
  /** Inflated bytes of all entries together, counted as they are inflated. */
  maxTotalBytes: number;
  /** Inflated bytes of one entry, counted as they are inflated. */
  maxEntryBytes: number;
  /**
   * Largest inflated ÷ compressed size of an entry over 1 MB: page images are compressed already and
   * hardly shrink in a zip, while a zip bomb of zeros inflates about 1000 times.
   */
  maxRatio?: number;
}
/** Limits of a staff import package. */
export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 5000,
  maxTotalBytes: 4 * 1024 ** 3,
  maxEntryBytes: 300 * 1024 ** 2,
};

interface DirectoryInput {
  name: string;
  page?: number | null | undefined;
  children?: DirectoryInput[] | undefined;
}
const DirectoryInput: z.ZodType<DirectoryInput> = z.lazy(() =>
  z.object({
    name: z.string().trim().min(1, '目录名称不能为空').refine(isSafeName, MSG.nameUnsafeChars),
    page: z.number().int().min(1, '目录页码从 1 开始').nullable().optional(),
    children: z.array(DirectoryInput).optional(),
  }),
);

/** A catalogue field of a package: no control, bidi-override or invisible characters, no `<` `>`. */
const safeText = (max: number) => z.string().trim().max(max).refine(isSafeName, MSG.nameUnsafeChars);

const VolumeInput = z.object({
  name: z.string().trim().min(1, '请填写卷册名称').refine(isSafeName, MSG.nameUnsafeChars),
  introduction: z.string().trim().optional(),
  /** Folder of this volume's images, relative to the metadata file (or the zip's root). */
  images: z.string().trim().min(1, '请填写图像目录'),
  directory: z.array(DirectoryInput).default([]),
});

const BookInput = z.object({
  sourceKey: z.string().trim().min(1, '请填写 sourceKey（用于重复导入时识别同一部书）').max(200),
  title: z.string().trim().min(1, '请填写书名').max(200).refine(isSafeName, MSG.nameUnsafeChars),
  author: safeText(200).optional(),
  publishDynasty: safeText(100).optional(),
  coverageDynasty: safeText(200).optional(),
  editionType: safeText(100).optional(),
  callNumber: safeText(100).optional(),
  classCode: z.string().trim().max(60).optional(),
  isVisible: z.boolean().default(true),
  isOpen: z.boolean().default(false),
  volumes: z.array(VolumeInput).min(1, '至少需要一个卷册'),
});
export type BookInput = z.infer<typeof BookInput>;

const MetadataFile = z.union([BookInput, z.object({ books: z.array(BookInput).min(1) })]);

function zodMessage(file: string, error: z.ZodError, row?: number): string {
  const issue = error.issues[0]!;
  const where = [
    row !== undefined ? `第 ${row} 行` : '',
    issue.path.length ? `字段 ${issue.path.join('.')}` : '',
  ]
    .filter(Boolean)
    .join('，');
  return `${file}${where ? `（${where}）` : ''}：${issue.message}`;
}

/** Reads the books of a JSON metadata file: one book, or `{ books: [...] }`. */
export function parseJsonMetadata(text: string, file: string): BookInput[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw badRequest(
      'IMPORT_METADATA',
      `${file}：不是有效的 JSON（${error instanceof Error ? error.message : ''}）`,
    );
  }
  const parsed = MetadataFile.safeParse(data);
  if (!parsed.success) throw badRequest('IMPORT_METADATA', zodMessage(file, parsed.error));
  return 'books' in parsed.data ? parsed.data.books : [parsed.data];
}

export const CSV_COLUMNS = [
  'sourceKey',
  'title',
  'author',
  'publishDynasty',
  'coverageDynasty',
  'callNumber',
  'classCode',
  'isVisible',
  'isOpen',
  'volumeName',
  'images',
  'directory',
] as const;

/**
 * Reads a CSV metadata file: one row per volume, rows of the same sourceKey form one book (book fields
 * from its first row). `directory` is `名稱:頁碼|名稱:頁碼`; booleans are 1/0 or true/false.
 */
export function parseCsvMetadata(text: string, file: string): BookInput[] {
  const rows = parseCsv(text, file);
  const header = rows.shift();
  if (!header) throw badRequest('IMPORT_METADATA', `${file}：文件为空`);
  const missing = ['sourceKey', 'title', 'volumeName', 'images'].filter((c) => !header.includes(c));
  if (missing.length) throw badRequest('IMPORT_METADATA', `${file}：缺少列 ${missing.join('、')}`);
  const books = new Map<string, { input: Record<string, unknown>; row: number }>();
  rows.forEach((cells, index) => {
    const row = index + 2;
    if (cells.every((c) => c.trim() === '')) return;
    const value = (column: string) => cells[header.indexOf(column)]?.trim() ?? '';
    const bool = (column: string, fallback: boolean) => {
      const text = value(column).toLowerCase();
      if (text === '') return fallback;
      if (['1', 'true', '是'].includes(text)) return true;
      if (['0', 'false', '否'].includes(text)) return false;
      throw badRequest('IMPORT_METADATA', `${file}（第 ${row} 行，字段 ${column}）：应为 1 或 0`);
    };
    const directory = value('directory')
      .split('|')
      .filter(Boolean)
      .map((entry) => {
        const match = /^(.*):(\d+)$/.exec(entry.trim());
        if (!match)
          throw badRequest(
            'IMPORT_METADATA',
            `${file}（第 ${row} 行，字段 directory）：“${entry}”应为 名称:页码`,
          );
        return { name: match[1]!.trim(), page: Number(match[2]) };
      });
    const key = value('sourceKey');
    const volume = { name: value('volumeName'), images: value('images'), directory };
    const existing = books.get(key);
    if (existing) {
      (existing.input.volumes as unknown[]).push(volume);
      return;
    }
    const optional = (column: string) => (value(column) ? { [column]: value(column) } : {});
    books.set(key, {
      row,
      input: {
        sourceKey: key,
        title: value('title'),
        ...optional('author'),
        ...optional('publishDynasty'),
        ...optional('coverageDynasty'),
        ...optional('callNumber'),
        ...optional('classCode'),
        isVisible: bool('isVisible', true),
        isOpen: bool('isOpen', false),
        volumes: [volume],
      },
    });
  });
  if (books.size === 0) throw badRequest('IMPORT_METADATA', `${file}：没有数据行`);
  return [...books.values()].map(({ input, row }) => {
    const parsed = BookInput.safeParse(input);
    if (!parsed.success) throw badRequest('IMPORT_METADATA', zodMessage(file, parsed.error, row));
    return parsed.data;
  });
}

/**
 * The rows of a CSV file (RFC 4180: quoted fields, doubled quotes, CRLF or LF, a byte-order mark), read by
 * csv-parse; rows may differ in length. Malformed CSV (a quote left open, text after a closing quote) is
 * refused with the line it is on.
 */
export function parseCsv(text: string, file = 'CSV'): string[][] {
  try {
    return parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false });
  } catch (error) {
    const { code, lines } = error as { code?: string; lines?: number };
    const what =
      code === 'CSV_QUOTE_NOT_CLOSED'
        ? '引号未闭合'
        : code === 'CSV_INVALID_CLOSING_QUOTE'
          ? '右引号后不应紧跟其他字符'
          : '无法解析';
    throw badRequest('IMPORT_METADATA', `${file}${lines ? `（第 ${lines} 行）` : ''}：CSV 格式错误，${what}`);
  }
}

/** Where page images come from: a folder on disk or a zip. Paths use forward slashes. */
export interface ImageSource {
  /** Image files directly inside `folder`, in natural name order. */
  list(folder: string): Promise<string[]>;
  read(file: string): Promise<Buffer>;
  readText(file: string): Promise<string | undefined>;
}

const isImage = (name: string) => IMAGE_EXTENSIONS.includes(path.extname(name).toLowerCase());
const normalizeFolder = (folder: string) =>
  folder.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');

/** Refuses paths that leave the package: absolute, drive letters, `..` segments. */
export function assertInside(name: string, where: string): void {
  const normal = name.replace(/\\/g, '/');
  if (normal.startsWith('/') || /^[A-Za-z]:/.test(normal) || normal.split('/').includes('..')) {
    throw badRequest('IMPORT_UNSAFE_PATH', `${where}：路径“${name}”指向包外，已拒绝`);
  }
}

export class FolderSource implements ImageSource {
  constructor(private readonly root: string) {}
  async list(folder: string): Promise<string[]> {
    assertInside(folder, '元数据');
    const dir = path.join(this.root, normalizeFolder(folder));
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch {
      throw badRequest('IMPORT_FOLDER', `图像目录不存在：${folder}`);
    }
    return names
      .filter(isImage)
      .sort(naturalOrder)
      .map((name) => `${normalizeFolder(folder)}/${name}`);
  }
  read(file: string): Promise<Buffer> {
    return fs.readFile(path.join(this.root, file));
  }
  async readText(file: string): Promise<string | undefined> {
    return fs.readFile(path.join(this.root, file), 'utf8').catch(() => undefined);
  }
}

/** Image types a package or an upload may hold, recognised by their first bytes. */
const ZIP_IMAGE_KINDS: ReadonlyArray<string> = ['jpeg', 'png', 'tiff'];
/** Bytes read from an image before the rest is inflated or received: enough for the type check. */
export const SNIFF_BYTES = 64;

/** Refuses, by name, a file whose first bytes are not a JPEG, PNG or TIFF image. */
export function checkImageHead(head: Buffer, name: string): void {
  const kind = sniffImage(head);
  if (!kind || !ZIP_IMAGE_KINDS.includes(kind))
    throw badRequest('IMPORT_IMAGE_TYPE', `${name} 不是 JPEG、PNG 或 TIFF 图像，已拒绝`);
}
/** Metadata files kept in memory (at the package root), at most this many bytes each. */
const TEXT_FILES = ['metadata.json', 'metadata.csv'];
const TEXT_FILE_MAX = 16 * 1024 ** 2;
/** Entries smaller than this are never judged by their compression ratio. */
const RATIO_FLOOR = 1024 ** 2;

const mb = (bytes: number) => `${Math.round(bytes / 1024 ** 2)} MB`;

/** The next entry of a zip opened with lazyEntries, or null at its end. */
function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const done = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: yauzl.Entry) => {
      done();
      resolve(entry);
    };
    const onEnd = () => {
      done();
      resolve(null);
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

/**
 * A zip whose entries are checked while they are inflated, one at a time (DESIGN.md §8: zip bombs):
 * unsafe paths, symbolic links and too many entries are refused from the central directory; each image
 * entry's first bytes must be a JPEG, PNG or TIFF before the rest is inflated; the inflated bytes are
 * counted as they come (the declared sizes are not trusted), and an entry or the whole passing its
 * limit, or inflating implausibly (`maxRatio`), stops the stream at once. Images go to files in the
 * caller's temporary folder, never to memory; only the package's metadata file is kept in memory.
 * Other files are not inflated at all: their names are kept (`others`).
 */
export class ZipSource implements ImageSource {
  private constructor(
    private readonly images: Map<string, string>,
    private readonly texts: Map<string, Buffer>,
    private readonly otherNames: string[],
  ) {}

  /**
   * Opens a zip (a file on disk, or bytes already in memory) and checks and unpacks its entries into
   * `tempDir`, which the caller creates and removes (`withTempDir`).
   */
  static async open(
    input: Buffer | string,
    where: string,
    limits: ZipLimits,
    options: { tempDir: string },
  ): Promise<ZipSource> {
    const yauzlOptions = {
      lazyEntries: true,
      validateEntrySizes: true,
      strictFileNames: false,
      autoClose: false,
    };
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
      const done = (error: Error | null, file?: yauzl.ZipFile) =>
        error || !file ? reject(badRequest('IMPORT_ZIP', `${where}：不是有效的 zip 文件`)) : resolve(file);
      if (typeof input === 'string') yauzl.open(input, yauzlOptions, done);
      else yauzl.fromBuffer(input, yauzlOptions, done);
    });
    const images = new Map<string, string>();
    const texts = new Map<string, Buffer>();
    const others: string[] = [];
    let total = 0;
    let count = 0;
    try {
      // The central directory says how many entries there are: refused before any is read.
      if (zip.entryCount > limits.maxEntries)
        throw badRequest('IMPORT_ZIP', `${where}：文件数超过 ${limits.maxEntries}`);
      for (;;) {
        let entry: yauzl.Entry | null;
        try {
          entry = await nextEntry(zip);
        } catch (error) {
          // yauzl refuses `../` and absolute names itself; say so in the same words as our own check.
          const unsafe = /(invalid relative path|absolute path): (.*)$/.exec(
            error instanceof Error ? error.message : '',
          );
          throw unsafe
            ? badRequest('IMPORT_UNSAFE_PATH', `${where}：路径“${unsafe[2]}”指向包外，已拒绝`)
            : badRequest('IMPORT_ZIP', `${where}：zip 文件已损坏`);
        }
        if (!entry) break;
        const name = entry.fileName.replace(/\\/g, '/');
        assertInside(entry.fileName, where);
        if (++count > limits.maxEntries)
          throw badRequest('IMPORT_ZIP', `${where}：文件数超过 ${limits.maxEntries}`);
        // A symbolic link (Unix mode in the upper half of the external attributes) points anywhere.
        if (((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000)
          throw badRequest('IMPORT_UNSAFE_PATH', `${where}：${entry.fileName} 是符号链接，已拒绝`);
        if (name.endsWith('/') || name.startsWith('__MACOSX/')) continue;
        const image = isImage(name);
        const text = TEXT_FILES.includes(name);
        if (!image && !text) {
          others.push(name);
          continue;
        }
        const entryMax = image ? limits.maxEntryBytes : TEXT_FILE_MAX;
        // The declared size is a cheap first refusal; the bytes themselves are counted below.
        if (entry.uncompressedSize > entryMax)
          throw badRequest('IMPORT_ZIP', `${where}：${name} 过大（解压后超过 ${mb(entryMax)}）`);
        if (total + entry.uncompressedSize > limits.maxTotalBytes)
          throw badRequest('IMPORT_ZIP', `${where}：解压后总大小超过上限 ${mb(limits.maxTotalBytes)}`);
        const stream = await new Promise<Readable>((resolve, reject) =>
          zip.openReadStream(entry, (error, readable) =>
            error || !readable
              ? reject(badRequest('IMPORT_ZIP', `${where}：无法读取 ${name}`))
              : resolve(readable),
          ),
        );
        const file = path.join(options.tempDir, `${count}.part`);
        let out: fs.FileHandle | undefined;
        const head: Buffer[] = [];
        let size = 0;
        let sniffed = false;
        const sniff = (bytes: Buffer) => {
          checkImageHead(bytes, `${where}：${name}`);
          sniffed = true;
        };
        try {
          for await (const chunk of stream as AsyncIterable<Buffer>) {
            size += chunk.length;
            total += chunk.length;
            if (size > entryMax)
              throw badRequest('IMPORT_ZIP', `${where}：${name} 过大（解压后超过 ${mb(entryMax)}）`);
            if (total > limits.maxTotalBytes)
              throw badRequest('IMPORT_ZIP', `${where}：解压后总大小超过上限 ${mb(limits.maxTotalBytes)}`);
            if (
              limits.maxRatio !== undefined &&
              size > RATIO_FLOOR &&
              size > entry.compressedSize * limits.maxRatio
            )
              throw badRequest(
                'IMPORT_ZIP',
                `${where}：${name} 解压后是压缩时的 ${limits.maxRatio} 倍以上，疑为压缩炸弹，已拒绝`,
              );
            if (!image || !sniffed) {
              head.push(chunk);
              if (!image) continue;
              const start = Buffer.concat(head);
              if (start.length < SNIFF_BYTES) continue;
              sniff(start);
              head.length = 0;
              out = await fs.open(file, 'wx');
              await out.write(start);
              continue;
            }
            await out!.write(chunk);
          }
        } catch (error) {
          stream.destroy();
          throw error instanceof AppError ? error : badRequest('IMPORT_ZIP', `${where}：${name} 已损坏`);
        } finally {
          await out?.close();
        }
        if (text) {
          texts.set(name, Buffer.concat(head));
          continue;
        }
        if (!sniffed) {
          const start = Buffer.concat(head);
          sniff(start);
          await fs.writeFile(file, start, { flag: 'wx' });
        }
        images.set(name, file);
      }
    } finally {
      zip.close();
    }
    return new ZipSource(images, texts, others);
  }

  /** Every image in the zip (any folder), in natural order of the whole path. */
  allImages(): string[] {
    return [...this.images.keys()].sort(naturalOrder);
  }

  /** Files that are not images (named in the refusal of an own-book upload). */
  others(): string[] {
    return [...this.otherNames];
  }

  list(folder: string): Promise<string[]> {
    assertInside(folder, '元数据');
    const prefix = normalizeFolder(folder);
    const inFolder = [...this.images.keys()].filter((name) => {
      const dir = name.includes('/') ? name.slice(0, name.lastIndexOf('/')) : '';
      return dir === prefix;
    });
    const names = [...this.images.keys(), ...this.texts.keys(), ...this.otherNames];
    if (inFolder.length === 0 && !names.some((n) => n.startsWith(`${prefix}/`))) {
      return Promise.reject(badRequest('IMPORT_FOLDER', `图像目录不存在：${folder}`));
    }
    return Promise.resolve(inFolder.sort(naturalOrder));
  }
  read(file: string): Promise<Buffer> {
    const at = this.images.get(file);
    return at ? fs.readFile(at) : Promise.reject(badRequest('IMPORT_FOLDER', `文件不存在：${file}`));
  }
  readText(file: string): Promise<string | undefined> {
    return Promise.resolve(this.texts.get(file)?.toString('utf8'));
  }
}

/** The metadata file of a package: metadata.json or metadata.csv at its root. */
export async function readPackageMetadata(source: ImageSource): Promise<BookInput[]> {
  const json = await source.readText('metadata.json');
  if (json !== undefined) return parseJsonMetadata(json, 'metadata.json');
  const csv = await source.readText('metadata.csv');
  if (csv !== undefined) return parseCsvMetadata(csv, 'metadata.csv');
  throw badRequest('IMPORT_METADATA', '包中缺少 metadata.json 或 metadata.csv');
}

/** Checks every book and page of a package, then imports the books one by one. */
export async function importPackage(ingest: IngestService, books: BookInput[], source: ImageSource) {
  const prepared: IngestBook[] = [];
  for (const book of books) {
    const volumes = [];
    for (const volume of book.volumes) {
      const files = await source.list(volume.images);
      if (files.length === 0)
        throw badRequest(
          'IMPORT_FOLDER',
          `${book.title} ${volume.name}：目录 ${volume.images} 中没有 JPEG、PNG 或 TIFF 图像`,
        );
      const toEntries = (entries: DirectoryInput[]): IngestDirectoryEntry[] =>
        entries.map((entry) => {
          if (entry.page && entry.page > files.length) {
            throw badRequest(
              'IMPORT_DIRECTORY',
              `${book.title} ${volume.name}：目录“${entry.name}”的页码 ${entry.page} 超过图像数 ${files.length}`,
            );
          }
          return {
            name: entry.name,
            pageIndex: entry.page ? entry.page - 1 : null,
            children: toEntries(entry.children ?? []),
          };
        });
      volumes.push({
        name: volume.name,
        introduction: volume.introduction ?? null,
        directory: toEntries(volume.directory),
        pages: await Promise.all(
          files.map(async (file, index) => ({
            name: `第${index + 1}頁`,
            source: file,
            data: await source.read(file),
          })),
        ),
      });
    }
    prepared.push({ ...book, volumes });
  }
  for (const book of prepared) await ingest.validate(book);
  const results = [];
  for (const book of prepared) results.push({ title: book.title, ...(await ingest.importBook(book)) });
  return results;
}
