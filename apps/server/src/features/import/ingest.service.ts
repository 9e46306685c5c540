import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { DbOrTx } from '../../db/database.ts';
import type { Transact } from '../../db/query.ts';
import type { Auditor } from '../../audit/auditor.ts';
import type { FullTextService } from '../search/full-text.service.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { badRequest } from '../../errors.ts';
import { sniffImage } from '../../lib/image-sniff.ts';
import type { FileStorage } from '../../storage/storage.ts';

import {
  DEFAULT_UPLOAD_MAX_PIXELS,
  type IngestBook,
  type ImportedBook,
  type IngestDirectoryEntry,
  type IngestPage,
  type IngestVolume,
} from './ingest-types.ts';

export * from './ingest-types.ts';

const EXTENSIONS: Record<string, string> = { jpeg: 'jpg', png: 'png', tiff: 'tif' };

/** What IngestService is built from (wiring/). */
export interface IngestDeps {
  transact: Transact;
  catalog: CatalogRepository;
  queue: JobQueue;
  storage: FileStorage;
  /** DATA_DIR: the IIIF disk cache of removed pages is emptied there. */
  dataDir: string;
  fullText: FullTextService;
  auditor: Auditor;
  ocrOnIngest?: boolean;
  /** Largest image accepted, in pixels (decompression bombs; config UPLOAD_MAX_PIXELS). */
  maxPixels?: number;
}

/**
 * Imports a book: checks every page first (type by content, size, pixel limit) so a bad file stops the
 * import before anything is written, stores the masters, writes all rows in one transaction, then
 * queues the pyramid of every page. Importing the same source key again replaces the earlier book.
 */
export class IngestService {
  private readonly transact: Transact;
  private readonly catalog: CatalogRepository;
  private readonly queue: JobQueue;
  private readonly storage: FileStorage;
  /** DATA_DIR: the IIIF disk cache of removed pages is emptied there. */
  private readonly dataDir: string;
  private readonly fullText: FullTextService;
  private readonly auditor: Auditor;
  private readonly ocrOnIngest: boolean;
  /** Largest image accepted, in pixels (decompression bombs; config UPLOAD_MAX_PIXELS). */
  private readonly maxPixels: number;

  constructor(deps: IngestDeps) {
    this.transact = deps.transact;
    this.catalog = deps.catalog;
    this.queue = deps.queue;
    this.storage = deps.storage;
    this.dataDir = deps.dataDir;
    this.fullText = deps.fullText;
    this.auditor = deps.auditor;
    this.ocrOnIngest = deps.ocrOnIngest ?? true;
    this.maxPixels = deps.maxPixels ?? DEFAULT_UPLOAD_MAX_PIXELS;
  }

  /** Checks every page and directory entry of a book without writing anything. */
  async validate(book: IngestBook): Promise<Array<Array<{ kind: string; width: number; height: number }>>> {
    const checked = await Promise.all(
      book.volumes.map((volume) => Promise.all(volume.pages.map((page) => checkPage(page, this.maxPixels)))),
    );
    for (const volume of book.volumes) checkDirectory(volume);
    return checked;
  }

