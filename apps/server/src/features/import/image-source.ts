/** Where a package's page images come from (a folder on disk), and the checks all image sources make. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { badRequest } from '../../errors.ts';
import { sniffImage } from '../../lib/image-sniff.ts';
import { naturalOrder } from '../../lib/natural-order.ts';

export const IMAGE_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.tif', '.tiff'];

/** Where page images come from: a folder on disk or a zip. Paths use forward slashes. */
export interface ImageSource {
  /** Image files directly inside `folder`, in natural name order. */
  list(folder: string): Promise<string[]>;
  read(file: string): Promise<Buffer>;
  readText(file: string): Promise<string | undefined>;
}

/** Whether a file name has an image extension (IMAGE_EXTENSIONS, any case). */
export const isImage = (name: string) => IMAGE_EXTENSIONS.includes(path.extname(name).toLowerCase());
/** A folder as the metadata names it, with forward slashes and no leading `./` or trailing `/`. */
export const normalizeFolder = (folder: string) =>
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
