import path from 'node:path';
import {
  DIRECTORY_LIMITS,
  isSafeName,
  MSG,
  showUnsafe,
  OWN_FIRST_PAGE_SIZE,
  type DirectoryInput,
  OWN_PAGE_SIZE,
  type OwnBook,
  type OwnPage,
  type Volume,
  OWN_STATUS,
} from '@guji/shared';
import type { Transact } from '../../db/query.ts';
import type { JobRepository } from '../../jobs/job.repository.ts';
import type { UserRepository } from '../accounts/user.repository.ts';
import type { OwnBookRepository } from './own-book.repository.ts';
import { nowIso } from '../../db/database.ts';
import type { BookRow } from '../../db/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import { refuseDeletionOfUsedBook } from '../console/catalog-admin.service.ts';
import { manifestUrl, thumbnailUrl } from '../catalog/catalog.service.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FullTextService } from '../search/full-text.service.ts';
import { ZipSource, type ZipLimits } from '../import/import-package.ts';
import type { IngestService } from '../import/ingest.service.ts';
import type { Paged } from '../../lib/paged.ts';
import type { SettingsService } from '../site/settings.service.ts';
import { naturalOrder } from '../../lib/natural-order.ts';

/** Limits of a reader's volume upload (DESIGN.md §8: zip bombs, entry counts). */
export const OWN_ZIP_LIMITS: ZipLimits = {
  maxEntries: 2000,
  maxTotalBytes: 512 * 1024 ** 2,
  maxEntryBytes: 100 * 1024 ** 2,
  maxRatio: 200,
};

const NOT_FOUND = () => notFound(MSG.noData, 'NO_DATA');
const SELF_REVIEW = () => forbidden(MSG.ownSelfReview, 'OWN_SELF_REVIEW');

/**
 * A page's name from its file name (the folder and the extension dropped); a name with control,
 * bidi-override or invisible characters or `<` `>` refuses the upload, naming the file (issue 13).
 */
export function pageName(fileName: string): string {
  if (!isSafeName(fileName))
    throw badRequest('FILE_NAME_UNSAFE', `${MSG.fileNameUnsafe}：${showUnsafe(fileName)}`);
  return path.basename(fileName.replace(/\\/g, '/')).replace(/\.[^.]+$/, '');
}

/**
 * Whether a book's volumes, pages, text and directory may change now. Under review ('1') nothing
 * changes, so the reviewer judges what will be published; once published ('2') an own book is frozen
 * for its owner (every change would be public at once, unreviewed) until the owner withdraws it from
 * publication (`unpublish`, back to '0'). The library's own books (no owner) stay editable by staff.
 */
export function assertChangeable(book: Pick<BookRow, 'audit_status' | 'owner_id'>): void {
  if (book.owner_id === null) return;
  if (book.audit_status === OWN_STATUS.reviewing) throw conflict('OWN_LOCKED', MSG.ownLocked);
  if (book.audit_status === OWN_STATUS.published) throw conflict('OWN_PUBLISHED', MSG.ownPublishedLocked);
}

/**
 * Who changes a book's volumes and pages: its owner, or catalogue staff (catalogAdmin) on the
 * library's own books (no owner), which the console manages with the same screens.
 */
export interface Editor {
  id: number;
  catalogStaff: boolean;
}
const ownerOnly = (userId: number): Editor => ({ id: userId, catalogStaff: false });

/**
 * Own books (spec §1, §2 /OCRAside and /FenCe, §4 own-book states, §6 content creators): a user's
 * books, their volumes and pages uploaded as a zip, submission for publication, and the reviewers'
 * decision. Every query of the owner's side is scoped by owner: another user's book is "no data".
 */
export class OwnBookService {
  constructor(
    private readonly ownBooks: OwnBookRepository,
    private readonly catalog: CatalogRepository,
    private readonly users: UserRepository,
    private readonly jobs: JobRepository,
    private readonly transact: Transact,
    private readonly ingest: IngestService,
    private readonly fullText: FullTextService,
    private readonly clock: Clock,
    private readonly settings: SettingsService,
  ) {}

