import {
  MSG,
  PERSONAL_PAGE_SIZE,
  type BookComment,
  type CollectionItem,
  type DownloadItem,
  type DownloadKind,
  type Footprint,
  type MyComment,
  type MyNote,
  type Note,
  type NoteRect,
  type PersonalBook,
  type Privilege,
  OWN_STATUS,
} from '@guji/shared';
import { nowIso } from '../../db/database.ts';
import type { BookRow } from '../../db/schema.ts';
import { forbidden, notFound } from '../../errors.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import type { NoteRepository, NoteWithPage } from './note.repository.ts';
import type { CollectionRepository } from './collection.repository.ts';
import type { CommentRepository } from './comment.repository.ts';
import type { DownloadRepository } from './download.repository.ts';
import type { FootprintRepository } from './footprint.repository.ts';
import type { PrivilegeRepository } from './privilege.repository.ts';
import { isCatalogStaff } from '../catalog/access.ts';
import { thumbnailUrl, type CatalogService } from '../catalog/catalog.service.ts';
import type { Viewer } from '../../lib/viewer.ts';
import type { Clock } from '../../lib/clock.ts';
import { pageOf, type Paged } from '../../lib/paged.ts';
import type { Transact } from '../../db/query.ts';
import type { Auditor } from '../../audit/auditor.ts';

const NOT_FOUND = () => notFound(MSG.notFound, 'NOT_FOUND');

/** Where a download is made (and made again from the Download channel). */
export const downloadUrl = (kind: DownloadKind, pageId: number | null, volumeId: number): string =>
  kind === 'pdf'
    ? `/api/volumes/${volumeId}/download.pdf`
    : `/api/pages/${pageId}/download.${kind === 'image' ? 'jpg' : 'txt'}`;

/**
 * The personal area's records (spec §2 personal channels): collections, downloads, comments, notes,
 * footprints and privileges. Every query is scoped to the signed-in user; a record of another user is
 * "not found", never shown or changed.
 */
export class PersonalService {
  constructor(
    private readonly repos: {
      catalog: CatalogRepository;
      collections: CollectionRepository;
      downloads: DownloadRepository;
      comments: CommentRepository;
      notes: NoteRepository;
      footprints: FootprintRepository;
      privileges: PrivilegeRepository;
    },
    private readonly catalog: CatalogService,
    private readonly clock: Clock,
    private readonly auditor: Auditor,
    private readonly transact: Transact,
  ) {}

  private async books(ids: number[]): Promise<Map<number, PersonalBook>> {
    const unique = [...new Set(ids)];
    const map = new Map<number, PersonalBook>();
    if (unique.length === 0) return map;
    const rows = await this.repos.catalog.briefBooks(unique);
    const covers = await this.repos.catalog.coverPageIds(unique);
    for (const row of rows) {
      const cover = covers.get(row.id);
      map.set(row.id, {
        catalogId: row.id,
        title: row.title,
        author: row.author,
        callNumber: row.call_number,
        coverUrl: cover === undefined ? null : thumbnailUrl(cover),
      });
    }
    return map;
  }

  /** Each row with its book as the personal lists show it (rows of books deleted since are left out). */
  private async withBooks<R extends { book_id: number }, T>(
    rows: R[],
    make: (row: R, book: PersonalBook) => T,
  ): Promise<T[]> {
    const books = await this.books(rows.map((r) => r.book_id));
    return rows.flatMap((r) => {
      const book = books.get(r.book_id);
      return book ? [make(r, book)] : [];
    });
  }

  /** A book readers may see in the catalogue (visible and published), for collecting and commenting. */
  private async visibleBook(bookId: number): Promise<BookRow> {
    const book = await this.repos.catalog.findBook(bookId);
    if (!book || !book.is_visible || book.audit_status !== OWN_STATUS.published)
      throw notFound(MSG.noData, 'NO_DATA');
    return book;
  }

  // Collections

  async isCollected(userId: number, bookId: number): Promise<boolean> {
    return this.repos.collections.has(userId, bookId);
  }

  async collect(userId: number, bookId: number): Promise<void> {
    await this.visibleBook(bookId);
    await this.repos.collections.add(userId, bookId, nowIso(this.clock.now()));
  }

  async uncollect(userId: number, bookId: number): Promise<void> {
    await this.repos.collections.remove(userId, bookId);
  }

