import {
  DIRECTORY_LIMITS,
  MSG,
  OWN_FIRST_PAGE_SIZE,
  type DirectoryInput,
  OWN_PAGE_SIZE,
  type OwnBook,
  type Volume,
  OWN_STATUS,
} from '@guji/shared';
import type { Transact } from '../../db/query.ts';
import type { OwnBookRepository } from './own-book.repository.ts';
import { nowIso } from '../../db/database.ts';
import { badRequest, conflict } from '../../errors.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import { refuseDeletionOfUsedBook } from '../console/catalog-admin.service.ts';
import { manifestUrl } from '../catalog/catalog.service.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FullTextService } from '../search/full-text.service.ts';
import type { IngestService } from '../import/ingest.service.ts';
import type { Paged } from '../../lib/paged.ts';
import { assertChangeable, type Editor, type OwnAccess } from './own-access.ts';
import type { Auditor } from '../../audit/auditor.ts';
import { auditStaffEdit } from './own-audit.ts';

export { assertChangeable, type Editor } from './own-access.ts';

/** What OwnBookService is built from (wiring/). */
export interface OwnBookDeps {
  ownBooks: OwnBookRepository;
  catalog: CatalogRepository;
  access: OwnAccess;
  auditor: Auditor;
  transact: Transact;
  ingest: IngestService;
  fullText: FullTextService;
  clock: Clock;
}

/**
 * Own books (spec §1, §2 /OCRAside and /FenCe, §4 own-book states, §6 content creators): a user's
 * books and their volumes and directories, and submission for publication (pages and uploads:
 * OwnPageService; the reviewers' decision: OwnReviewService). Every query of the owner's side is
 * scoped by owner: another user's book is "no data". Catalogue staff's changes to volumes and
 * directories are each one transaction with their audit record.
 */
export class OwnBookService {
  private readonly ownBooks: OwnBookRepository;
  private readonly catalog: CatalogRepository;
  private readonly access: OwnAccess;
  private readonly auditor: Auditor;
  private readonly transact: Transact;
  private readonly ingest: IngestService;
  private readonly fullText: FullTextService;
  private readonly clock: Clock;

  constructor(deps: OwnBookDeps) {
    this.ownBooks = deps.ownBooks;
    this.catalog = deps.catalog;
    this.access = deps.access;
    this.auditor = deps.auditor;
    this.transact = deps.transact;
    this.ingest = deps.ingest;
    this.fullText = deps.fullText;
    this.clock = deps.clock;
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
      records: await this.access.toOwnBooks(rows),
    };
  }

  get(editor: Editor | number, bookId: number): Promise<OwnBook> {
    return this.access.get(editor, bookId);
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
    const id = await this.transact((tx) =>
      this.catalog.createBook(
        {
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
        },
        tx,
      ),
    );
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
    const row = await this.access.book(userId, bookId);
    assertChangeable(row);
    // Through the repository, so the title search key (books.title_search, migration 0004) follows;
    // the full-text index changes with the book.
    await this.transact(async (tx) => {
      await this.catalog.updateBook(
        bookId,
        {
          title: book.title,
          author: book.author,
          publish_dynasty: book.publishDynasty,
          edition_type: book.editionType,
          coverage_dynasty: `${book.publishDynasty} ${book.editionType}`,
          actual_volume: book.actualVolume,
          book_number: book.actualVolume,
        },
        tx,
      );
      await this.fullText.indexBook(bookId, tx);
    });
    return this.get(userId, bookId);
  }

  /**
   * The owner takes a book back from review or from publication: out of the catalogue, the title
   * search and the full-text index at once, and editable again as a draft ('0'); publishing it again
   * goes through review.
   */
  async unpublish(userId: number, bookId: number): Promise<OwnBook> {
    await this.access.book(userId, bookId);
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
    const book = await this.access.book(userId, bookId);
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
    await this.access.book(editor, bookId);
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

  async addVolume(
    editor: Editor,
    bookId: number,
    volume: { name: string; introduction?: string | undefined },
  ) {
    const book = await this.access.book(editor, bookId);
    assertChangeable(book);
    await this.transact(async (tx) => {
      const count = await this.catalog.countVolumes(bookId, tx);
      await this.catalog.createVolume(
        { bookId, name: volume.name, introduction: volume.introduction || null, sort: count },
        tx,
      );
      await auditStaffEdit(this.auditor, editor, 'volume.create', `book:${bookId}`, volume, tx);
    });
  }

  async updateVolume(
    editor: Editor,
    volumeId: number,
    volume: { name: string; introduction?: string | undefined },
  ) {
    const { book } = await this.access.volume(editor, volumeId);
    assertChangeable(book);
    await this.transact(async (tx) => {
      await this.ownBooks.updateVolume(
        volumeId,
        { name: volume.name, introduction: volume.introduction || null },
        tx,
      );
      await auditStaffEdit(this.auditor, editor, 'volume.update', `volume:${volumeId}`, volume, tx);
    });
  }

  async removeVolume(editor: Editor, volumeId: number) {
    const { book } = await this.access.volume(editor, volumeId);
    assertChangeable(book);
    const files = await this.ingest.pageFiles({ volumeId });
    await this.transact(async (tx) => {
      await this.ownBooks.deleteVolume(volumeId, tx);
      await this.fullText.indexBook(book.id, tx);
      await auditStaffEdit(this.auditor, editor, 'volume.delete', `volume:${volumeId}`, null, tx);
    });
    await this.ingest.removePageFiles(files);
  }

  /**
   * Replaces a volume's directory (table of contents) with the given tree: every page it names must
   * be a page of the volume; at most four levels and 2000 entries. The reader, the book page and the
   * IIIF ranges read it at once.
   */
  async saveDirectory(editor: Editor, volumeId: number, entries: DirectoryInput[]): Promise<void> {
    const { book } = await this.access.volume(editor, volumeId);
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
      await auditStaffEdit(this.auditor, editor, 'directory.save', `volume:${volumeId}`, entries, tx);
    });
  }
}
