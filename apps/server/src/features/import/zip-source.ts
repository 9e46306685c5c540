/** A package or upload in a zip, each entry checked as it is inflated (zip bombs, unsafe paths, types). */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { AppError, badRequest } from '../../errors.ts';
import { naturalOrder } from '../../lib/natural-order.ts';
import {
  assertInside,
  checkImageHead,
  isImage,
  normalizeFolder,
  SNIFF_BYTES,
  type ImageSource,
} from './image-source.ts';

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

/** One zip being unpacked: its limits and the inflated bytes counted so far. */
interface Unpacking {
  zip: yauzl.ZipFile;
  where: string;
  limits: ZipLimits;
  total: number;
}

/** A zip file on disk or in memory, opened for reading one entry at a time. */
function openZip(input: Buffer | string, where: string): Promise<yauzl.ZipFile> {
  const yauzlOptions = {
    lazyEntries: true,
    validateEntrySizes: true,
    strictFileNames: false,
    autoClose: false,
  };
  return new Promise<yauzl.ZipFile>((resolve, reject) => {
    const done = (error: Error | null, file?: yauzl.ZipFile) =>
      error || !file ? reject(badRequest('IMPORT_ZIP', `${where}：不是有效的 zip 文件`)) : resolve(file);
    if (typeof input === 'string') yauzl.open(input, yauzlOptions, done);
    else yauzl.fromBuffer(input, yauzlOptions, done);
  });
}

/** The next entry, or null at the end; a damaged directory or an unsafe name is the package's fault. */
async function readEntry(zip: yauzl.ZipFile, where: string): Promise<yauzl.Entry | null> {
  try {
    return await nextEntry(zip);
  } catch (error) {
    // yauzl refuses `../` and absolute names itself; say so in the same words as our own check.
    const unsafe = /(invalid relative path|absolute path): (.*)$/.exec(
      error instanceof Error ? error.message : '',
    );
    throw unsafe
      ? badRequest('IMPORT_UNSAFE_PATH', `${where}：路径“${unsafe[2]}”指向包外，已拒绝`)
      : badRequest('IMPORT_ZIP', `${where}：zip 文件已损坏`);
  }
}

/**
 * Inflates one entry, counting its bytes and the zip's as they come: an image (`file` given) is written
 * there once its first bytes show a JPEG, PNG or TIFF; a metadata file (`file` null) is answered.
 */
async function unpackEntry(
  unpacking: Unpacking,
  entry: yauzl.Entry,
  name: string,
  file: string | null,
): Promise<Buffer> {
  const { zip, where, limits } = unpacking;
  const image = file !== null;
  const entryMax = image ? limits.maxEntryBytes : TEXT_FILE_MAX;
  const tooLarge = () => badRequest('IMPORT_ZIP', `${where}：${name} 过大（解压后超过 ${mb(entryMax)}）`);
  const tooMuch = () =>
    badRequest('IMPORT_ZIP', `${where}：解压后总大小超过上限 ${mb(limits.maxTotalBytes)}`);
  // The declared size is a cheap first refusal; the bytes themselves are counted below.
  if (entry.uncompressedSize > entryMax) throw tooLarge();
  if (unpacking.total + entry.uncompressedSize > limits.maxTotalBytes) throw tooMuch();
  const stream = await new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(entry, (error, readable) =>
      error || !readable ? reject(badRequest('IMPORT_ZIP', `${where}：无法读取 ${name}`)) : resolve(readable),
    ),
  );
  let out: fs.FileHandle | undefined;
  const head: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      unpacking.total += chunk.length;
      if (size > entryMax) throw tooLarge();
      if (unpacking.total > limits.maxTotalBytes) throw tooMuch();
      if (
        limits.maxRatio !== undefined &&
        size > RATIO_FLOOR &&
        size > entry.compressedSize * limits.maxRatio
      )
        throw badRequest(
          'IMPORT_ZIP',
          `${where}：${name} 解压后是压缩时的 ${limits.maxRatio} 倍以上，疑为压缩炸弹，已拒绝`,
        );
      if (out) {
        await out.write(chunk);
        continue;
      }
      head.push(chunk);
      if (!image) continue;
      const start = Buffer.concat(head);
      if (start.length < SNIFF_BYTES) continue;
      checkImageHead(start, `${where}：${name}`);
      head.length = 0;
      out = await fs.open(file, 'wx');
      await out.write(start);
    }
  } catch (error) {
    stream.destroy();
    // A failed write of our own (a full disk: a system error with its syscall) is not the zip's fault.
    if (error instanceof AppError || (error as NodeJS.ErrnoException).syscall) throw error;
    throw badRequest('IMPORT_ZIP', `${where}：${name} 已损坏`);
  } finally {
    await out?.close();
  }
  const rest = Buffer.concat(head);
  // An image shorter than the sniffed head: judged and written whole.
  if (image && !out) {
    checkImageHead(rest, `${where}：${name}`);
    await fs.writeFile(file, rest, { flag: 'wx' });
  }
  return rest;
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
    const zip = await openZip(input, where);
    const images = new Map<string, string>();
    const texts = new Map<string, Buffer>();
    const others: string[] = [];
    const unpacking: Unpacking = { zip, where, limits, total: 0 };
    let count = 0;
    try {
      // The central directory says how many entries there are: refused before any is read.
      if (zip.entryCount > limits.maxEntries)
        throw badRequest('IMPORT_ZIP', `${where}：文件数超过 ${limits.maxEntries}`);
      for (let entry = await readEntry(zip, where); entry; entry = await readEntry(zip, where)) {
        const name = entry.fileName.replace(/\\/g, '/');
        assertInside(entry.fileName, where);
        if (++count > limits.maxEntries)
          throw badRequest('IMPORT_ZIP', `${where}：文件数超过 ${limits.maxEntries}`);
        // A symbolic link (Unix mode in the upper half of the external attributes) points anywhere.
        if (((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000)
          throw badRequest('IMPORT_UNSAFE_PATH', `${where}：${entry.fileName} 是符号链接，已拒绝`);
        if (name.endsWith('/') || name.startsWith('__MACOSX/')) continue;
        if (isImage(name)) {
          const file = path.join(options.tempDir, `${count}.part`);
          await unpackEntry(unpacking, entry, name, file);
          images.set(name, file);
        } else if (TEXT_FILES.includes(name)) {
          texts.set(name, await unpackEntry(unpacking, entry, name, null));
        } else {
          others.push(name);
        }
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
