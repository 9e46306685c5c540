import { imageOnly } from '../../lib/image-end.ts';
import { sniffImage } from '../../lib/image-sniff.ts';
import path from 'node:path';
import { isSafeName, MSG, showUnsafe, type OwnPage } from '@guji/shared';
import type { Transact } from '../../db/query.ts';
import type { JobRepository } from '../../jobs/job.repository.ts';
import type { OwnBookRepository } from './own-book.repository.ts';
import { badRequest } from '../../errors.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import { thumbnailUrl } from '../catalog/catalog.service.ts';
import type { FullTextService } from '../search/full-text.service.ts';
import { ZipSource, type ZipLimits } from '../import/import-package.ts';
import type { IngestService } from '../import/ingest.service.ts';
import type { SettingsService } from '../site/settings.service.ts';
import { naturalOrder } from '../../lib/natural-order.ts';
import { assertChangeable, ownerOnly, type Editor, type OwnAccess } from './own-access.ts';
import type { Auditor } from '../../audit/auditor.ts';
import { auditStaffEdit } from './own-audit.ts';

/** Limits of a reader's volume upload (DESIGN.md §8: zip bombs, entry counts). */
export const OWN_ZIP_LIMITS: ZipLimits = {
  maxEntries: 2000,
  maxTotalBytes: 512 * 1024 ** 2,
  maxEntryBytes: 100 * 1024 ** 2,
  maxRatio: 200,
};

/**
 * A page's name from its file name (the folder and the extension dropped); a name with control,
 * bidi-override or invisible characters or `<` `>` refuses the upload, naming the file (issue 13).
 */
export function pageName(fileName: string): string {
  if (!isSafeName(fileName))
    throw badRequest('FILE_NAME_UNSAFE', `${MSG.fileNameUnsafe}：${showUnsafe(fileName)}`);
  return path.basename(fileName.replace(/\\/g, '/')).replace(/\.[^.]+$/, '');
}

/** What OwnPageService is built from (wiring/). */
export interface OwnPageDeps {
  ownBooks: OwnBookRepository;
  catalog: CatalogRepository;
  access: OwnAccess;
  jobs: JobRepository;
  auditor: Auditor;
  transact: Transact;
  ingest: IngestService;
  fullText: FullTextService;
  settings: SettingsService;
}

/**
 * The pages of own books (spec §2 /FenCe, isLonely 1): uploaded as a zip or as images within the
 * owner's quota, listed with their OCR state, renamed, reordered, deleted; and a user's single
 * images, the pages of one hidden book of theirs. Catalogue staff's changes go to the audit log in the
 * change's transaction (an upload's: in the one that records the new pages' sizes, just after the
 * pages are added).
 */
export class OwnPageService {
  private readonly ownBooks: OwnBookRepository;
  private readonly catalog: CatalogRepository;
  private readonly access: OwnAccess;
  private readonly jobs: JobRepository;
  private readonly auditor: Auditor;
  private readonly transact: Transact;
  private readonly ingest: IngestService;
  private readonly fullText: FullTextService;
  private readonly settings: SettingsService;

  constructor(deps: OwnPageDeps) {
    this.ownBooks = deps.ownBooks;
    this.catalog = deps.catalog;
    this.access = deps.access;
    this.jobs = deps.jobs;
    this.auditor = deps.auditor;
    this.transact = deps.transact;
    this.ingest = deps.ingest;
    this.fullText = deps.fullText;
    this.settings = deps.settings;
  }

  /** Refuses an upload that would take the user past the site's page or storage quota. */
  private async checkQuota(userId: number, pages: number, bytes: number): Promise<void> {
    const site = await this.settings.get();
    const used = await this.ownBooks.usage(userId);
    if (used.pages + pages > site.ownQuotaPages)
      throw badRequest('OWN_QUOTA', MSG.ownQuotaPages.replace('{n}', String(site.ownQuotaPages)));
    if (used.bytes + bytes > site.ownQuotaMb * 1024 * 1024)
      throw badRequest('OWN_QUOTA', MSG.ownQuotaBytes.replace('{n}', String(site.ownQuotaMb)));
  }

  /**
   * Appends checked pages, within the owner's quota (the library's books have none), and records
   * their sizes, with the staff edit's audit record (`after` of 'pages.upload') in the same transaction.
   */
  private async append(
    editor: Editor,
    ownerId: number | null,
    volumeId: number,
    pages: Array<{ name: string; source: string; data: Buffer }>,
    audited: unknown,
  ) {
    if (ownerId !== null)
      await this.checkQuota(
        ownerId,
        pages.length,
        pages.reduce((sum, p) => sum + p.data.length, 0),
      );
    // The pages, their file sizes and the audit record in one transaction.
    return this.ingest.appendPages(volumeId, pages, async (tx, ids) => {
      for (const [i, id] of ids.entries()) await this.ownBooks.setFileBytes(id, pages[i]!.data.length, tx);
      await auditStaffEdit(this.auditor, editor, 'pages.upload', `volume:${volumeId}`, audited, tx);
    });
  }

  /** Refuses an upload into a volume the editor may not change, before its bytes are received. */
  async checkUploadTarget(editor: Editor, volumeId: number): Promise<void> {
    assertChangeable((await this.access.volume(editor, volumeId)).book);
  }

