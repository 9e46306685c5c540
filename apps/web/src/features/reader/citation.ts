import { canvasPath } from '@guji/shared';
import { readerPath } from '../../lib/reader-url.ts';

export interface CitedPage {
  siteName: string;
  origin: string;
  book: { catalogId: number; title: string; callNumber: string | null };
  volume: { fascicleId: number; name: string };
  page: { imageId: number; pageNumber: number };
  /** When it was read (the citation's access date). */
  date: Date;
}

/** The page's permalink: the reader opened at this page. */
export function permalinkOf(cited: Pick<CitedPage, 'origin' | 'book' | 'volume' | 'page'>): string {
  return (
    cited.origin +
    readerPath({
      catalogId: cited.book.catalogId,
      fascicleId: cited.volume.fascicleId,
      imageId: cited.page.imageId,
    })
  );
}

/** The page's IIIF canvas URI, for IIIF viewers and annotations. */
export function canvasUriOf(cited: Pick<CitedPage, 'origin' | 'volume' | 'page'>): string {
  return cited.origin + canvasPath(cited.volume.fascicleId, cited.page.imageId);
}

/**
 * A citation of one page, as a scholar pastes it: 《書名》（索书号），卷册，第 N 页。网站，永久链接，IIIF
 * canvas，访问日期. Book data as recorded; the date in the reader's calendar day.
 */
export function citationOf(cited: CitedPage): string {
  const day = `${cited.date.getFullYear()}-${String(cited.date.getMonth() + 1).padStart(2, '0')}-${String(cited.date.getDate()).padStart(2, '0')}`;
  const call = cited.book.callNumber ? `（${cited.book.callNumber}）` : '';
  return (
    `《${cited.book.title}》${call}，${cited.volume.name}，第 ${cited.page.pageNumber} 页。` +
    `${cited.siteName}，${permalinkOf(cited)}（IIIF：${canvasUriOf(cited)}），访问于 ${day}。`
  );
}
