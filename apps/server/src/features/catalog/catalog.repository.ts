import { OWN_STATUS } from '@guji/shared';
import { sql } from 'kysely';
import type { Db, DbOrTx, Dialect } from '../../db/database.ts';
import { titleSearchKey } from '../../search/fold.ts';
import { nowIso } from '../../db/database.ts';
import { escapeLike, likeText } from '../../db/query.ts';
import type { BookRow, BooksTable, DirectoryRow, PageRow, VolumeRow } from '../../db/schema.ts';
import type { Insertable, Updateable } from 'kysely';

export interface VolumeWithCount extends VolumeRow {
  image_count: number;
}

export interface BookSearch {
  title?: string | undefined;
  /** Classification codes to match (a code and its descendants). */
  classCodes?: string[] | undefined;
  visibleOnly: boolean;
  offset: number;
  limit: number;
}

/** A condition of the advanced book search. */
export interface BookCondition {
  field: 'title' | 'author' | 'call_number' | 'coverage_dynasty';
  value: string;
  /** How it joins the conditions before it; the first one's is ignored. */
  join: 'and' | 'or';
}

/** Books, volumes, pages and directory entries (classifications: classification.repository.ts). */
export class CatalogRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  // Books

  async hasBooks(tx: DbOrTx = this.db): Promise<boolean> {
    return (await tx.selectFrom('books').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  /**
   * The console's list of the catalogue: the library's books and published own books (hidden ones too),
   * by folded title or call number as substrings and by state, newest first; with the count of all.
   */
  async adminBooks(
    query: {
      text?: string | undefined;
      state?: 'visible' | 'hidden' | 'open' | 'closed' | undefined;
      offset: number;
      limit: number;
    },
    tx: DbOrTx = this.db,
  ): Promise<{ rows: BookRow[]; total: number }> {
    let books = tx
      .selectFrom('books')
      .where('is_lonely', '=', 0)
      .where((eb) => eb.or([eb('owner_id', 'is', null), eb('audit_status', '=', OWN_STATUS.published)]));
    const text = query.text;
    if (text) {
      // The folded title (论语 finds 論語) or the call number, as substrings.
      books = books.where((eb) =>
        eb.or([likeText('title_search', titleSearchKey(text)), likeText('call_number', text)]),
      );
    }
    if (query.state === 'visible') books = books.where('is_visible', '=', 1);
    if (query.state === 'hidden') books = books.where('is_visible', '=', 0);
    if (query.state === 'open') books = books.where('is_open', '=', 1);
    if (query.state === 'closed') books = books.where('is_open', '=', 0);
    const [rows, count] = await Promise.all([
      books.selectAll().orderBy('id', 'desc').limit(query.limit).offset(query.offset).execute(),
      books.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
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
  ): Promise<Array<{ id: number; title: string; author: string | null; call_number: string | null }>> {
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
    tx: DbOrTx = this.db,
  ): Promise<number> {
    const now = nowIso();
    const row = await tx
      .insertInto('books')
      .values({ ...book, title_search: titleSearchKey(book.title), created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async updateBook(id: number, changes: Updateable<BooksTable>, tx: DbOrTx = this.db): Promise<void> {
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
  async unpublishOwnBook(
    bookId: number,
    ownerId: number,
    now: string,
    tx: DbOrTx = this.db,
  ): Promise<boolean> {
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

  async deleteBook(id: number, tx: DbOrTx = this.db): Promise<void> {
    await tx.deleteFrom('books').where('id', '=', id).execute();
  }

  /**
   * Title search (substring, case-insensitive for Latin) with a classification filter, newest first;
   * returns one page of rows and the exact total.
   */
  async searchBooks(search: BookSearch, tx: DbOrTx = this.db): Promise<{ rows: BookRow[]; total: number }> {
    let query = tx.selectFrom('books');
    if (search.visibleOnly)
      query = query.where('is_visible', '=', 1).where('audit_status', '=', OWN_STATUS.published);
    const key = search.title ? titleSearchKey(search.title) : '';
    if (key) {
      // Substring of the folded title, so 论语 finds 論語. On SQLite the FTS5 index (one token per
      // character, phrase query) finds the rows; it is exact by itself when every character is a
      // token, otherwise (punctuation in the query) the LIKE checks the rest. PostgreSQL's pg_trgm
      // index serves the LIKE directly.
      const chars = key.split(' ');
      const tokens = chars.filter((ch) => /[\p{L}\p{N}]/u.test(ch));
      if (this.dialect === 'sqlite' && tokens.length > 0) {
        const phrase = `"${tokens.join(' ').replace(/"/g, '""')}"`;
        query = query.where(
          sql<boolean>`id in (select rowid from books_fts where books_fts match ${phrase})`,
        );
      }
      if (this.dialect !== 'sqlite' || tokens.length !== chars.length) {
        query = query.where(likeText('title_search', key));
      }
    }
    if (search.classCodes && search.classCodes.length > 0) {
      // A code and everything under it: `JING` and `JING.…`, as an index range ('/' follows '.').
      const codes = search.classCodes;
      query = query.where((eb) =>
        eb.or(
          codes.flatMap((code) => [
            eb('class_code', '=', code),
            eb.and([eb('class_code', '>', `${code}.`), eb('class_code', '<', `${code}/`)]),
          ]),
        ),
      );
    }
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id', 'asc').limit(search.limit).offset(search.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /**
   * Advanced book search: conditions joined left to right ((a AND b) OR c …), each a substring (fuzzy)
   * or the whole field (exact); titles match folded (简/繁 and variants alike), other fields as written,
   * Latin letters in any case. Empty conditions are skipped. Oldest first, exact total.
   */
  async advancedSearch(
    search: {
      conditions: BookCondition[];
      exact: boolean;
      visibleOnly: boolean;
      offset: number;
      limit: number;
    },
    tx: DbOrTx = this.db,
  ): Promise<{ rows: BookRow[]; total: number }> {
    const conditions = search.conditions.filter((c) => c.value.trim() !== '');
    let query = tx.selectFrom('books');
    if (search.visibleOnly)
      query = query.where('is_visible', '=', 1).where('audit_status', '=', OWN_STATUS.published);
    if (conditions.length > 0) {
      query = query.where((eb) => {
        const one = (c: BookCondition) => {
          if (c.field === 'title') {
            const key = titleSearchKey(c.value);
            return search.exact ? eb('title_search', '=', key) : likeText('title_search', key);
          }
          const value = c.value.trim().toLowerCase();
          return search.exact
            ? eb(eb.fn('lower', [eb.ref(c.field)]), '=', value)
            : sql<boolean>`lower(${sql.ref(c.field)}) like ${`%${escapeLike(value)}%`} escape '\\'`;
        };
        let expression = one(conditions[0]!);
        for (const c of conditions.slice(1)) {
          expression = c.join === 'or' ? eb.or([expression, one(c)]) : eb.and([expression, one(c)]);
        }
        return expression;
      });
    }
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id', 'asc').limit(search.limit).offset(search.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** The most-read visible books that have at least one volume. */
  async hotBooks(
    offset: number,
    limit: number,
    tx: DbOrTx = this.db,
  ): Promise<{ rows: BookRow[]; total: number }> {
    const base = tx
      .selectFrom('books')
      .where('is_visible', '=', 1)
      .where('audit_status', '=', OWN_STATUS.published)
      .where((eb) =>
        eb.exists(eb.selectFrom('volumes').select('volumes.id').whereRef('volumes.book_id', '=', 'books.id')),
      );
    const [rows, count] = await Promise.all([
      base
        .selectAll('books')
        .orderBy('view_count', 'desc')
        .orderBy('id', 'asc')
        .limit(limit)
        .offset(offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  async incrementViews(id: number, tx: DbOrTx = this.db): Promise<void> {
    await tx
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

  // Volumes

  async listVolumes(bookId: number, tx: DbOrTx = this.db): Promise<VolumeWithCount[]> {
    const rows = await tx
      .selectFrom('volumes')
      .selectAll('volumes')
      .select((eb) =>
        eb
          .selectFrom('pages')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('pages.volume_id', '=', 'volumes.id')
          .as('image_count'),
      )
      .where('book_id', '=', bookId)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ ...row, image_count: Number(row.image_count ?? 0) }));
  }

  async countVolumes(bookId: number, tx: DbOrTx = this.db): Promise<number> {
    const row = await tx
      .selectFrom('volumes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('book_id', '=', bookId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async findVolume(id: number, tx: DbOrTx = this.db): Promise<VolumeRow | undefined> {
    return tx.selectFrom('volumes').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async createVolume(
    volume: { bookId: number; name: string; introduction: string | null; sort: number },
    tx: DbOrTx = this.db,
  ) {
    const row = await tx
      .insertInto('volumes')
      .values({
        book_id: volume.bookId,
        name: volume.name,
        introduction: volume.introduction,
        sort: volume.sort,
        created_at: nowIso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async deleteVolumesOfBook(bookId: number, tx: DbOrTx = this.db): Promise<void> {
    await tx.deleteFrom('volumes').where('book_id', '=', bookId).execute();
  }

  // Pages

  /** The pages of a book that have OCR text, in id order (what the full-text index holds of it). */
  async pagesWithText(
    bookId: number,
    tx: DbOrTx = this.db,
  ): Promise<Array<{ id: number; book_id: number; volume_id: number; ocr_json: string | null }>> {
    return tx
      .selectFrom('pages')
      .select(['id', 'book_id', 'volume_id', 'ocr_json'])
      .where('book_id', '=', bookId)
      .where('ocr_json', 'is not', null)
      .orderBy('id')
      .execute();
  }

  /** The file keys of the pages of a book or a volume (read before they are deleted). */
  async pageFiles(
    where: { bookId: number } | { volumeId: number },
    tx: DbOrTx = this.db,
  ): Promise<Array<{ id: number; master_key: string; pyramid_key: string | null }>> {
    const query = tx.selectFrom('pages').select(['id', 'master_key', 'pyramid_key']);
    return 'bookId' in where
      ? query.where('book_id', '=', where.bookId).execute()
      : query.where('volume_id', '=', where.volumeId).execute();
  }

  /**
   * The sequence number of a volume's last page (0 when it has none), with the volume's row locked
   * until the transaction ends: two uploads into one volume at once number their pages one after the
   * other instead of both after the same last page (PostgreSQL; SQLite writes one transaction at a time).
   */
  async lastPageSeq(volumeId: number, tx: DbOrTx = this.db): Promise<number> {
    await tx
      .updateTable('volumes')
      .set((eb) => ({ name: eb.ref('name') }))
      .where('id', '=', volumeId)
      .execute();
    const last = await tx
      .selectFrom('pages')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('volume_id', '=', volumeId)
      .executeTakeFirst();
    return Number(last?.seq ?? 0);
  }

  async listPages(volumeId: number, tx: DbOrTx = this.db): Promise<PageRow[]> {
    return tx.selectFrom('pages').selectAll().where('volume_id', '=', volumeId).orderBy('seq').execute();
  }

  async findPage(id: number, tx: DbOrTx = this.db): Promise<PageRow | undefined> {
    return tx.selectFrom('pages').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The first page of the book's first volume: its cover. */
  async coverPage(bookId: number, tx: DbOrTx = this.db): Promise<PageRow | undefined> {
    return tx
      .selectFrom('pages')
      .innerJoin('volumes', 'volumes.id', 'pages.volume_id')
      .selectAll('pages')
      .where('pages.book_id', '=', bookId)
      .orderBy('volumes.sort')
      .orderBy('volumes.id')
      .orderBy('pages.seq')
      .limit(1)
      .executeTakeFirst();
  }

  /** Cover page ids of several books at once, for lists. */
  async coverPageIds(bookIds: number[], tx: DbOrTx = this.db): Promise<Map<number, number>> {
    const covers = new Map<number, number>();
    if (bookIds.length === 0) return covers;
    const rows = await tx
      .selectFrom('pages')
      .innerJoin('volumes', 'volumes.id', 'pages.volume_id')
      .select(['pages.book_id', 'pages.id', 'volumes.sort', 'volumes.id as volume_id', 'pages.seq'])
      .where('pages.book_id', 'in', bookIds)
      .where('pages.seq', '=', 1)
      .orderBy('volumes.sort')
      .orderBy('volumes.id')
      .execute();
    for (const row of rows) if (!covers.has(row.book_id)) covers.set(row.book_id, row.id);
    return covers;
  }

  async createPage(
    page: {
      volumeId: number;
      bookId: number;
      seq: number;
      name: string;
      width: number;
      height: number;
      masterKey: string;
      ocrJson: string | null;
    },
    tx: DbOrTx = this.db,
  ): Promise<number> {
    const row = await tx
      .insertInto('pages')
      .values({
        volume_id: page.volumeId,
        book_id: page.bookId,
        seq: page.seq,
        name: page.name,
        width: page.width,
        height: page.height,
        master_key: page.masterKey,
        ocr_json: page.ocrJson,
        created_at: nowIso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async setPyramid(
    pageId: number,
    pyramidKey: string | null,
    status: 'ready' | 'failed',
    tx: DbOrTx = this.db,
  ) {
    await tx.updateTable('pages').set({ pyramid_key: pyramidKey, status }).where('id', '=', pageId).execute();
  }

  async pendingPageIds(tx: DbOrTx = this.db): Promise<number[]> {
    const rows = await tx
      .selectFrom('pages')
      .select('id')
      .where('status', '=', 'pending')
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  }

  // Directory

  /** The directory entry a page lies under: the last entry of its volume starting at or before it. */
  async directoryEntryAt(
    volumeId: number,
    seq: number,
    tx: DbOrTx = this.db,
  ): Promise<{ id: number; name: string } | undefined> {
    return tx
      .selectFrom('directories as d')
      .innerJoin('pages as p', 'p.id', 'd.page_id')
      .select(['d.id', 'd.name'])
      .where('d.volume_id', '=', volumeId)
      .where('p.seq', '<=', seq)
      .orderBy('p.seq', 'desc')
      .orderBy('d.sort', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async listDirectory(
    volumeId: number,
    tx: DbOrTx = this.db,
  ): Promise<Array<DirectoryRow & { page_seq: number | null }>> {
    return tx
      .selectFrom('directories')
      .leftJoin('pages', 'pages.id', 'directories.page_id')
      .selectAll('directories')
      .select('pages.seq as page_seq')
      .where('directories.volume_id', '=', volumeId)
      .orderBy('directories.sort')
      .orderBy('directories.id')
      .execute();
  }

  async createDirectoryEntry(
    entry: {
      volumeId: number;
      bookId: number;
      parentId: number | null;
      name: string;
      pageId: number | null;
      sort: number;
    },
    tx: DbOrTx = this.db,
  ): Promise<number> {
    const row = await tx
      .insertInto('directories')
      .values({
        volume_id: entry.volumeId,
        book_id: entry.bookId,
        parent_id: entry.parentId,
        name: entry.name,
        page_id: entry.pageId,
        sort: entry.sort,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
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

  async grantPrivilege(
    userId: number,
    bookId: number,
    startsAt: string,
    expiresAt: string,
    tx: DbOrTx = this.db,
  ) {
    await tx
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

  async addFootprint(
    userId: number,
    bookId: number,
    volumeId: number | null,
    tx: DbOrTx = this.db,
  ): Promise<void> {
    await tx
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