  /**
   * A volume's pages from a .zip of images (a file the route saved under `tempDir`): unsafe paths,
   * symbolic links, too many entries, too much after unpacking, and anything that is not an image are
   * refused by name before the volume changes. Entries are checked while they are inflated, into
   * `tempDir` (ZipSource).
   */
  async uploadZip(
    editor: Editor,
    volumeId: number,
    fileName: string,
    zipFile: string,
    tempDir: string,
  ): Promise<{ added: number; names: string[] }> {
    const { book } = await this.access.volume(editor, volumeId);
    assertChangeable(book);
    if (path.extname(fileName).toLowerCase() !== '.zip') throw badRequest('OWN_ZIP_ONLY', MSG.ownZipOnly);
    const zip = await ZipSource.open(zipFile, fileName, OWN_ZIP_LIMITS, { tempDir });
    const others = zip.others();
    if (others.length > 0)
      throw badRequest('OWN_ZIP_NOT_IMAGE', `${MSG.ownZipNotImage}：${others.slice(0, 5).join('、')}`);
    const names = zip.allImages();
    const pages = [];
    for (const name of names)
      pages.push({
        name: pageName(name),
        source: `${fileName}/${name}`,
        data: await zip.read(name).then((data) => imageOnly(data, sniffImage(data))),
      });
    await this.append(editor, book.owner_id, volumeId, pages, { file: fileName, added: pages.length });
    return { added: pages.length, names };
  }

  // Pages of a volume

  async pages(editor: Editor, volumeId: number): Promise<OwnPage[]> {
    await this.access.volume(editor, volumeId);
    const rows = await this.catalog.listPages(volumeId);
    const latest = await this.jobs.statusByDedupeKey(rows.map((r) => `ocr:${r.id}`));
    return rows.map((row) => {
      const job = latest.get(`ocr:${row.id}`);
      const ocrStatus: OwnPage['ocrStatus'] =
        job === 'queued' || job === 'running'
          ? job
          : row.ocr_json
            ? 'done'
            : job === 'failed'
              ? 'failed'
              : 'none';
      return {
        imageId: row.id,
        name: row.name,
        pageNumber: row.seq,
        thumbnailUrl: thumbnailUrl(row.id),
        width: row.width,
        height: row.height,
        ocrStatus,
      };
    });
  }

  async renamePage(editor: Editor, pageId: number, name: string): Promise<void> {
    await this.access.changeablePage(editor, pageId);
    await this.transact(async (tx) => {
      await this.ownBooks.renamePage(pageId, name, tx);
      await auditStaffEdit(this.auditor, editor, 'page.rename', `page:${pageId}`, { imageName: name }, tx);
    });
  }

  async deletePage(editor: Editor, pageId: number): Promise<void> {
    const page = await this.access.changeablePage(editor, pageId);
    await this.transact(async (tx) => {
      await this.ownBooks.deletePage(pageId, page.volume_id, tx);
      await this.fullText.indexBook(page.book_id, tx);
      await auditStaffEdit(this.auditor, editor, 'page.delete', `page:${pageId}`, null, tx);
    });
    await this.ingest.removePageFiles([page]);
  }

  /** A new order of all the volume's pages (spec: reorder). */
  async reorder(editor: Editor, volumeId: number, imageIds: number[]): Promise<void> {
    const { book } = await this.access.volume(editor, volumeId);
    assertChangeable(book);
    const ids = new Set(await this.ownBooks.pageIds(volumeId));
    if (
      imageIds.length !== ids.size ||
      new Set(imageIds).size !== ids.size ||
      imageIds.some((id) => !ids.has(id))
    )
      throw badRequest('OWN_ORDER', MSG.ownOrderInvalid);
    await this.transact(async (tx) => {
      await this.ownBooks.reorder(imageIds, tx);
      await auditStaffEdit(this.auditor, editor, 'pages.order', `volume:${volumeId}`, imageIds, tx);
    });
  }

  /** More page images for a volume (one or several files; each checked like a zip's). */
  async uploadImages(
    editor: Editor,
    volumeId: number,
    files: Array<{ name: string; data: Buffer }>,
  ): Promise<number> {
    const { book } = await this.access.volume(editor, volumeId);
    assertChangeable(book);
    for (const f of files) pageName(f.name);
    const ordered = [...files].sort((a, b) => naturalOrder(a.name, b.name));
    await this.append(
      editor,
      book.owner_id,
      volumeId,
      ordered.map((f) => ({
        name: pageName(f.name),
        source: f.name,
        data: f.data,
      })),
      { added: files.length },
    );
    return files.length;
  }

  // Single images (spec isLonely 1): the pages of one hidden book per user

  /**
   * The volume holding the user's single images, made on first use, in one transaction with its book: a
   * second first upload at the same moment waits for the first's book and finds its volume.
   */
  private async singlesVolume(userId: number, create: boolean): Promise<number | null> {
    const bookId = await this.ownBooks.singlesBook(userId);
    const volume = bookId === undefined ? undefined : await this.ownBooks.firstVolume(bookId);
    if (volume !== undefined) return volume;
    if (!create) return null;
    return this.transact(async (tx) => {
      const id = await this.ownBooks.ensureSinglesBook(userId, tx);
      const first = await this.ownBooks.firstVolume(id, tx);
      return (
        first ?? this.catalog.createVolume({ bookId: id, name: '单张图像', introduction: null, sort: 0 }, tx)
      );
    });
  }

  async singles(userId: number): Promise<OwnPage[]> {
    const volumeId = await this.singlesVolume(userId, false);
    return volumeId === null ? [] : this.pages(ownerOnly(userId), volumeId);
  }

  async uploadSingles(userId: number, files: Array<{ name: string; data: Buffer }>): Promise<number> {
    const volumeId = (await this.singlesVolume(userId, true))!;
    return this.uploadImages(ownerOnly(userId), volumeId, files);
  }
}
