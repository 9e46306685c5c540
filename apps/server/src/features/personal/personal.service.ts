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
} from '@guji/shared';
import type { Db } from '../../db/database.ts';
import { nowIso } from '../../db/database.ts';
import type { BookRow } from '../../db/schema.ts';
import { forbidden, notFound } from '../../errors.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import type { NoteRepository, NoteWithPage } from './note.repository.ts';
import { isCatalogStaff } from '../catalog/access.ts';
import { thumbnailUrl, type CatalogService, type Viewer } from '../catalog/catalog.service.ts';
import type { Clock } from '../../lib/clock.ts';
import { pagedOf, type Paged } from '../../lib/paged.ts';

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
    private readonly db: Db,
    private readonly catalogRepo: CatalogRepository,
    private readonly notes: NoteRepository,
    private readonly catalog: CatalogService,
    private readonly clock: Clock,
  ) {}

  private async books(ids: number[]): Promise<Map<number, PersonalBook>> {
    const unique = [...new Set(ids)];
    const map = new Map<number, PersonalBook>();
    if (unique.length === 0) return map;
    const rows = await this.db
      .selectFrom('books')
      .select(['id', 'title', 'author', 'call_number'])
      .where('id', 'in', unique)
      .execute();
    const covers = await this.catalogRepo.coverPageIds(unique);
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

  /** A book readers may see in the catalogue (visible and published), for collecting and commenting. */
  private async visibleBook(bookId: number): Promise<BookRow> {
    const book = await this.catalogRepo.findBook(bookId);
    if (!book || !book.is_visible || book.audit_status !== '2') throw notFound(MSG.noData, 'NO_DATA');
    return book;
  }

  // Collections

  async isCollected(userId: number, bookId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('collections')
      .select('id')
      .where('user_id', '=', userId)
      .where('book_id', '=', bookId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async collect(userId: number, bookId: number): Promise<void> {
    await this.visibleBook(bookId);
    await this.db
      .insertInto('collections')
      .values({ user_id: userId, book_id: bookId, created_at: nowIso(this.clock.now()) })
      .onConflict((oc) => oc.columns(['user_id', 'book_id']).doNothing())
      .execute();
  }

  async uncollect(userId: number, bookId: number): Promise<void> {
    await this.db
      .deleteFrom('collections')
      .where('user_id', '=', userId)
      .where('book_id', '=', bookId)
      .execute();
  }

  async collections(userId: number, pageNum: number): Promise<Paged<CollectionItem>> {
    const size = PERSONAL_PAGE_SIZE;
    const base = this.db.selectFrom('collections').where('user_id', '=', userId);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .select(['book_id', 'created_at'])
      .orderBy('id', 'desc')
      .limit(size)
      .offset((pageNum - 1) * size)
      .execute();
    const books = await this.books(rows.map((r) => r.book_id));
    return pagedOf(
      pageNum,
      size,
      Number(n),
      rows.flatMap((r) => {
        const book = books.get(r.book_id);
        return book ? [{ book, createdAt: r.created_at }] : [];
      }),
    );
  }

  // Downloads

  async recordDownload(
    userId: number,
    entry: { bookId: number; volumeId: number; pageId: number | null; kind: DownloadKind },
  ): Promise<void> {
    await this.db
      .insertInto('downloads')
      .values({
        user_id: userId,
        book_id: entry.bookId,
        volume_id: entry.volumeId,
        page_id: entry.pageId,
        kind: entry.kind,
        created_at: nowIso(this.clock.now()),
      })
      .execute();
  }

  async downloads(userId: number, pageNum: number): Promise<Paged<DownloadItem>> {
    const size = PERSONAL_PAGE_SIZE;
    const base = this.db.selectFrom('downloads').where('downloads.user_id', '=', userId);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .innerJoin('volumes', 'volumes.id', 'downloads.volume_id')
      .leftJoin('pages', 'pages.id', 'downloads.page_id')
      .select([
        'downloads.id',
        'downloads.kind',
        'downloads.book_id',
        'downloads.volume_id',
        'downloads.page_id',
        'downloads.created_at',
        'volumes.name as volume_name',
        'pages.seq',
      ])
      .orderBy('downloads.id', 'desc')
      .limit(size)
      .offset((pageNum - 1) * size)
      .execute();
    const books = await this.books(rows.map((r) => r.book_id));
    return pagedOf(
      pageNum,
      size,
      Number(n),
      rows.flatMap((r) => {
        const book = books.get(r.book_id);
        if (!book) return [];
        return [
          {
            id: r.id,
            kind: r.kind,
            book,
            volumeId: r.volume_id,
            volumeName: r.volume_name,
            imageId: r.page_id,
            pageNumber: r.seq ?? null,
            url: downloadUrl(r.kind, r.page_id, r.volume_id),
            createdAt: r.created_at,
          },
        ];
      }),
    );
  }

  async deleteDownload(userId: number, id: number): Promise<void> {
    const result = await this.db
      .deleteFrom('downloads')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw NOT_FOUND();
  }

  // Comments

  async addComment(userId: number, bookId: number, text: string): Promise<void> {
    await this.visibleBook(bookId);
    await this.db
      .insertInto('comments')
      .values({ user_id: userId, book_id: bookId, text, created_at: nowIso(this.clock.now()) })
      .execute();
  }

  /** A book's comments, newest first; hidden ones only for staff (marked hidden). */
  async bookComments(bookId: number, viewer: Viewer, pageNum: number): Promise<Paged<BookComment>> {
    await this.visibleBook(bookId);
    const staff = isCatalogStaff(viewer.roles);
    const size = PERSONAL_PAGE_SIZE;
    let base = this.db.selectFrom('comments').where('comments.book_id', '=', bookId);
    if (!staff) base = base.where('comments.hidden_at', 'is', null);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .innerJoin('users', 'users.id', 'comments.user_id')
      .select([
        'comments.id',
        'comments.user_id',
        'comments.text',
        'comments.hidden_at',
        'comments.created_at',
        'users.nick_name',
        'users.login_name',
      ])
      .orderBy('comments.id', 'desc')
      .limit(size)
      .offset((pageNum - 1) * size)
      .execute();
    return pagedOf(
      pageNum,
      size,
      Number(n),
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
    const size = PERSONAL_PAGE_SIZE;
    const base = this.db.selectFrom('comments').where('user_id', '=', userId);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .select(['id', 'book_id', 'text', 'hidden_at', 'created_at'])
      .orderBy('id', 'desc')
      .limit(size)
      .offset((pageNum - 1) * size)
      .execute();
    const books = await this.books(rows.map((r) => r.book_id));
    return pagedOf(
      pageNum,
      size,
      Number(n),
      rows.flatMap((r) => {
        const book = books.get(r.book_id);
        return book
          ? [{ id: r.id, book, text: r.text, hidden: r.hidden_at !== null, createdAt: r.created_at }]
          : [];
      }),
    );
  }

  async deleteComment(userId: number, id: number): Promise<void> {
    const result = await this.db
      .deleteFrom('comments')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw NOT_FOUND();
  }

  /** Staff hide (or show again) a comment. */
  async setCommentHidden(
    staffId: number,
    roles: Viewer['roles'],
    id: number,
    hidden: boolean,
  ): Promise<void> {
    if (!isCatalogStaff(roles)) throw forbidden();
    const result = await this.db
      .updateTable('comments')
      .set(
        hidden
          ? { hidden_at: nowIso(this.clock.now()), hidden_by: staffId }
          : { hidden_at: null, hidden_by: null },
      )
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw NOT_FOUND();
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
    const row = await this.db
      .insertInto('notes')
      .values({
        user_id: viewer.userId,
        book_id: book.id,
        page_id: page.id,
        ...clipped,
        text,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toNote(row);
  }

  /** One's own notes on a page (notes are private to their author). */
  async pageNotes(viewer: Viewer & { userId: number }, pageId: number): Promise<Note[]> {
    await this.catalog.readablePage(pageId, viewer);
    const rows = await this.db
      .selectFrom('notes')
      .selectAll()
      .where('page_id', '=', pageId)
      .where('user_id', '=', viewer.userId)
      .orderBy('id')
      .execute();
    return rows.map(toNote);
  }

  async updateNote(userId: number, id: number, text: string): Promise<Note> {
    const row = await this.db
      .updateTable('notes')
      .set({ text, updated_at: nowIso(this.clock.now()) })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw NOT_FOUND();
    return toNote(row);
  }

  async deleteNote(userId: number, id: number): Promise<void> {
    const result = await this.db
      .deleteFrom('notes')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw NOT_FOUND();
  }

  async myNotes(userId: number, pageNum: number, pageSize = PERSONAL_PAGE_SIZE): Promise<Paged<MyNote>> {
    const base = this.db.selectFrom('notes').where('notes.user_id', '=', userId);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await this.notes.listOwnWithPage(userId, pageSize, (pageNum - 1) * pageSize);
    return pagedOf(pageNum, pageSize, Number(n), await this.toMyNotes(rows));
  }

  /** One of one's own notes with its page and volume; another user's note is "not found". */
  async myNote(userId: number, id: number): Promise<MyNote> {
    const row = await this.notes.findOwnWithPage(userId, id);
    const [note] = row ? await this.toMyNotes([row]) : [];
    if (!note) throw NOT_FOUND();
    return note;
  }

  private async toMyNotes(rows: NoteWithPage[]): Promise<MyNote[]> {
    const books = await this.books(rows.map((r) => r.book_id));
    return rows.flatMap((r) => {
      const book = books.get(r.book_id);
      return book
        ? [{ ...toNote(r), book, volumeId: r.volume_id, volumeName: r.volume_name, pageNumber: r.seq }]
        : [];
    });
  }

  // Footprints

  /** The reader turned to a page: the book's newest footprint takes it as its last page and time. */
  async footprintPage(viewer: Viewer & { userId: number }, pageId: number): Promise<void> {
    const { page } = await this.catalog.readablePage(pageId, viewer);
    const now = nowIso(this.clock.now());
    const latest = await this.db
      .selectFrom('footprints')
      .select('id')
      .where('user_id', '=', viewer.userId)
      .where('book_id', '=', page.book_id)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (latest) {
      await this.db
        .updateTable('footprints')
        .set({ page_id: page.id, volume_id: page.volume_id, created_at: now })
        .where('id', '=', latest.id)
        .execute();
    } else {
      await this.db
        .insertInto('footprints')
        .values({
          user_id: viewer.userId,
          book_id: page.book_id,
          volume_id: page.volume_id,
          page_id: page.id,
          created_at: now,
        })
        .execute();
    }
  }

  /** One row per book, the most recent first, with the last page shown and when. */
  async footprints(userId: number, pageNum: number): Promise<Paged<Footprint>> {
    const size = PERSONAL_PAGE_SIZE;
    const latest = this.db
      .selectFrom('footprints')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('user_id', '=', userId)
      .groupBy('book_id');
    const { n } = await this.db
      .selectFrom(latest.as('latest'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await this.db
      .selectFrom('footprints')
      .leftJoin('volumes', 'volumes.id', 'footprints.volume_id')
      .leftJoin('pages', 'pages.id', 'footprints.page_id')
      .select([
        'footprints.book_id',
        'footprints.volume_id',
        'footprints.page_id',
        'footprints.created_at',
        'volumes.name as volume_name',
        'pages.seq',
      ])
      .where('footprints.id', 'in', latest)
      .orderBy('footprints.created_at', 'desc')
      .orderBy('footprints.id', 'desc')
      .limit(size)
      .offset((pageNum - 1) * size)
      .execute();
    const books = await this.books(rows.map((r) => r.book_id));
    return pagedOf(
      pageNum,
      size,
      Number(n),
      rows.flatMap((r) => {
        const book = books.get(r.book_id);
        return book
          ? [
              {
                book,
                volumeId: r.volume_id,
                volumeName: r.volume_name ?? null,
                imageId: r.page_id,
                pageNumber: r.seq ?? null,
                viewedAt: r.created_at,
              },
            ]
          : [];
      }),
    );
  }

  async deleteFootprints(userId: number, bookId?: number): Promise<void> {
    let query = this.db.deleteFrom('footprints').where('user_id', '=', userId);
    if (bookId !== undefined) query = query.where('book_id', '=', bookId);
    await query.execute();
  }

  // Privileges

  /** Approved, unexpired privileges, one row per book with the latest expiry. */
  async privileges(userId: number, pageNum: number): Promise<Paged<Privilege>> {
    const size = PERSONAL_PAGE_SIZE;
    const now = nowIso(this.clock.now());
    const base = this.db
      .selectFrom('book_privileges')
      .where('user_id', '=', userId)
      .where('starts_at', '<=', now)
      .where('expires_at', '>', now);
    const { n } = await this.db
      .selectFrom(base.select('book_id').groupBy('book_id').as('active'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .select((eb) => [
        'book_id',
        eb.fn.max('expires_at').as('expires_at'),
        eb.fn.max('reservation_id').as('reservation_id'),
      ])
      .groupBy('book_id')
      .orderBy('expires_at')
      .limit(size)
      .offset((pageNum - 1) * size)
      .execute();
    const books = await this.books(rows.map((r) => r.book_id));
    return pagedOf(
      pageNum,
      size,
      Number(n),
      rows.flatMap((r) => {
        const book = books.get(r.book_id);
        return book
          ? [{ book, expiresAt: String(r.expires_at), reservationId: r.reservation_id ?? null }]
          : [];
      }),
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