  /**
   * Imports a book. `inTransaction`, when given, runs in the transaction that writes the book's rows
   * (an audit record that should stand or fall with them).
   */
  async importBook(
    book: IngestBook,
    inTransaction?: (imported: ImportedBook, tx: DbOrTx) => Promise<void>,
  ): Promise<ImportedBook> {
    const checked = await this.validate(book);

    const stamp = Date.now().toString(36);
    const written: string[] = [];
    const masterKey = (v: number, p: number, kind: string) =>
      `masters/${safeKey(book.sourceKey)}-${stamp}/${v + 1}/${String(p + 1).padStart(4, '0')}.${EXTENSIONS[kind]}`;
    try {
      for (const [v, volume] of book.volumes.entries()) {
        for (const [p, page] of volume.pages.entries()) {
          const key = masterKey(v, p, checked[v]![p]!.kind);
          await this.storage.put(key, page.data);
          written.push(key);
        }
      }
      const previous = await this.catalog.findBookBySourceKey(book.sourceKey);
      const result = await this.transact(async (tx) => {
        if (previous) await this.catalog.deleteBook(previous.id, tx);
        const bookId = await this.catalog.createBook(bookRow(book, previous?.view_count ?? 0), tx);
        const pageIds: number[] = [];
        for (const [v, volume] of book.volumes.entries()) {
          const masters = volume.pages.map((_page, p) => masterKey(v, p, checked[v]![p]!.kind));
          pageIds.push(...(await this.writeVolume(bookId, v, volume, checked[v]!, masters, tx)));
        }
        // The book's text goes into the full-text index with the book, in the same transaction.
        await this.fullText.indexBook(bookId, tx);
        // Its jobs too: a process that dies after the commit leaves no page without its pyramid job.
        const withoutText = book.volumes
          .flatMap((volume) => volume.pages)
          .map((page) => page.ocrJson === undefined);
        for (const [i, pageId] of pageIds.entries()) {
          await this.queue.enqueue('images.pyramid', { pageId }, { dedupeKey: `pyramid:${pageId}`, tx });
          // Pages that came without text are read by the OCR engine.
          if ((this.ocrOnIngest || book.alwaysOcr) && withoutText[i])
            await this.queue.enqueue('ocr.page', { pageId }, { dedupeKey: `ocr:${pageId}`, tx });
        }
        const imported = { bookId, pageIds };
        if (inTransaction) await inTransaction(imported, tx);
        return imported;
      });
      if (previous) await this.removeOldFiles(previous.id, written);
      return result;
    } catch (error) {
      await Promise.all(written.map((key) => this.storage.delete(key)));
      throw error;
    }
  }

  /** A volume's rows in the import's transaction: the volume, its pages and its directory; the pages' ids. */
  private async writeVolume(
    bookId: number,
    sort: number,
    volume: IngestVolume,
    checked: CheckedPage[],
    masters: string[],
    tx: DbOrTx,
  ): Promise<number[]> {
    const volumeId = await this.catalog.createVolume(
      { bookId, name: volume.name, introduction: volume.introduction ?? null, sort },
      tx,
    );
    const ids: number[] = [];
    for (const [p, page] of volume.pages.entries()) {
      const info = checked[p]!;
      ids.push(
        await this.catalog.createPage(
          {
            volumeId,
            bookId,
            seq: p + 1,
            name: page.name,
            width: info.width,
            height: info.height,
            masterKey: masters[p]!,
            ocrJson: page.ocrJson === undefined ? null : JSON.stringify(page.ocrJson),
          },
          tx,
        ),
      );
    }
    let entrySort = 0;
    const addEntries = async (entries: IngestDirectoryEntry[], parentId: number | null) => {
      for (const entry of entries) {
        const id = await this.catalog.createDirectoryEntry(
          {
            volumeId,
            bookId,
            parentId,
            name: entry.name,
            pageId: entry.pageIndex === null ? null : ids[entry.pageIndex]!,
            sort: entrySort++,
          },
          tx,
        );
        await addEntries(entry.children ?? [], id);
      }
    };
    await addEntries(volume.directory, null);
    return ids;
  }

  /**
   * Imports the books of a package one by one, each its own transaction (importBook). With `audit`
   * (an administrator's upload), the import's audit record is written in the last book's transaction:
   * it is there once every book is, and a failed record leaves the last book out as well.
   */
  async importBooks(
    books: IngestBook[],
    audit?: { actorId: number; fileName: string },
  ): Promise<Array<ImportedBook & { title: string }>> {
    const results: Array<ImportedBook & { title: string }> = [];
    for (const [i, book] of books.entries()) {
      const last = i === books.length - 1;
      const record =
        audit && last
          ? async (imported: ImportedBook, tx: DbOrTx) => {
              const all = [...results, { title: book.title, ...imported }];
              await this.auditor.record(
                audit.actorId,
                'book.import',
                audit.fileName,
                null,
                { books: all.map((r) => ({ title: r.title, bookId: r.bookId, pages: r.pageIds.length })) },
                tx,
              );
            }
          : undefined;
      results.push({ title: book.title, ...(await this.importBook(book, record)) });
    }
    return results;
  }