  async collections(userId: number, pageNum: number): Promise<Paged<CollectionItem>> {
    return pageOf(
      pageNum,
      PERSONAL_PAGE_SIZE,
      (offset, limit) => this.repos.collections.page(userId, offset, limit),
      (rows) => this.withBooks(rows, (r, book) => ({ book, createdAt: r.created_at })),
    );
  }

  // Downloads

  async recordDownload(
    userId: number,
    entry: { bookId: number; volumeId: number; pageId: number | null; kind: DownloadKind },
  ): Promise<void> {
    await this.repos.downloads.add({ userId, ...entry, createdAt: nowIso(this.clock.now()) });
  }

  async downloads(userId: number, pageNum: number): Promise<Paged<DownloadItem>> {
    return pageOf(
      pageNum,
      PERSONAL_PAGE_SIZE,
      (offset, limit) => this.repos.downloads.page(userId, offset, limit),
      (rows) =>
        this.withBooks(rows, (r, book) => ({
          id: r.id,
          kind: r.kind,
          book,
          volumeId: r.volume_id,
          volumeName: r.volume_name,
          imageId: r.page_id,
          pageNumber: r.seq ?? null,
          url: downloadUrl(r.kind, r.page_id, r.volume_id),
          createdAt: r.created_at,
        })),
    );
  }

  async deleteDownload(userId: number, id: number): Promise<void> {
    if (!(await this.repos.downloads.remove(userId, id))) throw NOT_FOUND();
  }

  // Comments

  async addComment(userId: number, bookId: number, text: string): Promise<void> {
    await this.visibleBook(bookId);
    await this.repos.comments.add({ userId, bookId, text, createdAt: nowIso(this.clock.now()) });
  }

  /** A book's comments, newest first; hidden ones only for staff (marked hidden). */
  async bookComments(bookId: number, viewer: Viewer, pageNum: number): Promise<Paged<BookComment>> {
    await this.visibleBook(bookId);
    const staff = isCatalogStaff(viewer.roles);
    return pageOf(
      pageNum,
      PERSONAL_PAGE_SIZE,
      (offset, limit) => this.repos.comments.pageOfBook(bookId, staff, offset, limit),
      (rows) =>
        rows.map((r) => ({
          id: r.id,
          nickName: r.nick_name || r.login_name,
          text: r.text,
          createdAt: r.created_at,
          mine: r.user_id === viewer.userId,
          hidden: r.hidden_at !== null,
        })),
    );
  }

  async myComments(userId: number, pageNum: number): Promise<Paged<MyComment>> {
    return pageOf(
      pageNum,
      PERSONAL_PAGE_SIZE,
      (offset, limit) => this.repos.comments.pageOfUser(userId, offset, limit),
      (rows) =>
        this.withBooks(rows, (r, book) => ({
          id: r.id,
          book,
          text: r.text,
          hidden: r.hidden_at !== null,
          createdAt: r.created_at,
        })),
    );
  }

  async deleteComment(userId: number, id: number): Promise<void> {
    if (!(await this.repos.comments.remove(userId, id))) throw NOT_FOUND();
  }

  /** Staff hide (or show again) a comment: one transaction with its audit record. */
  async setCommentHidden(
    staffId: number,
    roles: Viewer['roles'],
    id: number,
    hidden: boolean,
  ): Promise<void> {
    if (!isCatalogStaff(roles)) throw forbidden();
    const at = nowIso(this.clock.now());
    await this.transact(async (tx) => {
      const changed = await this.repos.comments.setHidden(id, hidden ? { at, by: staffId } : null, tx);
      if (!changed) throw NOT_FOUND();
      await this.auditor.record(
        staffId,
        hidden ? 'comment.hide' : 'comment.show',
        `comment:${id}`,
        { hidden: !hidden },
        { hidden },
        tx,
      );
    });
  }

  // Notes

  async addNote(
    viewer: Viewer & { userId: number },
    pageId: number,
    rect: NoteRect,
    text: string,
  ): Promise<Note> {
    const { page, book } = await this.catalog.readablePage(pageId, viewer);
    const clipped = clipRect(rect, page.width, page.height);
    const now = nowIso(this.clock.now());
    const row = await this.repos.notes.add({
      userId: viewer.userId,
      bookId: book.id,
      pageId: page.id,
      rect: clipped,
      text,
      now,
    });
    return toNote(row);
  }

