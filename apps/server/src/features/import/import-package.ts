/**
 * Import packages: a metadata file (JSON or CSV) naming, per volume, a folder of page images, either
 * on disk or inside a zip. Everything is checked before anything is written; errors name the file,
 * row and field. Page order is the natural order of file names (2.jpg before 10.jpg).
 */
import { badRequest } from '../../errors.ts';
import type { IngestBook, IngestDirectoryEntry, IngestService } from './ingest.service.ts';
import type { ImageSource } from './image-source.ts';
import {
  parseCsvMetadata,
  parseJsonMetadata,
  type BookInput,
  type DirectoryInput,
} from './package-metadata.ts';

// Re-exported for the modules that import them from here (routes taking uploads, own books).
export { checkImageHead, SNIFF_BYTES } from './image-source.ts';
export { ZIP_LIMITS, ZipSource, type ZipLimits } from './zip-source.ts';

/** The metadata file of a package: metadata.json or metadata.csv at its root. */
export async function readPackageMetadata(source: ImageSource): Promise<BookInput[]> {
  const json = await source.readText('metadata.json');
  if (json !== undefined) return parseJsonMetadata(json, 'metadata.json');
  const csv = await source.readText('metadata.csv');
  if (csv !== undefined) return parseCsvMetadata(csv, 'metadata.csv');
  throw badRequest('IMPORT_METADATA', '包中缺少 metadata.json 或 metadata.csv');
}

/**
 * Checks every book and page of a package, then imports the books one by one. With `audit` (an
 * administrator's upload), the import's audit record is written with the last book (IngestService.importBooks).
 */
export async function importPackage(
  ingest: IngestService,
  books: BookInput[],
  source: ImageSource,
  audit?: { actorId: number; fileName: string },
) {
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
  return ingest.importBooks(prepared, audit);
}
