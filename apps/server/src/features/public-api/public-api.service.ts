import {
  V1TextRegions,
  pageText,
  type BookSummary,
  type Classification,
  type DirectoryNode,
  type OcrJson,
  type V1Book,
  type V1BookDetail,
  type V1BookList,
  type V1BooksQuery,
  type V1Classification,
  type V1DirectoryEntry,
  type V1PageList,
  type V1PageText,
  type V1SearchQuery,
  type V1SearchResult,
} from '@guji/shared';
import { notFound } from '../../errors.ts';
import { parseOcr } from '../../ocr/parse.ts';
import type { CatalogRepository } from '../catalog/catalog.repository.ts';
import { accessError, toPageImage, type CatalogService } from '../catalog/catalog.service.ts';
import type { Viewer } from '../../lib/viewer.ts';
import type { OcrVersionRepository } from '../ocr/ocr-version.repository.ts';
import type { FullTextService } from '../search/full-text.service.ts';

const NO_DATA = () => notFound('温馨提示：暂无数据', 'NO_DATA');
const V1 = '/api/v1';

/**
 * The public read API's answers (issue 18 part 7), made from the site's own services: the catalogue
 * (CatalogService: search, detail, volumes, directory, the access rule), full-text search
 * (FullTextService) and the pages' OCR text. Nothing here decides access on its own; it only
 * reshapes what those services answer into the stable v1 shapes.
 */
export class PublicApiService {
  constructor(
    private readonly catalog: CatalogService,
    private readonly catalogRepo: CatalogRepository,
    private readonly fullText: FullTextService,
    private readonly ocrVersions: OcrVersionRepository,
  ) {}

  async classifications(): Promise<V1Classification[]> {
    const convert = (node: Classification): V1Classification => ({
      code: node.dictionaryValue,
      name: node.dictionaryName,
      children: node.children.map(convert),
    });
    return (await this.catalog.classificationTree()).map(convert);
  }

  async books(query: V1BooksQuery, viewer: Viewer): Promise<V1BookList> {
    const found = await this.catalog.search(
      { title: query.q ?? '', classCode: query.class ?? '', pageNum: query.page, pageSize: query.pageSize },
      viewer,
    );
    return {
      ...paging(found.pageNum, found.pageSize, found.total, (page) =>
        listUrl('/books', { q: query.q, class: query.class, page, pageSize: query.pageSize }),
      ),
      items: found.records.map(toV1Book),
    };
  }

  async book(bookId: number, viewer: Viewer): Promise<V1BookDetail> {
    const detail = await this.catalog.detail(bookId, viewer);
    const volumes = await this.catalog.volumes(bookId, viewer);
    const withDirectory = [];
    for (const volume of volumes) {
      const directory = await this.catalog.directory(volume.fascicleId, viewer);
      withDirectory.push({
        id: volume.fascicleId,
        name: volume.name,
        introduction: volume.introduction,
        pageCount: volume.imageCount,
        iiifManifest: volume.manifestUrl,
        pagesUrl: `${V1}/books/${bookId}/volumes/${volume.fascicleId}/pages`,
        directory: directory.map(toV1Directory),
      });
    }
    return {
      ...toV1Book(detail),
      notes: detail.notes,
      volumeCount: detail.volumeCount,
      access: detail.access,
      iiifManifest: detail.iiifManifestUrl,
      volumes: withDirectory,
    };
  }

  /** A volume's pages: for public books to anyone (as their IIIF manifests), otherwise by the access rule. */
  async pages(bookId: number, volumeId: number, viewer: Viewer): Promise<V1PageList> {
    const book = await this.catalogRepo.findBook(bookId);
    const volume = await this.catalogRepo.findVolume(volumeId);
    if (!book || !volume || volume.book_id !== bookId) throw NO_DATA();
    const { allowed, access } = await this.catalog.mayView(book, viewer);
    if (!allowed) throw accessError(access);
    const pages = await this.catalogRepo.listPages(volumeId);
    return {
      bookId,
      volumeId,
      pages: pages.map((row) => {
        const image = toPageImage(row);
        return {
          id: image.imageId,
          number: image.pageNumber,
          name: image.name,
          width: image.width,
          height: image.height,
          iiifImage: image.iiifBase,
          thumbnail: image.thumbnailUrl,
          textUrl: `${V1}/books/${bookId}/pages/${row.id}/text`,
        };
      }),
    };
  }

