import { MSG, type OwnBook, OWN_STATUS } from '@guji/shared';
import type { BookRow } from '../../db/schema.ts';
import { conflict, notFound } from '../../errors.ts';
import type { UserRepository } from '../accounts/user.repository.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import { thumbnailUrl } from '../catalog/catalog.service.ts';

export const NOT_FOUND = () => notFound(MSG.noData, 'NO_DATA');

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
export const ownerOnly = (userId: number): Editor => ({ id: userId, catalogStaff: false });

/**
 * What the own-book services share: finding a book, volume or page the editor may touch (anything
 * else is "no data"), and a book as the own-book screens show it.
 */
export class OwnAccess {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly users: UserRepository,
  ) {}

  /** A book of the editor's (a user id: its owner only). */
  async book(editor: Editor | number, bookId: number): Promise<BookRow> {
    const { id, catalogStaff } = typeof editor === 'number' ? ownerOnly(editor) : editor;
    const book = await this.catalog.findBook(bookId);
    if (!book) throw NOT_FOUND();
    const allowed = book.owner_id === id || (catalogStaff && book.owner_id === null);
    if (!allowed) throw NOT_FOUND();
    return book;
  }

  /** A volume of one of the editor's books, with its book. */
  async volume(editor: Editor, volumeId: number) {
    const volume = await this.catalog.findVolume(volumeId);
    if (!volume) throw NOT_FOUND();
    const book = await this.book(editor, volume.book_id);
    return { volume, book };
  }

  /** A page of one of the editor's books that may change now. */
  async changeablePage(editor: Editor, pageId: number) {
    const page = await this.catalog.findPage(pageId);
    if (!page) throw NOT_FOUND();
    const { book } = await this.volume(editor, page.volume_id);
    assertChangeable(book);
    return page;
  }

  async toOwnBooks(rows: BookRow[], withOwner = false): Promise<OwnBook[]> {
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
        callNumber: row.call_number,
        classCode: row.class_code,
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

  /** One book as the own-book screens show it. */
  async get(editor: Editor | number, bookId: number): Promise<OwnBook> {
    return (await this.toOwnBooks([await this.book(editor, bookId)]))[0]!;
  }
}