  /** Refuses an upload that would take the user past the site's page or storage quota. */
  private async checkQuota(userId: number, pages: number, bytes: number): Promise<void> {
    const site = await this.settings.get();
    const used = await this.ownBooks.usage(userId);
    if (used.pages + pages > site.ownQuotaPages)
      throw badRequest('OWN_QUOTA', MSG.ownQuotaPages.replace('{n}', String(site.ownQuotaPages)));
    if (used.bytes + bytes > site.ownQuotaMb * 1024 * 1024)
      throw badRequest('OWN_QUOTA', MSG.ownQuotaBytes.replace('{n}', String(site.ownQuotaMb)));
  }

  /** Appends checked pages, within the owner's quota (the library's books have none), and records their sizes. */
  private async append(
    ownerId: number | null,
    volumeId: number,
    pages: Array<{ name: string; source: string; data: Buffer }>,
  ) {
    if (ownerId !== null)
      await this.checkQuota(
        ownerId,
        pages.length,
        pages.reduce((sum, p) => sum + p.data.length, 0),
      );
    const ids = await this.ingest.appendPages(volumeId, pages);
    for (const [i, id] of ids.entries()) await this.ownBooks.setFileBytes(id, pages[i]!.data.length);
    return ids;
  }

  private async own(editor: Editor | number, bookId: number): Promise<BookRow> {
    const { id, catalogStaff } = typeof editor === 'number' ? ownerOnly(editor) : editor;
    const book = await this.catalog.findBook(bookId);
    if (!book) throw NOT_FOUND();
    const allowed = book.owner_id === id || (catalogStaff && book.owner_id === null);
    if (!allowed) throw NOT_FOUND();
    return book;
  }

  private async toOwnBooks(rows: BookRow[], withOwner = false): Promise<OwnBook[]> {
    const ids = rows.map((r) => r.id);
    const covers = await this.catalog.coverPageIds(ids);
    const counts = await this.catalog.volumeAndPageCounts(ids);
    const owners = withOwner
      ? await this.users.displayNames(rows.flatMap((r) => (r.owner_id === null ? [] : [r.owner_id])))
      : undefined;
    return rows.map((row) => {
      const count = counts.get(row.id);
      const cover = covers.get(row.id);
      return {
        catalogId: row.id,
        title: row.title,
        actualVolume: row.actual_volume,
        author: row.author,
        publishDynasty: row.publish_dynasty,
        editionType: row.edition_type,
        auditStatus: row.audit_status,
        refuseReason: row.refuse_reason,
        volumeCount: count?.volumes ?? 0,
        pageCount: count?.pages ?? 0,
        coverUrl: cover === undefined ? null : thumbnailUrl(cover),
        ...(owners ? { owner: owners.get(row.owner_id ?? 0) ?? '' } : {}),
        isLibrary: row.owner_id === null,
        updatedAt: row.updated_at,
      };
    });
  }

  /** The user's books: 5 on the first page, 6 on each after (spec §9). */
  async list(userId: number, pageNum: number): Promise<Paged<OwnBook>> {
    const size = pageNum === 1 ? OWN_FIRST_PAGE_SIZE : OWN_PAGE_SIZE;
    const offset = pageNum === 1 ? 0 : OWN_FIRST_PAGE_SIZE + (pageNum - 2) * OWN_PAGE_SIZE;
    const { rows, total } = await this.ownBooks.page(userId, offset, size);
    return {
      pageNum,
      pageSize: size,
      total,
      pages: total <= OWN_FIRST_PAGE_SIZE ? 1 : 1 + Math.ceil((total - OWN_FIRST_PAGE_SIZE) / OWN_PAGE_SIZE),
      records: await this.toOwnBooks(rows),
    };
  }

  async get(editor: Editor | number, bookId: number): Promise<OwnBook> {
    return (await this.toOwnBooks([await this.own(editor, bookId)]))[0]!;
  }

  async create(
    userId: number,
    book: {
      title: string;
      actualVolume: number;
      author: string;
      publishDynasty: string;
      editionType: string;
    },
  ): Promise<OwnBook> {
    const id = await this.catalog.createBook({
      source_key: null,
      title: book.title,
      author: book.author,
      publish_dynasty: book.publishDynasty,
      coverage_dynasty: `${book.publishDynasty} ${book.editionType}`,
      edition_type: book.editionType,
      actual_volume: book.actualVolume,
      book_number: book.actualVolume,
      owner_id: userId,
      audit_status: OWN_STATUS.draft,
      // Not in the catalogue until a reviewer approves it.
      is_visible: 0,
      is_open: 1,
    });
    return this.get(userId, id);
  }

