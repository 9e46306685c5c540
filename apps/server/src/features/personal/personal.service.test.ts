import { beforeEach, describe, expect, it } from 'vitest';
import { MSG, PERSONAL_PAGE_SIZE } from '@guji/shared';
import { FakeClock } from '../../../test/helpers.ts';
import { fakeRepository, MemoryStore } from '../../../test/fakes/memory-store.ts';
import {
  bookRow,
  emptyPersonalTables,
  memoryCatalog,
  memoryCollections,
  memoryComments,
  type PersonalTables,
} from '../../../test/fakes/personal-repositories.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import { PersonalService } from './personal.service.ts';

/**
 * The personal area's rules with its repositories in memory (test/fakes/): which books may be collected
 * and commented on, whose records a list shows, what a visitor, a reader and staff see of hidden comments,
 * and that hiding a comment is one change with its audit record. The SQL behind them runs on both
 * databases in collections.test.ts and comments.test.ts.
 */
const READER = 1;
const OTHER = 2;
const STAFF = 3;
const reader = { userId: READER, roles: ['reader'] as const, readingRoom: false };
const staff = { userId: STAFF, roles: ['catalogAdmin'] as const, readingRoom: false };

let store: MemoryStore<PersonalTables>;
let service: PersonalService;

beforeEach(() => {
  store = new MemoryStore(emptyPersonalTables());
  store.tables.users.push(
    { id: READER, login_name: 'duzhe', nick_name: '读者甲' },
    { id: OTHER, login_name: 'linju', nick_name: null },
    { id: STAFF, login_name: 'bianmu', nick_name: '编目员' },
  );
  const unused = <R extends object>(name: string) => fakeRepository<R>(name, {});
  service = new PersonalService(
    {
      catalog: memoryCatalog(store),
      collections: memoryCollections(store),
      comments: memoryComments(store),
      downloads: unused('downloads'),
      notes: unused('notes'),
      footprints: unused('footprints'),
      privileges: unused('privileges'),
    },
    fakeRepository<CatalogService>('catalogService', {}),
    new FakeClock(),
    store.auditor,
    store.transact,
  );
});

describe('collections', () => {
  it('collects a book readers may see, once, and refuses a hidden, unpublished or unknown one as 暂无数据', async () => {
    const shown = bookRow(store, { title: '論語' });
    const hidden = bookRow(store, { title: '隱書', is_visible: 0 });
    const inReview = bookRow(store, { title: '待審', audit_status: '1' });
    await service.collect(READER, shown.id);
    await service.collect(READER, shown.id);
    expect(await service.isCollected(READER, shown.id)).toBe(true);
    expect(store.tables.collections).toHaveLength(1);
    for (const id of [hidden.id, inReview.id, 9999])
      await expect(service.collect(READER, id)).rejects.toMatchObject({ status: 404, message: MSG.noData });
    expect(store.tables.collections).toHaveLength(1);
  });

  it('lists only the reader’s own, newest first, a page at a time, leaving out books deleted since', async () => {
    const books = Array.from({ length: PERSONAL_PAGE_SIZE + 2 }, (_, i) =>
      bookRow(store, { title: `書${i}` }),
    );
    for (const book of books) await service.collect(READER, book.id);
    await service.collect(OTHER, books[0]!.id);
    store.tables.books = store.tables.books.filter((b) => b.id !== books.at(-1)!.id);

    const first = await service.collections(READER, 1);
    expect(first).toMatchObject({ pageNum: 1, pageSize: PERSONAL_PAGE_SIZE, total: books.length, pages: 2 });
    // The newest (the last collected) was deleted: the page shows the rest, newest first.
    expect(first.records.map((r) => r.book.title)).toEqual(
      books
        .slice(2, -1)
        .reverse()
        .map((b) => b.title),
    );
    expect((await service.collections(OTHER, 1)).records.map((r) => r.book.title)).toEqual(['書0']);
    await service.uncollect(READER, books[0]!.id);
    expect(await service.isCollected(READER, books[0]!.id)).toBe(false);
    expect(await service.isCollected(OTHER, books[0]!.id)).toBe(true);
  });
});

describe('comments', () => {
  it('a hidden comment is left out for readers and shown, marked, to staff; mine and the name shown', async () => {
    const book = bookRow(store, { title: '孟子' });
    await service.addComment(READER, book.id, '好書');
    await service.addComment(OTHER, book.id, '廣告');
    const spam = store.tables.comments.find((c) => c.text === '廣告')!;
    await service.setCommentHidden(STAFF, staff.roles, spam.id, true);

    const forReader = await service.bookComments(book.id, reader, 1);
    expect(forReader.records).toEqual([
      expect.objectContaining({ text: '好書', nickName: '读者甲', mine: true, hidden: false }),
    ]);
    const forStaff = await service.bookComments(book.id, staff, 1);
    expect(forStaff.records.map((c) => [c.text, c.nickName, c.mine, c.hidden])).toEqual([
      ['廣告', 'linju', false, true],
      ['好書', '读者甲', false, false],
    ]);
    // The writer still sees it in 我的评论, marked hidden.
    expect((await service.myComments(OTHER, 1)).records).toEqual([
      expect.objectContaining({ text: '廣告', hidden: true }),
    ]);
  });

  it('no comment on a book readers cannot see; another reader’s comment cannot be deleted', async () => {
    const hidden = bookRow(store, { title: '隱書', is_visible: 0 });
    await expect(service.addComment(READER, hidden.id, '看不到')).rejects.toMatchObject({ status: 404 });
    const book = bookRow(store, { title: '大學' });
    await service.addComment(READER, book.id, '在此');
    const mine = store.tables.comments[0]!;
    await expect(service.deleteComment(OTHER, mine.id)).rejects.toMatchObject({ status: 404 });
    expect(store.tables.comments).toHaveLength(1);
    await service.deleteComment(READER, mine.id);
    expect(store.tables.comments).toHaveLength(0);
  });

  it('only staff hide a comment, with its audit record; a failed audit write leaves it shown', async () => {
    const book = bookRow(store, { title: '中庸' });
    await service.addComment(READER, book.id, '一句');
    const comment = store.tables.comments[0]!;
    await expect(service.setCommentHidden(READER, reader.roles, comment.id, true)).rejects.toMatchObject({
      status: 403,
    });
    await expect(service.setCommentHidden(STAFF, staff.roles, 9999, true)).rejects.toMatchObject({
      status: 404,
    });

    store.failNextAudit = true;
    await expect(service.setCommentHidden(STAFF, staff.roles, comment.id, true)).rejects.toThrow(
      'audit log unavailable',
    );
    expect(store.tables.comments[0]!.hidden_at).toBeNull();
    expect(store.audit).toEqual([]);

    await service.setCommentHidden(STAFF, staff.roles, comment.id, true);
    expect(store.tables.comments[0]).toMatchObject({
      hidden_by: STAFF,
      hidden_at: '2026-06-01T08:00:00.000Z',
    });
    expect(store.audit).toEqual([
      {
        actorId: STAFF,
        action: 'comment.hide',
        target: `comment:${comment.id}`,
        before: { hidden: false },
        after: { hidden: true },
      },
    ]);
  });
});
