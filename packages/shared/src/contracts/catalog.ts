import { z } from 'zod';
import {
  AdvancedSearchRequest,
  BookDetail,
  BookPage,
  BookSearchQuery,
  CatalogIdParams,
  CitationQuery,
  Classification,
  CslItem,
  DirectoryNode,
  FascicleIdParams,
  HotBooksQuery,
  ImageIdParams,
  ReaderData,
  ReaderQuery,
  UpdateBookRequest,
  Volume,
} from '../api/catalog.ts';
import { PageOcr } from '../api/ocr.ts';
import {
  FullTextBookPage,
  FullTextBooksQuery,
  FullTextQuery,
  InBookQuery,
  PageMatches,
  PageMatchQuery,
  TextHitPage,
} from '../api/search.ts';
import { contract } from '../contract.ts';

const tags = ['catalogue'];

/** Catalogue: classification tree, hot list, title search, book detail, volumes, directory, reader. */
export const catalogApi = {
  classifications: contract({
    method: 'GET',
    path: '/api/classifications',
    summary: 'Classification dictionary as a tree (spec getFirstClassCode/getLowClassCode)',
    tags,
    response: z.array(Classification),
  }),
  hot: contract({
    method: 'GET',
    path: '/api/books/hot',
    summary: 'Most-read visible books (spec topViews)',
    tags,
    query: HotBooksQuery,
    response: BookPage,
  }),
  search: contract({
    method: 'GET',
    path: '/api/books',
    summary: 'Title search with a classification filter (spec queryCatalogBySort)',
    tags,
    query: BookSearchQuery,
    response: BookPage,
  }),
  get: contract({
    method: 'GET',
    path: '/api/books/:catalogId',
    summary: 'Book detail with the access decision for this viewer (spec getDetailCatalog)',
    tags,
    params: CatalogIdParams,
    response: BookDetail,
  }),
  update: contract({
    method: 'PATCH',
    path: '/api/books/:catalogId',
    summary: 'Change a book’s fields, visibility and online reading (catalogue staff)',
    tags,
    params: CatalogIdParams,
    body: UpdateBookRequest,
    response: BookDetail,
  }),
  volumes: contract({
    method: 'GET',
    path: '/api/books/:catalogId/volumes',
    summary: 'Volumes of a book (spec getFasciclesByCataId)',
    tags,
    params: CatalogIdParams,
    response: z.array(Volume),
  }),
  directory: contract({
    method: 'GET',
    path: '/api/volumes/:fascicleId/directory',
    summary: 'Directory tree of a volume (spec getDirectorys)',
    tags,
    params: FascicleIdParams,
    response: z.array(DirectoryNode),
  }),
  pageOcr: contract({
    method: 'GET',
    path: '/api/pages/:imageId/ocr',
    summary: 'A page’s recognised text (OCR JSON of spec §3), for viewers who may read the book',
    tags,
    params: ImageIdParams,
    response: PageOcr,
  }),
  advancedSearch: contract({
    method: 'POST',
    path: '/api/books/advanced-search',
    summary: 'Advanced book search: rows of field and text joined by AND/OR, fuzzy (1) or exact (0)',
    tags,
    body: AdvancedSearchRequest,
    response: BookPage,
  }),
  reader: contract({
    method: 'GET',
    path: '/api/reader',
    summary: 'Open a volume in the reader: access rule, pages and directory; records a view and a footprint',
    tags,
    query: ReaderQuery,
    response: ReaderData,
  }),
  citationRis: contract({
    method: 'GET',
    path: '/api/books/:catalogId/citation/ris',
    summary:
      'Citation of a book, volume or page as RIS (application/x-research-info-systems, UTF-8, a download)',
    tags,
    params: CatalogIdParams,
    query: CitationQuery,
    response: null,
  }),
  citationBibtex: contract({
    method: 'GET',
    path: '/api/books/:catalogId/citation/bibtex',
    summary: 'Citation of a book, volume or page as BibTeX (application/x-bibtex, UTF-8, a download)',
    tags,
    params: CatalogIdParams,
    query: CitationQuery,
    response: null,
  }),
  citationCsl: contract({
    method: 'GET',
    path: '/api/books/:catalogId/citation/csl-json',
    summary:
      'Citation of a book, volume or page as CSL-JSON (application/vnd.citationstyles.csl+json, a download)',
    tags,
    params: CatalogIdParams,
    query: CitationQuery,
    response: z.array(CslItem),
  }),
};

/**
 * Full-text search, in-book search and the boxes of a match on a page (reading room only, signed-in
 * users only).
 */
export const searchApi = {
  fullText: contract({
    method: 'GET',
    path: '/api/search/full-text',
    summary:
      'Full-text search over the recognised text of every searchable book (signed in, reading room only)',
    tags: ['search'],
    query: FullTextQuery,
    response: TextHitPage,
  }),
  fullTextBooks: contract({
    method: 'GET',
    path: '/api/search/full-text/books',
    summary:
      'Full-text search grouped by book: books with exact page and occurrence counts, their first pages, facets',
    tags: ['search'],
    query: FullTextBooksQuery,
    response: FullTextBookPage,
  }),
  inBook: contract({
    method: 'GET',
    path: '/api/books/:catalogId/text-search',
    summary: 'Search the text of one book (signed in, reading room only)',
    tags: ['search'],
    params: CatalogIdParams,
    query: InBookQuery,
    response: TextHitPage,
  }),
  pageMatches: contract({
    method: 'GET',
    path: '/api/pages/:imageId/matches',
    summary: 'Boxes of every occurrence of a text on a page (reading room only; the page must be readable)',
    tags: ['search'],
    params: ImageIdParams,
    query: PageMatchQuery,
    response: PageMatches,
  }),
};