  async update(
    userId: number,
    bookId: number,
    book: {
      title: string;
      actualVolume: number;
      author: string;
      publishDynasty: string;
      editionType: string;
    },
  ): Promise<OwnBook> {
    const row = await this.own(userId, bookId);
    assertChangeable(row);
    // Through the repository, so the title search key (books.title_search, migration 0004) follows.
    await this.catalog.updateBook(bookId, {
      title: book.title,
      author: book.author,
      publish_dynasty: book.publishDynasty,
      edition_type: book.editionType,
      coverage_dynasty: `${book.publishDynasty} ${book.editionType}`,
      actual_volume: book.actualVolume,
      book_number: book.actualVolume,
    });
    await this.fullText.indexBook(bookId);
    return this.get(userId, bookId);
  }

  /**
   * The owner takes a book back from review or from publication: out of the catalogue, the title
   * search and the full-text index at once, and editable again as a draft ('0'); publishing it again
   * goes through review.
   */
  async unpublish(userId: number, bookId: number): Promise<OwnBook> {
    await this.own(userId, bookId);
    await this.transact(async (tx) => {
      const unpublished = await this.catalog.unpublishOwnBook(bookId, userId, nowIso(this.clock.now()), tx);
      if (!unpublished) throw conflict('OWN_NOT_UNPUBLISHABLE', MSG.ownNotUnpublishable);
      await this.fullText.removeBook(bookId, tx);
    });
    return this.get(userId, bookId);
  }

  /**
   * The owner deletes a book: never while it is published (withdraw it first), and, as with the
   * library's books, never while readers have collections, notes, comments, reservations or print
   * items of it (a paid print order must keep its pages).
   */
  async remove(userId: number, bookId: number): Promise<void> {
    const book = await this.own(userId, bookId);
    if (book.audit_status === OWN_STATUS.published)
      throw conflict('OWN_PUBLISHED', MSG.ownPublishedUndeletable);
    await refuseDeletionOfUsedBook(this.catalog, bookId, MSG.ownBookHasReaderData);
    const files = await this.ingest.pageFiles({ bookId });
    await this.transact(async (tx) => {
      await this.fullText.removeBook(bookId, tx);
      await this.catalog.deleteBook(bookId, tx);
    });
    await this.ingest.removePageFiles(files);
  }

  /** Selected books go to review ('0' or '3' with pages → '1'). */
  async submit(userId: number, ids: number[]): Promise<void> {
    const books = await Promise.all(ids.map((id) => this.get(userId, id)));
    const lonely = await this.ownBooks.anySingles(ids);
    if (
      lonely ||
      books.some(
        (b) =>
          (b.auditStatus !== OWN_STATUS.draft && b.auditStatus !== OWN_STATUS.refused) || b.pageCount === 0,
      )
    )
      throw badRequest('OWN_NOT_SUBMITTABLE', MSG.ownNotSubmittable);
    await this.ownBooks.submit(userId, ids, nowIso(this.clock.now()));
  }

  // Volumes

  async volumes(editor: Editor, bookId: number): Promise<Volume[]> {
    await this.own(editor, bookId);
    const rows = await this.catalog.listVolumes(bookId);
    return rows.map((v) => ({
      fascicleId: v.id,
      catalogId: v.book_id,
      name: v.name,
      introduction: v.introduction,
      imageCount: v.image_count,
      manifestUrl: manifestUrl(v.id),
    }));
  }

  private async ownVolume(editor: Editor, volumeId: number) {
    const volume = await this.catalog.findVolume(volumeId);
    if (!volume) throw NOT_FOUND();
    const book = await this.own(editor, volume.book_id);
    return { volume, book };
  }

  async addVolume(
    editor: Editor,
    bookId: number,
    volume: { name: string; introduction?: string | undefined },
  ) {
    const book = await this.own(editor, bookId);
    assertChangeable(book);
    const count = await this.catalog.countVolumes(bookId);
    await this.catalog.createVolume({
      bookId,
      name: volume.name,
      introduction: volume.introduction || null,
      sort: count,
    });
  }

