import type { BookRow, ImagePage, PageRow, VolumeRow } from '../../db/schema.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import type { TableWrites } from '../../db/table-writes.ts';
import type { Clock } from '../../lib/clock.ts';

/**
 * How long a public page and its book are kept between image requests: changes made in this process are
 * seen at once (TableWrites), changes made by another web process within this time.
 */
export const PUBLIC_PAGE_KEEP_MS = 5_000;
/** The most public pages kept (the least recently asked for go first). */
const PUBLIC_PAGES_KEPT = 10_000;

interface KeptPage {
  page: ImagePage;
  book: BookRow;
  generation: number;
  until: number;
}

/**
 * What the IIIF answers read from the catalogue: a page image and its book, a volume and its book, a
 * manifest's parts, the public books. It decides nothing about access (iiif-access.ts does, by the
 * catalogue's rule); it only finds the rows that rule is asked about.
 */
export class IiifCatalog {
  private readonly publicPages = new Map<number, KeptPage>();

  constructor(
    private readonly catalog: CatalogRepository,
    private readonly books: CatalogService,
    private readonly writes: TableWrites,
    private readonly clock: Clock,
  ) {}

  /**
   * The page, its book and whether the book is public, for the image routes. A public book's page is kept
   * between requests (issue 34 part 4: a viewer's tiles then read no database row), until this process
   * changes a book, volume or page, or for PUBLIC_PAGE_KEEP_MS. The rows handed out are shared: read only.
   */
  async imageAccess(
    imageId: number,
  ): Promise<{ page: ImagePage; book: BookRow; isPublic: boolean } | undefined> {
    const now = this.clock.now().getTime();
    const generation = this.writes.generation;
    const kept = this.publicPages.get(imageId);
    if (kept && kept.generation === generation && kept.until > now) {
      // Most recently asked for last: the first is dropped when there are too many.
      this.publicPages.delete(imageId);
      this.publicPages.set(imageId, kept);
      return { page: kept.page, book: kept.book, isPublic: true };
    }
    this.publicPages.delete(imageId);
    const found = await this.imagePage(imageId);
    if (!found) return undefined;
    const isPublic = await this.books.isPublic(found.book);
    if (isPublic) {
      this.publicPages.set(imageId, { ...found, generation, until: now + PUBLIC_PAGE_KEEP_MS });
      if (this.publicPages.size > PUBLIC_PAGES_KEPT)
        this.publicPages.delete(this.publicPages.keys().next().value!);
    }
    return { ...found, isPublic };
  }

  /** The page (without its OCR JSON: images need none of it) and its book; undefined if either is missing. */
  async imagePage(imageId: number): Promise<{ page: ImagePage; book: BookRow } | undefined> {
    const page = await this.catalog.findImagePage(imageId);
    const book = page ? await this.catalog.findBook(page.book_id) : undefined;
    return page && book ? { page, book } : undefined;
  }

  /** The volume and its book; undefined if either is missing. */
  async volume(volumeId: number): Promise<{ volume: VolumeRow; book: BookRow } | undefined> {
    const volume = await this.catalog.findVolume(volumeId);
    const book = volume ? await this.catalog.findBook(volume.book_id) : undefined;
    return volume && book ? { volume, book } : undefined;
  }

  book(bookId: number): Promise<BookRow | undefined> {
    return this.catalog.findBook(bookId);
  }

  volumes(bookId: number) {
    return this.catalog.listVolumes(bookId);
  }

  /** Whether the page is its book's cover (the one page of a restricted book lists may show). */
  async isCover(bookId: number, pageId: number): Promise<boolean> {
    return (await this.catalog.coverPage(bookId))?.id === pageId;
  }

  /** A manifest's parts: the volume's pages, how many volumes the book has, the volume's directory. */
  async manifestParts(book: BookRow, volume: VolumeRow) {
    const [pages, volumes, directory] = await Promise.all([
      this.catalog.listPages(volume.id),
      this.catalog.listVolumes(book.id),
      // The whole directory: the manifest is answered only after the book's rule admitted the caller.
      this.books.directory(volume.id, { userId: null, roles: ['catalogAdmin'], readingRoom: false }),
    ]);
    return { pages, volumeCount: volumes.length, directory };
  }

  /** The page's stored OCR JSON (null when it has none). */
  async ocrJson(pageId: number): Promise<PageRow['ocr_json']> {
    return (await this.catalog.findPage(pageId))?.ocr_json ?? null;
  }

  publicBooks() {
    return this.catalog.publicBooks();
  }
}
