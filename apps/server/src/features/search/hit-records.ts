import { makeSnippet, OWN_STATUS, type TextHit } from '@guji/shared';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import type { Range } from '../../search/matcher.ts';

/** A book whose pages may be found by full-text search: visible and published (own books: approved). */
export const searchable = (book: { is_visible: number; audit_status: string }): boolean =>
  book.is_visible === 1 && book.audit_status === OWN_STATUS.published;

/** A page found, with what to highlight in its text. */
export interface FoundPage {
  pageId: number;
  bookId: number;
  volumeId: number;
  text: string;
  occurrences: number;
  /** The highlighted matches, in order, not overlapping (code points of `text`). */
  ranges: Range[];
}

/**
 * The rows of a result list (spec §3 full-text hit): book, volume, directory entry and page of each
 * page found, its occurrences and a snippet around its first match with every match inside marked.
 * A page of a book that is no longer searchable (a change the index has not caught up with) is left out.
 */
export async function hitRecords(catalog: CatalogRepository, found: FoundPage[]): Promise<TextHit[]> {
  const records: TextHit[] = [];
  for (const hit of found) {
    const [book, volume, page] = await Promise.all([
      catalog.findBook(hit.bookId),
      catalog.findVolume(hit.volumeId),
      catalog.findPage(hit.pageId),
    ]);
    if (!book || !volume || !page || !searchable(book)) continue;
    const entry = await catalog.directoryEntryAt(volume.id, page.seq);
    const first = hit.ranges[0];
    records.push({
      catalogId: book.id,
      catalogName: book.title,
      fascicleId: volume.id,
      fascicleName: volume.name,
      directoryId: entry?.id ?? null,
      directoryName: entry?.name ?? null,
      imageId: page.id,
      pageNumber: page.seq,
      occurrences: Math.max(1, hit.occurrences),
      snippet: makeSnippet(hit.text, first?.start ?? -1, first?.length ?? 0, hit.ranges),
    });
  }
  return records;
}