  /** One's own notes on a page (notes are private to their author). */
  async pageNotes(viewer: Viewer & { userId: number }, pageId: number): Promise<Note[]> {
    await this.catalog.readablePage(pageId, viewer);
    return (await this.repos.notes.onPage(viewer.userId, pageId)).map(toNote);
  }

  async updateNote(userId: number, id: number, text: string): Promise<Note> {
    const row = await this.repos.notes.updateText(userId, id, text, nowIso(this.clock.now()));
    if (!row) throw NOT_FOUND();
    return toNote(row);
  }

  async deleteNote(userId: number, id: number): Promise<void> {
    if (!(await this.repos.notes.remove(userId, id))) throw NOT_FOUND();
  }

  async myNotes(userId: number, pageNum: number, pageSize = PERSONAL_PAGE_SIZE): Promise<Paged<MyNote>> {
    return pageOf(
      pageNum,
      pageSize,
      async (offset, limit) => ({
        rows: await this.repos.notes.listOwnWithPage(userId, limit, offset),
        total: await this.repos.notes.countOwn(userId),
      }),
      (rows) => this.toMyNotes(rows),
    );
  }

  /** One of one's own notes with its page and volume; another user's note is "not found". */
  async myNote(userId: number, id: number): Promise<MyNote> {
    const row = await this.repos.notes.findOwnWithPage(userId, id);
    const [note] = row ? await this.toMyNotes([row]) : [];
    if (!note) throw NOT_FOUND();
    return note;
  }

  private async toMyNotes(rows: NoteWithPage[]): Promise<MyNote[]> {
    return this.withBooks(rows, (r, book) => ({
      ...toNote(r),
      book,
      volumeId: r.volume_id,
      volumeName: r.volume_name,
      pageNumber: r.seq,
    }));
  }

  // Footprints

  /** The reader turned to a page: the book's newest footprint takes it as its last page and time. */
  async footprintPage(viewer: Viewer & { userId: number }, pageId: number): Promise<void> {
    const { page } = await this.catalog.readablePage(pageId, viewer);
    await this.repos.footprints.touch({
      userId: viewer.userId,
      bookId: page.book_id,
      volumeId: page.volume_id,
      pageId: page.id,
      at: nowIso(this.clock.now()),
    });
  }

  /** One row per book, the most recent first, with the last page shown and when. */
  async footprints(userId: number, pageNum: number): Promise<Paged<Footprint>> {
    return pageOf(
      pageNum,
      PERSONAL_PAGE_SIZE,
      (offset, limit) => this.repos.footprints.page(userId, offset, limit),
      (rows) =>
        this.withBooks(rows, (r, book) => ({
          book,
          volumeId: r.volume_id,
          volumeName: r.volume_name ?? null,
          imageId: r.page_id,
          pageNumber: r.seq ?? null,
          viewedAt: r.created_at,
        })),
    );
  }

  async deleteFootprints(userId: number, bookId?: number): Promise<void> {
    await this.repos.footprints.remove(userId, bookId);
  }

  // Privileges

  /** Approved, unexpired privileges, one row per book with the latest expiry. */
  async privileges(userId: number, pageNum: number): Promise<Paged<Privilege>> {
    const now = nowIso(this.clock.now());
    return pageOf(
      pageNum,
      PERSONAL_PAGE_SIZE,
      (offset, limit) => this.repos.privileges.activePage(userId, now, offset, limit),
      (rows) =>
        this.withBooks(rows, (r, book) => ({
          book,
          expiresAt: r.expires_at,
          reservationId: r.reservation_id,
        })),
    );
  }
}

function clipRect(rect: NoteRect, width: number, height: number): NoteRect {
  const x = Math.min(rect.x, Math.max(0, width - 1));
  const y = Math.min(rect.y, Math.max(0, height - 1));
  return { x, y, w: Math.max(1, Math.min(rect.w, width - x)), h: Math.max(1, Math.min(rect.h, height - y)) };
}

function toNote(row: {
  id: number;
  page_id: number;
  x: number;
  y: number;
  w: number;
  h: number;
  text: string;
  created_at: string;
  updated_at: string;
}): Note {
  return {
    id: row.id,
    imageId: row.page_id,
    x: row.x,
    y: row.y,
    w: row.w,
    h: row.h,
    text: row.text,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
