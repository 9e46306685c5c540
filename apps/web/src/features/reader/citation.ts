import { canvasPath, leafOf } from '@guji/shared';
import { readerPath } from '../../lib/reader-url.ts';

/** A book as a citation names it: its catalogue record as recorded. */
export interface CitedBook {
  catalogId: number;
  title: string;
  callNumber: string | null;
  author?: string | null;
  /** The period of the work (朝代), written before the author: 〔宋〕朱熹. */
  publishDynasty?: string | null;
  /** The edition (版本). */
  coverageDynasty?: string | null;
}

export interface CitedPage {
  siteName: string;
  origin: string;
  book: CitedBook;
  volume: { fascicleId: number; name: string };
  /** The page: its number in the volume and its recorded name (its leaf, 第三葉). */
  page: { imageId: number; pageNumber: number; name?: string };
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

/** The book's permalink: its catalogue page. */
export const bookPermalinkOf = (origin: string, book: Pick<CitedBook, 'catalogId'>): string =>
  `${origin}/SearchPage/${book.catalogId}`;

/** The page's IIIF canvas URI, for IIIF viewers and annotations. */
export function canvasUriOf(cited: Pick<CitedPage, 'origin' | 'volume' | 'page'>): string {
  return cited.origin + canvasPath(cited.volume.fascicleId, cited.page.imageId);
}

/** The reader's calendar day, YYYY-MM-DD. */
const dayOf = (date: Date): string =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/**
 * The book as cited, in the usual order for ancient books: 〔朝代〕作者：《書名》（索书号），版本. Parts the
 * catalogue does not record are left out; book data as recorded.
 */
function bookPart(book: CitedBook): string {
  // An author already recorded with the dynasty in brackets (（漢）司馬遷撰, the cataloguing rule) keeps it alone.
  const dated = /^[(（〔［[]/.test(book.author ?? '');
  const dynasty = book.publishDynasty && !dated ? `〔${book.publishDynasty}〕` : '';
  const by = book.author ? `${dynasty}${book.author}：` : dynasty;
  const call = book.callNumber ? `（${book.callNumber}）` : '';
  const edition = book.coverageDynasty ? `，${book.coverageDynasty}` : '';
  return `${by}《${book.title}》${call}${edition}`;
}

/**
 * A citation of one page, as a scholar pastes it: 〔朝代〕作者：《書名》（索书号），版本，卷册，第 N 页
 * （叶）。网站，永久链接（IIIF canvas），访问日期. The date in the reader's calendar day.
 */
export function citationOf(cited: CitedPage): string {
  const leaf = cited.page.name ? leafOf(cited.page.name) : null;
  return (
    `${bookPart(cited.book)}，${cited.volume.name}，第 ${cited.page.pageNumber} 页${leaf ? `（${leaf}）` : ''}。` +
    `${cited.siteName}，${permalinkOf(cited)}（IIIF：${canvasUriOf(cited)}），访问于 ${dayOf(cited.date)}。`
  );
}

/** A citation of a whole book (its detail page): the book, the site, its permalink and the access date. */
export function bookCitationOf(cited: Pick<CitedPage, 'siteName' | 'origin' | 'book' | 'date'>): string {
  return (
    `${bookPart(cited.book)}。` +
    `${cited.siteName}，${bookPermalinkOf(cited.origin, cited.book)}，访问于 ${dayOf(cited.date)}。`
  );
}
