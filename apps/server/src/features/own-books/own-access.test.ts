import { describe, expect, it } from 'vitest';
import { MSG, OWN_STATUS } from '@guji/shared';
import type { BookRow } from '../../db/schema.ts';
import type { UserRepository } from '../accounts/user.repository.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import { assertChangeable, OwnAccess } from './own-access.ts';

/**
 * Who may change which own book, and when, with the catalogue kept in memory. The same rules through HTTP
 * on both dialects: own*.test.ts; the per-user upload quota: upload-gate.test.ts.
 */
const OWNER = 7;
const STRANGER = 8;
const STAFF = 9;

function book(id: number, ownerId: number | null, status: string): BookRow {
  return { id, owner_id: ownerId, audit_status: status, title: `书${id}` } as BookRow;
}

function accessOver(books: BookRow[]) {
  const volumes = books.map((b) => ({ id: b.id * 10, book_id: b.id }));
  const pages = volumes.map((v) => ({ id: v.id * 10, volume_id: v.id }));
  const catalog = {
    findBook: (id: number) => Promise.resolve(books.find((b) => b.id === id)),
    findVolume: (id: number) => Promise.resolve(volumes.find((v) => v.id === id)),
    findPage: (id: number) => Promise.resolve(pages.find((p) => p.id === id)),
  };
  return new OwnAccess(catalog as unknown as CatalogRepository, {} as UserRepository);
}

describe('own books: who may change what', () => {
  const draft = book(1, OWNER, OWN_STATUS.draft);
  const reviewing = book(2, OWNER, OWN_STATUS.reviewing);
  const published = book(3, OWNER, OWN_STATUS.published);
  const library = book(4, null, OWN_STATUS.published);
  const access = accessOver([draft, reviewing, published, library]);

  it('finds a book for its owner only; anyone else is told there is no such data', async () => {
    expect(await access.book(OWNER, draft.id)).toBe(draft);
    await expect(access.book(STRANGER, draft.id)).rejects.toMatchObject({ status: 404, message: MSG.noData });
    await expect(access.book(OWNER, 999)).rejects.toMatchObject({ status: 404, message: MSG.noData });
  });

  it('lets catalogue staff edit the library’s own books, never a reader’s', async () => {
    const staff = { id: STAFF, catalogStaff: true };
    expect(await access.book(staff, library.id)).toBe(library);
    await expect(access.book(staff, draft.id)).rejects.toMatchObject({ status: 404 });
    // A reader is not staff by passing their id.
    await expect(access.book(STAFF, library.id)).rejects.toMatchObject({ status: 404 });
  });

  it('freezes a book under review and a published one; a draft and the library’s books change', async () => {
    expect(() => assertChangeable(draft)).not.toThrow();
    expect(() => assertChangeable(library)).not.toThrow();
    expect(() => assertChangeable(reviewing)).toThrow(MSG.ownLocked);
    expect(() => assertChangeable(published)).toThrow(MSG.ownPublishedLocked);
    const owner = { id: OWNER, catalogStaff: false };
    expect(await access.changeablePage(owner, 100)).toMatchObject({ id: 100 });
    await expect(access.changeablePage(owner, 200)).rejects.toMatchObject({
      status: 409,
      code: 'OWN_LOCKED',
    });
    await expect(access.changeablePage(owner, 300)).rejects.toMatchObject({
      status: 409,
      code: 'OWN_PUBLISHED',
    });
    await expect(access.changeablePage({ id: STRANGER, catalogStaff: false }, 100)).rejects.toMatchObject({
      status: 404,
    });
  });
});
