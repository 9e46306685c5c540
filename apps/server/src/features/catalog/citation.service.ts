import { leafOf, MSG, type CitationQuery } from '@guji/shared';
import { badRequest, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { localDay } from '../../lib/local-day.ts';
import type { SettingsService } from '../site/settings.service.ts';
import type { CatalogRepository } from './catalog.repository.ts';
import type { CatalogService } from './catalog.service.ts';
import type { Viewer } from '../../lib/viewer.ts';

/**
 * What a citation names (issue 18): a book as the catalogue records it, and where a volume or page is
 * cited, that volume and page. Only what the viewer may see in the catalogue anyway.
 */
export interface CitedWork {
  catalogId: number;
  title: string;
  author: string | null;
  /** The period of the work (朝代, `publishDynasty`), as recorded: the only date the catalogue has. */
  dynasty: string | null;
  /** The edition (版本, `coverageDynasty`), e.g. 清乾隆武英殿刻本: the imprint statement. */
  edition: string | null;
  editionType: string | null;
  callNumber: string | null;
  /** The library: the site's name. */
  siteName: string;
  /** Absolute permalink: the book's page, or the reader at the cited volume or page. */
  url: string;
  /** The day of the citation (YYYY-MM-DD in the site's time zone): the access date. */
  accessed: string;
  volume: { fascicleId: number; name: string } | null;
  /**
   * The cited page: its number in the volume and its leaf (the page's recorded name, e.g. 第三葉),
   * the leaf only for viewers who may see the pages and when the name is not a bare number.
   */
  page: { imageId: number; pageNumber: number; leaf: string | null } | null;
}

/** A visitor: what anyone may see, the rule of the citation tags in served pages. */
export const VISITOR: Viewer = { userId: null, roles: [], readingRoom: false };

/** The reader's address of a book, volume or page (as apps/web/src/lib/reader-url.ts writes it). */
export function readerPath(catalogId: number, fascicleId?: number, imageId?: number): string {
  const params = new URLSearchParams({ catalogId: String(catalogId) });
  if (fascicleId !== undefined) params.set('fascicleId', String(fascicleId));
  if (imageId !== undefined) params.set('imageId', String(imageId));
  return `/Book?${params.toString()}`;
}

/** The book's detail page (the web app's /SearchPage/{catalogId}). */
export const bookPath = (catalogId: number): string => `/SearchPage/${catalogId}`;

/** Gathers what a citation of a book, a volume or a page says, by the catalogue's visibility rule. */
export class CitationService {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly books: CatalogService,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
  ) {}

  /**
   * The cited work. A book the viewer may not see in the catalogue (hidden, unpublished, unknown) is
   * 404 NO_DATA, as its detail is; a volume or page of another book is 404 too, and a page that is not
   * in the given volume is 400.
   */
  async cite(catalogId: number, query: CitationQuery, viewer: Viewer, origin: string): Promise<CitedWork> {
    // The detail's rule: published and visible, or the owner's, or catalogue staff's.
    const volumes = await this.books.volumes(catalogId, viewer);
    const book = await this.catalog.findBook(catalogId);
    if (!book) throw notFound(MSG.noData, 'NO_DATA');
    const page = query.imageId === undefined ? undefined : await this.catalog.findImagePage(query.imageId);
    if (query.imageId !== undefined && (!page || page.book_id !== catalogId))
      throw notFound('该页不存在或不属于这部书', 'NO_PAGE');
    if (page && query.fascicleId !== undefined && page.volume_id !== query.fascicleId)
      throw badRequest('PAGE_NOT_IN_VOLUME', '该页不在所选分册中');
    const volumeId = page?.volume_id ?? query.fascicleId;
    const volume = volumeId === undefined ? undefined : volumes.find((v) => v.fascicleId === volumeId);
    if (volumeId !== undefined && !volume) throw notFound('该分册不存在或不属于这部书', 'NO_VOLUME');
    const seesPages = page ? (await this.books.mayView(book, viewer)).allowed : false;
    const site = await this.settings.get();
    return {
      catalogId,
      title: book.title,
      author: book.author,
      dynasty: book.publish_dynasty,
      edition: book.coverage_dynasty,
      editionType: book.edition_type,
      callNumber: book.call_number,
      siteName: site.siteName,
      url: origin + (volume ? readerPath(catalogId, volume.fascicleId, page?.id) : bookPath(catalogId)),
      accessed: localDay(this.clock.now(), site.timeZone),
      volume: volume ? { fascicleId: volume.fascicleId, name: volume.name } : null,
      page: page
        ? { imageId: page.id, pageNumber: page.seq, leaf: seesPages ? leafOf(page.name) : null }
        : null,
    };
  }
}