  /** A page's current OCR text with its boxes, to whoever may read the book (CatalogService.readablePage). */
  async pageText(bookId: number, pageId: number, viewer: Viewer): Promise<V1PageText> {
    // A public book's text layer is public, as its IIIF text.json is (DESIGN.md §4; issue 31 item 11);
    // other books' by the access rule.
    const found = await this.catalogRepo.findPage(pageId);
    const book = found ? await this.catalogRepo.findBook(found.book_id) : undefined;
    const isPublic = book !== undefined && (await this.catalog.mayView(book, viewer)).isPublic;
    const page = isPublic ? found! : (await this.catalog.readablePage(pageId, viewer)).page;
    if (page.book_id !== bookId) throw NO_DATA();
    const ocr = parseOcr(page.ocr_json);
    // Text kept from before the first save is version 1 (OcrService keeps it as such when it is replaced).
    const version = ocr ? Math.max(1, await this.ocrVersions.latest(page.id)) : null;
    return {
      pageId: page.id,
      bookId,
      volumeId: page.volume_id,
      pageNumber: page.seq,
      width: page.width,
      height: page.height,
      version,
      text: ocr ? pageText(ocr) : '',
      columns: ocr ? columnsOf(ocr) : [],
    };
  }

  async search(query: V1SearchQuery, viewer: Viewer): Promise<V1SearchResult> {
    const found = await this.fullText.searchBooks(viewer, {
      text: query.q,
      exact: query.exact,
      sort: query.sort,
      catalogId: query.book,
      classCode: query.class,
      dynasty: query.dynasty,
      edition: query.edition,
      pageNum: query.page,
      pageSize: query.pageSize,
      hitsPerBook: query.hitsPerBook,
    });
    const { q, exact, sort, book, class: classCode, dynasty, edition, pageSize, hitsPerBook } = query;
    return {
      query: q,
      counts: found.summary,
      ...paging(found.pageNum, found.pageSize, found.total, (page) =>
        listUrl('/search', {
          q,
          exact,
          sort,
          book,
          class: classCode,
          dynasty,
          edition,
          page,
          pageSize,
          hitsPerBook,
        }),
      ),
      items: found.records.map((group) => ({
        book: {
          id: group.catalogId,
          title: group.catalogName,
          author: group.author,
          dynasty: group.publishDynasty,
          edition: group.coverageDynasty,
          classCode: group.classCode,
        },
        pages: group.pages,
        occurrences: group.occurrences,
        hits: group.hits.map((hit) => ({
          pageId: hit.imageId,
          volumeId: hit.fascicleId,
          volumeName: hit.fascicleName,
          pageNumber: hit.pageNumber,
          section: hit.directoryName,
          occurrences: hit.occurrences,
          snippet: { text: hit.snippet.text, highlights: hit.snippet.highlights },
        })),
      })),
    };
  }
}

export function toV1Book(book: BookSummary): V1Book {
  return {
    id: book.catalogId,
    title: book.title,
    author: book.author,
    dynasty: book.publishDynasty,
    edition: book.coverageDynasty,
    callNumber: book.callNumber,
    classCode: book.classCode,
    openAccess: book.isOpen,
    cover: book.coverUrl,
    url: `/SearchPage/${book.catalogId}`,
  };
}

const toV1Directory = (node: DirectoryNode): V1DirectoryEntry => ({
  id: node.directoryId,
  name: node.name,
  pageId: node.imageId,
  pageNumber: node.pageNumber,
  children: node.children.map(toV1Directory),
});

/** Every region's columns, body first; characters as stored (reading order within each column). */
function columnsOf(ocr: OcrJson): V1PageText['columns'] {
  return V1TextRegions.flatMap((region) =>
    ocr.ocr_res[region].map((line) => ({
      region,
      characters: line.words.map((word) => ({
        char: word.word,
        type: word.type,
        confidence: word.confidence,
        box: word.points,
      })),
    })),
  );
}

/** The paging fields of a list, with the next page's path (null on the last page). */
function paging(page: number, pageSize: number, total: number, urlOf: (page: number) => string) {
  const pages = Math.ceil(total / pageSize);
  return { page, pageSize, total, pages, next: page < pages ? urlOf(page + 1) : null };
}

/** A path of this API with its query (empty values left out). */
function listUrl(path: string, query: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') search.set(key, String(value));
  return `${V1}${path}?${search.toString()}`;
}
