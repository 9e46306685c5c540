import { describe, expect, it } from 'vitest';
import type { BookRow, ImagePage } from '../../db/schema.ts';
import { TableWrites } from '../../db/table-writes.ts';
import { fakeRepository } from '../../../test/fakes/memory-store.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import { IiifCatalog, PUBLIC_PAGE_KEEP_MS } from './iiif-catalog.service.ts';

/** An IiifCatalog over in-memory rows, counting the rows it reads; the clock and the write count are the test's. */
function catalogOf(books: Record<number, { isPublic: boolean }>) {
  const reads: string[] = [];
  let now = Date.parse('2026-11-29T08:00:00Z');
  const writes = new TableWrites(new Set(['books']));
  const page = (id: number) => ({ id, book_id: id % 10, width: 1200, height: 800 }) as ImagePage;
  const catalog = fakeRepository<CatalogRepository>('catalog', {
    findImagePage: (id: number) => {
      reads.push(`page ${id}`);
      return Promise.resolve(page(id));
    },
    findBook: (id: number) => {
      reads.push(`book ${id}`);
      return Promise.resolve({ id } as BookRow);
    },
  });
  const service = fakeRepository<CatalogService>('catalogService', {
    isPublic: (book: BookRow) => Promise.resolve(books[book.id]?.isPublic ?? false),
  });
  const iiif = new IiifCatalog(catalog, service, writes, { now: () => new Date(now) });
  return { iiif, reads, writes, advance: (ms: number) => (now += ms) };
}

describe('the pages of public books kept between image requests (issue 34 part 4)', () => {
  it('reads a public page once, then answers from memory until a catalogue change or the time runs out', async () => {
    const { iiif, reads, writes, advance } = catalogOf({ 1: { isPublic: true } });
    expect(await iiif.imageAccess(11)).toMatchObject({ page: { id: 11 }, book: { id: 1 }, isPublic: true });
    expect(reads).toEqual(['page 11', 'book 1']);
    advance(PUBLIC_PAGE_KEEP_MS - 1);
    expect(await iiif.imageAccess(11)).toMatchObject({ isPublic: true });
    expect(reads).toHaveLength(2);
    // A change in this process (a book, volume or page written; a transaction ended): read again.
    writes.transactionEnded();
    await iiif.imageAccess(11);
    expect(reads).toHaveLength(4);
    // Another process's change is seen after PUBLIC_PAGE_KEEP_MS at the latest.
    advance(PUBLIC_PAGE_KEEP_MS);
    await iiif.imageAccess(11);
    expect(reads).toHaveLength(6);
  });

  it('never keeps a restricted book’s page: its access depends on who asks', async () => {
    const { iiif, reads } = catalogOf({ 2: { isPublic: false } });
    expect(await iiif.imageAccess(12)).toMatchObject({ isPublic: false });
    expect(await iiif.imageAccess(12)).toMatchObject({ isPublic: false });
    expect(reads).toEqual(['page 12', 'book 2', 'page 12', 'book 2']);
  });
});