  /**
   * Adds pages at the end of an existing volume (an own book's zip upload): every page is checked
   * first, so one bad file changes nothing; then masters, rows, pyramid jobs and (when configured) OCR.
   * `within` runs inside the transaction that adds the rows (the caller's own records of the change,
   * e.g. file sizes and the audit record), so they stand or fall with the pages.
   */
  async appendPages(
    volumeId: number,
    pages: IngestPage[],
    within?: (tx: DbOrTx, pageIds: number[]) => Promise<void>,
  ): Promise<number[]> {
    const volume = await this.catalog.findVolume(volumeId);
    if (!volume) throw badRequest('INGEST_VOLUME', '卷册不存在');
    if (pages.length === 0) throw badRequest('INGEST_EMPTY_VOLUME', `${volume.name}：没有页面图像`);
    const checked = await Promise.all(pages.map((page) => checkPage(page, this.maxPixels)));
    const stamp = Date.now().toString(36);
    const written: string[] = [];
    try {
      const keys = pages.map(
        (_, i) =>
          `masters/own-${volume.book_id}-${volumeId}-${stamp}/${String(i + 1).padStart(4, '0')}.${EXTENSIONS[checked[i]!.kind]}`,
      );
      for (const [i, page] of pages.entries()) {
        await this.storage.put(keys[i]!, page.data);
        written.push(keys[i]!);
      }
      const ids = await this.transact(async (tx) => {
        const start = await this.catalog.lastPageSeq(volumeId, tx);
        const created: number[] = [];
        for (const [i, page] of pages.entries()) {
          created.push(
            await this.catalog.createPage(
              {
                volumeId,
                bookId: volume.book_id,
                seq: start + i + 1,
                name: page.name,
                width: checked[i]!.width,
                height: checked[i]!.height,
                masterKey: keys[i]!,
                ocrJson: null,
              },
              tx,
            ),
          );
        }
        // The pages' jobs commit with them (a process that dies after the commit loses none).
        for (const pageId of created) {
          await this.queue.enqueue('images.pyramid', { pageId }, { dedupeKey: `pyramid:${pageId}`, tx });
          if (this.ocrOnIngest)
            await this.queue.enqueue('ocr.page', { pageId }, { dedupeKey: `ocr:${pageId}`, tx });
        }
        await within?.(tx, created);
        return created;
      });
      return ids;
    } catch (error) {
      await Promise.all(written.map((key) => this.storage.delete(key)));
      throw error;
    }
  }

  /**
   * Removes the files of pages whose rows are gone: the master, the pyramid and the cached IIIF
   * answers. Called after the deleting transaction, so a failed delete never loses a file.
   */
  async removePageFiles(
    pages: ReadonlyArray<{ id: number; master_key: string; pyramid_key: string | null }>,
  ): Promise<void> {
    const cache = path.join(this.dataDir, 'cache', 'iiif');
    for (const page of pages) {
      await this.storage.delete(page.master_key);
      if (page.pyramid_key) await this.storage.delete(page.pyramid_key);
      await fs.rm(path.join(cache, String(page.id)), { force: true, recursive: true });
    }
  }

  /** The file keys of the pages of a book or a volume, read before they are deleted. */
  async pageFiles(
    where: { bookId: number } | { volumeId: number },
  ): Promise<Array<{ id: number; master_key: string; pyramid_key: string | null }>> {
    return this.catalog.pageFiles(where);
  }