  async updateVolume(
    editor: Editor,
    volumeId: number,
    volume: { name: string; introduction?: string | undefined },
  ) {
    const { book } = await this.ownVolume(editor, volumeId);
    assertChangeable(book);
    await this.ownBooks.updateVolume(volumeId, {
      name: volume.name,
      introduction: volume.introduction || null,
    });
  }

  async removeVolume(editor: Editor, volumeId: number) {
    const { book } = await this.ownVolume(editor, volumeId);
    assertChangeable(book);
    const files = await this.ingest.pageFiles({ volumeId });
    await this.transact(async (tx) => {
      await this.ownBooks.deleteVolume(volumeId, tx);
      await this.fullText.indexBook(book.id, tx);
    });
    await this.ingest.removePageFiles(files);
  }

  /** Refuses an upload into a volume the editor may not change, before its bytes are received. */
  async checkUploadTarget(editor: Editor, volumeId: number): Promise<void> {
    assertChangeable((await this.ownVolume(editor, volumeId)).book);
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
    const { book } = await this.ownVolume(editor, volumeId);
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
        data: await zip.read(name),
      });
    await this.append(book.owner_id, volumeId, pages);
    return { added: pages.length, names };
  }

  // Pages of a volume

  async pages(editor: Editor, volumeId: number): Promise<OwnPage[]> {
    await this.ownVolume(editor, volumeId);
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

  private async ownPage(editor: Editor, pageId: number) {
    const page = await this.catalog.findPage(pageId);
    if (!page) throw NOT_FOUND();
    const { book } = await this.ownVolume(editor, page.volume_id);
    assertChangeable(book);
    return page;
  }

  async renamePage(editor: Editor, pageId: number, name: string): Promise<void> {
    await this.ownPage(editor, pageId);
    await this.ownBooks.renamePage(pageId, name);
  }

  async deletePage(editor: Editor, pageId: number): Promise<void> {
    const page = await this.ownPage(editor, pageId);
    await this.transact(async (tx) => {
      await this.ownBooks.deletePage(pageId, page.volume_id, tx);
      await this.fullText.indexBook(page.book_id, tx);
    });
    await this.ingest.removePageFiles([page]);
  }

  /** A new order of all the volume's pages (spec: reorder). */
  async reorder(editor: Editor, volumeId: number, imageIds: number[]): Promise<void> {
    const { book } = await this.ownVolume(editor, volumeId);
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
    });
  }

  /** More page images for a volume (one or several files; each checked like a zip's). */
  async uploadImages(
    editor: Editor,
    volumeId: number,
    files: Array<{ name: string; data: Buffer }>,
  ): Promise<number> {
    const { book } = await this.ownVolume(editor, volumeId);
    assertChangeable(book);
    for (const f of files) pageName(f.name);
    const ordered = [...files].sort((a, b) => naturalOrder(a.name, b.name));
    await this.append(
      book.owner_id,
      volumeId,
      ordered.map((f) => ({
        name: pageName(f.name),
        source: f.name,
        data: f.data,
      })),
    );
    return files.length;
  }

  /**
   * Replaces a volume's directory (table of contents) with the given tree: every page it names must
   * be a page of the volume; at most four levels and 2000 entries. The reader, the book page and the
   * IIIF ranges read it at once.
   */
  async saveDirectory(editor: Editor, volumeId: number, entries: DirectoryInput[]): Promise<void> {
    const { book } = await this.ownVolume(editor, volumeId);
    assertChangeable(book);
    const pages = new Set(await this.ownBooks.pageIds(volumeId));
    let count = 0;
    const check = (nodes: DirectoryInput[], depth: number) => {
      if (nodes.length > 0 && depth > DIRECTORY_LIMITS.maxDepth)
        throw badRequest('DIRECTORY_DEPTH', MSG.directoryTooDeep);
      for (const node of nodes) {
        count++;
        if (node.imageId !== null && !pages.has(node.imageId))
          throw badRequest('DIRECTORY_PAGE', MSG.directoryPageInvalid);
        check(node.children, depth + 1);
      }
    };
    check(entries, 1);
    if (count > DIRECTORY_LIMITS.maxEntries) throw badRequest('DIRECTORY_MANY', MSG.directoryTooMany);
    await this.transact(async (tx) => {
      await this.ownBooks.clearDirectory(volumeId, tx);
      const insert = async (nodes: DirectoryInput[], parentId: number | null) => {
        for (const [sort, node] of nodes.entries()) {
          const id = await this.catalog.createDirectoryEntry(
            { volumeId, bookId: book.id, parentId, name: node.name, pageId: node.imageId, sort },
            tx,
          );
          await insert(node.children, id);
        }
      };
      await insert(entries, null);
    });
  }

  // Single images (spec isLonely 1): the pages of one hidden book per user

  /** The volume holding the user's single images, made on first use. */
  private async singlesVolume(userId: number, create: boolean): Promise<number | null> {
    let bookId = await this.ownBooks.singlesBook(userId);
    if (bookId === undefined) {
      if (!create) return null;
      bookId = await this.catalog.createBook({
        source_key: `single:${userId}`,
        title: '单张图像',
        owner_id: userId,
        audit_status: OWN_STATUS.draft,
        is_visible: 0,
        is_open: 1,
        is_lonely: 1,
      });
    }
    const volume = await this.ownBooks.firstVolume(bookId);
    if (volume !== undefined) return volume;
    if (!create) return null;
    return this.catalog.createVolume({ bookId, name: '单张图像', introduction: null, sort: 0 });
  }

  async singles(userId: number): Promise<OwnPage[]> {
    const volumeId = await this.singlesVolume(userId, false);
    return volumeId === null ? [] : this.pages(ownerOnly(userId), volumeId);
  }

  async uploadSingles(userId: number, files: Array<{ name: string; data: Buffer }>): Promise<number> {
    const volumeId = (await this.singlesVolume(userId, true))!;
    return this.uploadImages(ownerOnly(userId), volumeId, files);
  }

  // Review

  async queue(status: string): Promise<OwnBook[]> {
    const rows = await this.ownBooks.inState(status, 200);
    return this.toOwnBooks(rows, true);
  }

  /** Refuses a reviewer's decision on their own book (403), as with reservations. */
  private async notOwnReview(reviewerId: number, bookId: number): Promise<void> {
    const book = await this.catalog.findBook(bookId);
    if (book && book.owner_id === reviewerId) throw SELF_REVIEW();
  }

  /** Approval makes the book public in the catalogue and searchable. */
  async approve(bookId: number, reviewerId: number): Promise<void> {
    await this.notOwnReview(reviewerId, bookId);
    await this.transact(async (tx) => {
      const approved = await this.ownBooks.review(
        bookId,
        '1',
        {
          audit_status: OWN_STATUS.published,
          is_visible: 1,
          refuse_reason: null,
          updated_at: nowIso(this.clock.now()),
        },
        tx,
      );
      if (!approved) throw conflict('OWN_STATE', MSG.reservationNotReviewable);
      await this.fullText.indexBook(bookId, tx);
    });
  }

  async refuse(bookId: number, reason: string, reviewerId: number): Promise<void> {
    await this.notOwnReview(reviewerId, bookId);
    const refused = await this.ownBooks.review(bookId, '1', {
      audit_status: OWN_STATUS.refused,
      refuse_reason: reason,
      updated_at: nowIso(this.clock.now()),
    });
    if (!refused) throw conflict('OWN_STATE', MSG.reservationNotReviewable);
  }

  /** Staff withdraw a public own book: out of the catalogue and the index, refused with the reason. */
  async withdraw(bookId: number, reason: string, reviewerId: number): Promise<void> {
    await this.notOwnReview(reviewerId, bookId);
    await this.transact(async (tx) => {
      const withdrawn = await this.ownBooks.review(
        bookId,
        '2',
        {
          audit_status: OWN_STATUS.refused,
          is_visible: 0,
          refuse_reason: reason,
          updated_at: nowIso(this.clock.now()),
        },
        tx,
      );
      if (!withdrawn) throw conflict('OWN_STATE', MSG.reservationNotReviewable);
      await this.fullText.removeBook(bookId, tx);
    });
  }
}
