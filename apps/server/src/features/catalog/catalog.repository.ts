import { OWN_STATUS } from '@guji/shared';
import type { Insertable, Updateable } from 'kysely';
import type { Db, DbOrTx, Dialect } from '../../db/database.ts';
import { nowIso } from '../../db/database.ts';
import type { BookRow, BooksTable } from '../../db/schema.ts';
import { titleSearchKey } from '../../search/fold.ts';
import * as bookSearch from './book-search.repository.ts';
import type { AdminBookQuery, AdvancedBookSearch, BookSearch } from './book-search.repository.ts';
import { VolumeRepository } from './volume.repository.ts';

/**
 * Books, volumes, pages and directory entries (classifications: classification.repository.ts). The
 * books and the readers' privileges and footprints on them are here; volumes, pages and directory
 * entries come from VolumeRepository (volume.repository.ts), the book searches' queries from
 * book-search.repository.ts.
 */
export class CatalogRepository extends VolumeRepository {
  constructor(
    db: Db,
    private readonly dialect: Dialect,
  ) {
    super(db);
  }

  // Books

  async hasBooks(tx: DbOrTx = this.db): Promise<boolean> {
    return (await tx.selectFrom('books').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  /** The console's list of the catalogue, newest first, with the count of all (see book-search). */
  adminBooks(query: AdminBookQuery, tx: DbOrTx = this.db): Promise<{ rows: BookRow[]; total: number }> {
    return bookSearch.adminBooks(tx, query);
  }

  /** Each book's number of volumes and pages. */
  async volumeAndPageCounts(
    bookIds: number[],
    tx: DbOrTx = this.db,
  ): Promise<Map<number, { volumes: number; pages: number }>> {
    if (bookIds.length === 0) return new Map();
    const rows = await tx
      .selectFrom('volumes')
      .leftJoin('pages', 'pages.volume_id', 'volumes.id')
      .select((eb) => [
        'volumes.book_id',
        eb.fn.count<number>('volumes.id').distinct().as('volumes'),
        eb.fn.count<number>('pages.id').as('pages'),
      ])
      .where('volumes.book_id', 'in', bookIds)
      .groupBy('volumes.book_id')
      .execute();
    return new Map(rows.map((r) => [r.book_id, { volumes: Number(r.volumes), pages: Number(r.pages) }]));
  }

  async allBookIds(tx: DbOrTx = this.db): Promise<number[]> {
    return (await tx.selectFrom('books').select('id').orderBy('id').execute()).map((r) => r.id);
  }

  /** Title, author and call number of each book asked for (those that exist). */
  async briefBooks(
    ids: number[],
    tx: DbOrTx = this.db,
  ): Promise<Array<Pick<BookRow, 'id' | 'title' | 'author' | 'call_number'>>> {
    if (ids.length === 0) return [];
    return tx
      .selectFrom('books')
      .select(['id', 'title', 'author', 'call_number'])
      .where('id', 'in', ids)
      .execute();
  }

  async findBook(id: number, tx: DbOrTx = this.db): Promise<BookRow | undefined> {
    return tx.selectFrom('books').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findBookBySourceKey(key: string, tx: DbOrTx = this.db): Promise<BookRow | undefined> {
    return tx.selectFrom('books').selectAll().where('source_key', '=', key).executeTakeFirst();
  }

  async createBook(
    book: Omit<Insertable<BooksTable>, 'created_at' | 'updated_at'>,
    tx: DbOrTx,
  ): Promise<number> {
    const now = nowIso();
    const row = await tx
      .insertInto('books')
      .values({ ...book, title_search: titleSearchKey(book.title), created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async updateBook(id: number, changes: Updateable<BooksTable>, tx: DbOrTx): Promise<void> {
    await tx
      .updateTable('books')
      .set({
        ...changes,
        ...(typeof changes.title === 'string' ? { title_search: titleSearchKey(changes.title) } : {}),
        updated_at: nowIso(),
      })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Takes an owner's book in review ('1') or published ('2') back to a hidden draft ('0'); false when
   * it is not such a book of theirs (the library's own books and lonely imports never are).
   */
  async unpublishOwnBook(bookId: number, ownerId: number, now: string, tx: DbOrTx): Promise<boolean> {
    const updated = await tx
      .updateTable('books')
      .set({ audit_status: OWN_STATUS.draft, is_visible: 0, updated_at: now })
      .where('id', '=', bookId)
      .where('owner_id', '=', ownerId)
      .where('is_lonely', '=', 0)
      .where('audit_status', 'in', [OWN_STATUS.reviewing, OWN_STATUS.published])
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  /**
   * Whether readers have anything of theirs on a book (collections, notes, comments, reservations,
   * print items): such a book is never deleted, so nothing a reader saved or paid for is lost.
   */
  async hasReaderData(bookId: number, tx: DbOrTx = this.db): Promise<boolean> {
    const used = await Promise.all(
      (['collections', 'notes', 'comments', 'reservations', 'print_items'] as const).map((table) =>
        tx
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('book_id', '=', bookId)
          .executeTakeFirstOrThrow(),
      ),
    );
    return used.some((u) => Number(u.n) > 0);
  }

  async deleteBook(id: number, tx: DbOrTx): Promise<void> {
    await tx.deleteFrom('books').where('id', '=', id).execute();
  }

  /** Title search with a classification filter: one page of rows and the exact total (see book-search). */
  searchBooks(search: BookSearch, tx: DbOrTx = this.db): Promise<{ rows: BookRow[]; total: number }> {
    return bookSearch.searchBooks(tx, this.dialect, search);
  }

  /** Advanced book search, conditions joined left to right: rows and the exact total (see book-search). */
  advancedSearch(
    search: AdvancedBookSearch,
    tx: DbOrTx = this.db,
  ): Promise<{ rows: BookRow[]; total: number }> {
    return bookSearch.advancedSearch(tx, search);
  }

  /** The most-read visible books that have at least one volume (see book-search). */
  hotBooks(offset: number, limit: number, tx: DbOrTx = this.db): Promise<{ rows: BookRow[]; total: number }> {
    return bookSearch.hotBooks(tx, offset, limit);
  }

  async incrementViews(id: number): Promise<void> {
    await this.db
      .updateTable('books')
      .set((eb) => ({ view_count: eb('view_count', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  /** Visible, published, open books with their volume ids: what IIIF clients may read without a login. */
  async publicBooks(tx: DbOrTx = this.db): Promise<Array<{ book: BookRow; volumeIds: number[] }>> {
    const books = await tx
      .selectFrom('books')
      .selectAll()
      .where('is_visible', '=', 1)
      .where('audit_status', '=', OWN_STATUS.published)
      .where('is_open', '=', 1)
      .orderBy('id')
      .execute();
    if (books.length === 0) return [];
    // A join, not `book_id in (…every public book…)`: a large library would pass the engines' limit of
    // bound variables.
    const volumes = await tx
      .selectFrom('volumes')
      .innerJoin('books', 'books.id', 'volumes.book_id')
      .select(['volumes.id', 'volumes.book_id'])
      .where('books.is_visible', '=', 1)
      .where('books.audit_status', '=', OWN_STATUS.published)
      .where('books.is_open', '=', 1)
      .orderBy('volumes.sort')
      .orderBy('volumes.id')
      .execute();
    const byBook = new Map<number, number[]>();
    for (const v of volumes) {
      const ids = byBook.get(v.book_id);
      if (ids) ids.push(v.id);
      else byBook.set(v.book_id, [v.id]);
    }
    return books
      .map((book) => ({ book, volumeIds: byBook.get(book.id) ?? [] }))
      .filter((entry) => entry.volumeIds.length > 0);
  }

  // Privileges and footprints

  async hasActivePrivilege(
    userId: number,
    bookId: number,
    now: string,
    tx: DbOrTx = this.db,
  ): Promise<boolean> {
    const row = await tx
      .selectFrom('book_privileges')
      .select('id')
      .where('user_id', '=', userId)
      .where('book_id', '=', bookId)
      .where('starts_at', '<=', now)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (row) return true;
    // A research reader (category '2') holds a standing privilege for every book until the category ends.
    const researcher = await tx
      .selectFrom('users')
      .select('id')
      .where('id', '=', userId)
      .where('reader_flag', '=', '2')
      .where((eb) => eb.or([eb('flag_expires_at', 'is', null), eb('flag_expires_at', '>', now)]))
      .executeTakeFirst();
    return researcher !== undefined;
  }

  async grantPrivilege(userId: number, bookId: number, startsAt: string, expiresAt: string) {
    await this.db
      .insertInto('book_privileges')
      .values({
        user_id: userId,
        book_id: bookId,
        starts_at: startsAt,
        expires_at: expiresAt,
        created_at: nowIso(),
      })
      .execute();
  }

  async addFootprint(userId: number, bookId: number, volumeId: number | null): Promise<void> {
    await this.db
      .insertInto('footprints')
      .values({ user_id: userId, book_id: bookId, volume_id: volumeId, created_at: nowIso() })
      .execute();
  }

  async countFootprints(userId: number, tx: DbOrTx = this.db): Promise<number> {
    const row = await tx
      .selectFrom('footprints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