  /** Deletes master and pyramid folders of a replaced book that the new import does not use. */
  private async removeOldFiles(oldBookId: number, keep: string[]): Promise<void> {
    await this.storage.deletePrefix(`pyramids/${oldBookId}/`);
    const keepDirs = new Set(keep.map((key) => key.split('/').slice(0, 2).join('/')));
    const prefix = keep[0]?.split('/')[1]?.replace(/-[^-]+$/, '');
    if (!prefix) return;
    const old = new Set<string>();
    for await (const { key } of this.storage.list(`masters/${prefix}-`)) {
      const dir = key.split('/').slice(0, 2).join('/');
      if (!keepDirs.has(dir)) old.add(dir);
    }
    for (const dir of old) await this.storage.deletePrefix(`${dir}/`);
  }
}

/**
 * Type by content, then size from the header alone (nothing is decoded here): an image over the pixel
 * cap is refused naming its size and the cap, before any job would decode it.
 */
/** What checking a page found: its format and size. */
type CheckedPage = { kind: string; width: number; height: number };

/** The catalogue row of an imported book (a re-import keeps the old row's view count). */
function bookRow(book: IngestBook, viewCount: number) {
  return {
    source_key: book.sourceKey,
    title: book.title,
    author: book.author ?? null,
    publish_dynasty: book.publishDynasty ?? null,
    coverage_dynasty: book.coverageDynasty ?? null,
    edition_type: book.editionType ?? null,
    call_number: book.callNumber ?? null,
    class_code: book.classCode ?? null,
    is_visible: book.isVisible ? 1 : 0,
    is_open: book.isOpen ? 1 : 0,
    actual_volume: book.actualVolume ?? book.volumes.length,
    book_number: book.bookNumber ?? book.volumes.length,
    view_count: viewCount,
  };
}

async function checkPage(page: IngestPage, maxPixels: number): Promise<CheckedPage> {
  const kind = sniffImage(page.data);
  if (!kind || !(kind in EXTENSIONS))
    throw badRequest('INGEST_IMAGE_TYPE', `${page.source}：不是 JPEG、PNG 或 TIFF 图像`);
  let meta;
  try {
    // The header only: the cap is checked below with a message that names it.
    meta = await sharp(page.data, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest('INGEST_IMAGE_BROKEN', `${page.source}：图像已损坏，无法读取`);
  }
  if (!meta.width || !meta.height)
    throw badRequest('INGEST_IMAGE_BROKEN', `${page.source}：无法读取图像尺寸`);
  if (meta.width * meta.height > maxPixels)
    throw badRequest(
      'INGEST_IMAGE_TOO_LARGE',
      `${page.source}：图像为 ${meta.width}×${meta.height}（${pixelCount(meta.width * meta.height)}像素），超过每页 ${pixelCount(maxPixels)}像素的上限`,
    );
  return { kind, width: meta.width, height: meta.height };
}

/** 60000000 → "6000 万", 196000000 → "1.96 亿". */
export function pixelCount(pixels: number): string {
  if (pixels >= 100_000_000) return `${Number((pixels / 100_000_000).toFixed(2))} 亿`;
  if (pixels >= 10_000) return `${Number((pixels / 10_000).toFixed(1))} 万`;
  return String(pixels);
}

function checkDirectory(volume: IngestVolume): void {
  const walk = (entries: IngestDirectoryEntry[]) => {
    for (const entry of entries) {
      if (!entry.name.trim()) throw badRequest('INGEST_DIRECTORY', `${volume.name}：目录条目缺少名称`);
      if (entry.pageIndex !== null && (entry.pageIndex < 0 || entry.pageIndex >= volume.pages.length)) {
        throw badRequest(
          'INGEST_DIRECTORY',
          `${volume.name}：目录“${entry.name}”指向不存在的第 ${entry.pageIndex + 1} 页`,
        );
      }
      walk(entry.children ?? []);
    }
  };
  if (volume.pages.length === 0) throw badRequest('INGEST_EMPTY_VOLUME', `${volume.name}：没有页面图像`);
  walk(volume.directory);
}

const safeKey = (key: string): string => key.replace(/[^A-Za-z0-9_-]/g, '_');
