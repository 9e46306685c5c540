import {
  ADMIN_BOOK_PAGE_SIZE,
  type AdminBook,
  type CreateBookRequest,
  type UpdateBookRequest,
  OWN_STATUS,
} from '@guji/shared';
import type { DbOrTx } from '../../db/database.ts';
import type { Transact } from '../../db/query.ts';
import type { BookRow } from '../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import type { UserRepository } from '../accounts/user.repository.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import type { ClassificationRepository } from '../catalog/classification.repository.ts';
import type { FullTextService } from '../search/full-text.service.ts';
import type { IngestService } from '../import/ingest.service.ts';
import { pagedOf, type Paged } from '../../lib/paged.ts';
import type { Auditor } from '../../audit/auditor.ts';

export const CLASS_UNKNOWN = '分类代码不存在，请先在分类字典中添加';
export const BOOK_HAS_READER_DATA =
  '该古籍已有读者的收藏、笔记、评论、借阅或打印记录，不能删除；如不再公开，请改为隐藏';

/**
 * The one rule for deleting any book, the library's or a reader's own: refused (409) while readers
 * have collections, notes, comments, reservations or print items of it, with the given message.
 */
export async function refuseDeletionOfUsedBook(
  catalog: CatalogRepository,
  bookId: number,
  message: string,
): Promise<void> {
  if (await catalog.hasReaderData(bookId)) throw conflict('BOOK_IN_USE', message);
}

/** What CatalogAdminService is built from (wiring/). */
export interface CatalogAdminDeps {
  catalog: CatalogRepository;
  classes: ClassificationRepository;
  users: UserRepository;
  fullText: FullTextService;
  ingest: IngestService;
  auditor: Auditor;
  transact: Transact;
}

/**
 * The console's catalogue management: every book of the catalogue (hidden ones too; the library's
 * books and published own books), a new book catalogued by hand, and deleting a book nobody has used.
 * Fields and switches of an existing book change through the catalogue's own PATCH /api/books/{id};
 * volumes, pages and directories through the volume screens, which catalogue staff may use on the
 * library's books. A new book and a deletion are each one transaction with their audit record.
 */
export class CatalogAdminService {
  private readonly catalog: CatalogRepository;
  private readonly classes: ClassificationRepository;
  private readonly users: UserRepository;
  private readonly fullText: FullTextService;
  private readonly ingest: IngestService;
  private readonly auditor: Auditor;
  private readonly transact: Transact;

  constructor(deps: CatalogAdminDeps) {
    this.catalog = deps.catalog;
    this.classes = deps.classes;
    this.users = deps.users;
    this.fullText = deps.fullText;
    this.ingest = deps.ingest;
    this.auditor = deps.auditor;
    this.transact = deps.transact;
  }

  async list(query: {
    text?: string | undefined;
    state?: 'visible' | 'hidden' | 'open' | 'closed' | undefined;
    pageNum: number;
  }): Promise<Paged<AdminBook>> {
    const { rows, total } = await this.catalog.adminBooks({
      text: query.text?.trim(),
      state: query.state,
      limit: ADMIN_BOOK_PAGE_SIZE,
      offset: (query.pageNum - 1) * ADMIN_BOOK_PAGE_SIZE,
    });
    return pagedOf(query.pageNum, ADMIN_BOOK_PAGE_SIZE, total, await this.toAdminBooks(rows));
  }

  async get(bookId: number, tx?: DbOrTx): Promise<AdminBook> {
    const row = await this.catalog.findBook(bookId, tx);
    if (!row || row.is_lonely === 1 || (row.owner_id !== null && row.audit_status !== OWN_STATUS.published))
      throw notFound('没有这本古籍', 'NO_DATA');
    return (await this.toAdminBooks([row], tx))[0]!;
  }

  private async toAdminBooks(rows: BookRow[], tx?: DbOrTx): Promise<AdminBook[]> {
    const counts = await this.catalog.volumeAndPageCounts(
      rows.map((r) => r.id),
      tx,
    );
    const owners = await this.users.displayNames(
      rows.flatMap((r) => (r.owner_id === null ? [] : [r.owner_id])),
      tx,
    );
    return rows.map((row) => {
      const count = counts.get(row.id);
      return {
        catalogId: row.id,
        title: row.title,
        author: row.author,
        publishDynasty: row.publish_dynasty,
        coverageDynasty: row.coverage_dynasty,
        editionType: row.edition_type,
        callNumber: row.call_number,
        classCode: row.class_code,
        actualVolume: row.actual_volume,
        bookNumber: row.book_number,
        notes: row.notes,
        isVisible: row.is_visible === 1,
        isOpen: row.is_open === 1,
        volumeCount: count?.volumes ?? 0,
        pageCount: count?.pages ?? 0,
        owner: row.owner_id === null ? null : (owners.get(row.owner_id) ?? null),
        updatedAt: row.updated_at,
      };
    });
  }

  /** Refuses a classification code the dictionary does not have. */
  async checkClassCode(code: string | null | undefined, tx?: DbOrTx): Promise<void> {
    if (!code) return;
    const found = await this.classes.findByCode(code, tx);
    if (!found) throw badRequest('CLASS_UNKNOWN', CLASS_UNKNOWN);
  }

  async create(actorId: number, request: CreateBookRequest & { title: string }): Promise<AdminBook> {
    return this.transact(async (tx) => {
      await this.checkClassCode(request.classCode, tx);
      const id = await this.catalog.createBook(
        {
          source_key: null,
          title: request.title,
          author: request.author ?? null,
          publish_dynasty: request.publishDynasty ?? null,
          coverage_dynasty: request.coverageDynasty ?? null,
          edition_type: request.editionType ?? null,
          call_number: request.callNumber ?? null,
          class_code: request.classCode ?? null,
          actual_volume: request.actualVolume ?? null,
          book_number: request.bookNumber ?? null,
          notes: request.notes ?? null,
          owner_id: null,
          audit_status: OWN_STATUS.published,
          is_visible: request.isVisible ? 1 : 0,
          is_open: request.isOpen ? 1 : 0,
        },
        tx,
      );
      const book = await this.get(id, tx);
      await this.auditor.record(actorId, 'book.create', `book:${book.catalogId}`, null, book, tx);
      return book;
    });
  }

  /** Checks an edit's classification code before the catalogue's update runs. */
  async checkUpdate(changes: UpdateBookRequest): Promise<void> {
    await this.checkClassCode(changes.classCode);
  }

  /**
   * Deletes a book with its volumes, pages and text; refused while readers have anything of theirs on
   * it (collections, notes, comments, reservations, print items), so nothing a reader saved is lost.
   */
  async remove(actorId: number, bookId: number): Promise<AdminBook> {
    const book = await this.get(bookId);
    await refuseDeletionOfUsedBook(this.catalog, bookId, BOOK_HAS_READER_DATA);
    const files = await this.ingest.pageFiles({ bookId });
    await this.transact(async (tx) => {
      await this.fullText.removeBook(bookId, tx);
      await this.catalog.deleteBook(bookId, tx);
      await this.auditor.record(actorId, 'book.delete', `book:${book.catalogId}`, book, null, tx);
    });
    await this.ingest.removePageFiles(files);
    return book;
  }
}
