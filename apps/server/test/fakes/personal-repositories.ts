import type { BookRow, Row } from '../../src/db/schema.ts';
import type { CatalogRepository } from '../../src/features/catalog/catalog.repository.ts';
import type { CollectionRepository } from '../../src/features/personal/collection.repository.ts';
import type { CommentRepository } from '../../src/features/personal/comment.repository.ts';
import { fakeRepository, type MemoryStore } from './memory-store.ts';

/** The tables the personal area's rules read and write, kept in memory. */
export interface PersonalTables {
  books: BookRow[];
  users: Array<Pick<Row<'users'>, 'id' | 'login_name' | 'nick_name'>>;
  collections: Array<Pick<Row<'collections'>, 'id' | 'user_id' | 'book_id' | 'created_at'>>;
  comments: Array<Row<'comments'>>;
}

export const emptyPersonalTables = (): PersonalTables => ({
  books: [],
  users: [],
  collections: [],
  comments: [],
});

/** A catalogue book row with the columns a test does not care about filled in (visible and published). */
export function bookRow(
  store: MemoryStore<PersonalTables>,
  book: Partial<BookRow> & { title: string },
): BookRow {
  const row: BookRow = {
    id: store.id(),
    source_key: null,
    title_search: null,
    author: null,
    publish_dynasty: null,
    coverage_dynasty: null,
    edition_type: null,
    call_number: null,
    class_code: null,
    is_visible: 1,
    is_open: 1,
    owner_id: null,
    audit_status: '2',
    actual_volume: null,
    book_number: null,
    notes: null,
    view_count: 0,
    refuse_reason: null,
    submitted_at: null,
    is_lonely: 0,
    created_at: '2026-06-01T00:00:00.000Z',
    updated_at: '2026-06-01T00:00:00.000Z',
    ...book,
  };
  store.tables.books.push(row);
  return row;
}

/** Newest first, then the window a page asks for, with the count of all. */
function windowOf<T extends { id: number }>(rows: T[], offset: number, limit: number) {
  const sorted = [...rows].sort((a, b) => b.id - a.id);
  return { rows: sorted.slice(offset, offset + limit), total: rows.length };
}

/** The catalogue reads the personal lists make (a book, its brief line, its cover). */
export function memoryCatalog(store: MemoryStore<PersonalTables>): CatalogRepository {
  return fakeRepository<CatalogRepository>('catalog', {
    findBook: (id) => Promise.resolve(store.tables.books.find((b) => b.id === id)),
    briefBooks: (ids) =>
      Promise.resolve(
        store.tables.books
          .filter((b) => ids.includes(b.id))
          .map(({ id, title, author, call_number }) => ({ id, title, author, call_number })),
      ),
    coverPageIds: () => Promise.resolve(new Map<number, number>()),
  });
}

export function memoryCollections(store: MemoryStore<PersonalTables>): CollectionRepository {
  const mine = (userId: number) => store.tables.collections.filter((c) => c.user_id === userId);
  return fakeRepository<CollectionRepository>('collections', {
    has: (userId, bookId) => Promise.resolve(mine(userId).some((c) => c.book_id === bookId)),
    add: (userId, bookId, now) => {
      if (!mine(userId).some((c) => c.book_id === bookId))
        store.tables.collections.push({ id: store.id(), user_id: userId, book_id: bookId, created_at: now });
      return Promise.resolve();
    },
    remove: (userId, bookId) => {
      store.tables.collections = store.tables.collections.filter(
        (c) => !(c.user_id === userId && c.book_id === bookId),
      );
      return Promise.resolve();
    },
    page: (userId, offset, limit) => Promise.resolve(windowOf(mine(userId), offset, limit)),
  });
}

export function memoryComments(store: MemoryStore<PersonalTables>): CommentRepository {
  const user = (id: number) => store.tables.users.find((u) => u.id === id)!;
  return fakeRepository<CommentRepository>('comments', {
    add: ({ userId, bookId, text, createdAt }) => {
      store.tables.comments.push({
        id: store.id(),
        user_id: userId,
        book_id: bookId,
        text,
        created_at: createdAt,
        hidden_at: null,
        hidden_by: null,
      });
      return Promise.resolve();
    },
    pageOfBook: (bookId, withHidden, offset, limit) => {
      const page = windowOf(
        store.tables.comments.filter((c) => c.book_id === bookId && (withHidden || c.hidden_at === null)),
        offset,
        limit,
      );
      const rows = page.rows.map(({ hidden_by: _, book_id: __, ...c }) => ({
        ...c,
        nick_name: user(c.user_id).nick_name,
        login_name: user(c.user_id).login_name,
      }));
      return Promise.resolve({ rows, total: page.total });
    },
    pageOfUser: (userId, offset, limit) => {
      const page = windowOf(
        store.tables.comments.filter((c) => c.user_id === userId),
        offset,
        limit,
      );
      const rows = page.rows.map(({ id, book_id, text, hidden_at, created_at }) => ({
        id,
        book_id,
        text,
        hidden_at,
        created_at,
      }));
      return Promise.resolve({ rows, total: page.total });
    },
    remove: (userId, id) => {
      const before = store.tables.comments.length;
      store.tables.comments = store.tables.comments.filter((c) => !(c.id === id && c.user_id === userId));
      return Promise.resolve(store.tables.comments.length < before);
    },
    setHidden: (id, hidden, tx) => {
      store.check(tx);
      const comment = store.tables.comments.find((c) => c.id === id);
      if (!comment) return Promise.resolve(false);
      comment.hidden_at = hidden?.at ?? null;
      comment.hidden_by = hidden?.by ?? null;
      return Promise.resolve(true);
    },
  });
}
