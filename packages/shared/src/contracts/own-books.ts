import { z } from 'zod';
import { Volume } from '../api/catalog.ts';
import { IdParams, OkBody, PageNum, paged } from '../api/common.ts';
import {
  ApproveOwnBookRequest,
  ImagesUploadResult,
  OwnBook,
  OwnBookRequest,
  OwnPage,
  OwnReviewQuery,
  OwnVolumeRequest,
  RenamePageRequest,
  ReorderRequest,
  SaveDirectoryRequest,
  SubmitBooksRequest,
  ZipUploadResult,
} from '../api/own-books.ts';
import { RefuseRequest } from '../api/personal.ts';
import { contract } from '../contract.ts';

const tags = ['own books'];

/** Own books (issue 7): a user's books, submitted for publication or taken back. */
export const ownBooksApi = {
  list: contract({
    method: 'GET',
    path: '/api/own/books',
    summary: 'My books: 5 on the first page, then 6 (spec queryConsumerCatalogList)',
    tags,
    query: PageNum,
    response: paged(OwnBook),
  }),
  get: contract({
    method: 'GET',
    path: '/api/own/books/:id',
    summary: 'One of my books',
    tags,
    params: IdParams,
    response: OwnBook,
  }),
  create: contract({
    method: 'POST',
    path: '/api/own/books',
    summary: 'Add a book (spec saveCatalog)',
    tags,
    body: OwnBookRequest,
    response: OwnBook,
  }),
  update: contract({
    method: 'PUT',
    path: '/api/own/books/:id',
    summary: 'Edit a book (spec updateCatalog)',
    tags,
    params: IdParams,
    body: OwnBookRequest,
    response: OwnBook,
  }),
  remove: contract({
    method: 'DELETE',
    path: '/api/own/books/:id',
    summary: 'Delete a book of mine (spec deleteCatalog)',
    tags,
    params: IdParams,
    response: OkBody,
  }),
  submit: contract({
    method: 'POST',
    path: '/api/own/books/submit',
    summary: 'Submit books for publication (spec publishCataImage)',
    tags,
    body: SubmitBooksRequest,
    response: OkBody,
  }),
  unpublish: contract({
    method: 'POST',
    path: '/api/own/books/:id/unpublish',
    summary:
      'Withdraw my book from review or publication: out of the catalogue and search at once, a draft again (a published book is frozen until then)',
    tags,
    params: IdParams,
    response: OkBody,
  }),
};

/** An own book's volumes (or the library's, for catalogue staff): edited, filled from a zip, their directory. */
export const ownVolumesApi = {
  list: contract({
    method: 'GET',
    path: '/api/own/books/:id/volumes',
    summary: "My book's volumes",
    tags,
    params: IdParams,
    response: z.array(Volume),
  }),
  create: contract({
    method: 'POST',
    path: '/api/own/books/:id/volumes',
    summary: 'Add a volume (spec saveFascicle)',
    tags,
    params: IdParams,
    body: OwnVolumeRequest,
    response: OkBody,
  }),
  update: contract({
    method: 'PUT',
    path: '/api/own/volumes/:id',
    summary: 'Edit a volume (spec updateFascicle)',
    tags,
    params: IdParams,
    body: OwnVolumeRequest,
    response: OkBody,
  }),
  remove: contract({
    method: 'DELETE',
    path: '/api/own/volumes/:id',
    summary: 'Delete a volume (spec deleteFascicle)',
    tags,
    params: IdParams,
    response: OkBody,
  }),
  uploadZip: contract({
    method: 'POST',
    path: '/api/own/volumes/:id/zip',
    summary:
      'Upload a volume’s pages as a .zip of images (multipart field `file`); refused whole on any bad entry',
    tags,
    params: IdParams,
    multipart: true,
    response: ZipUploadResult,
  }),
  saveDirectory: contract({
    method: 'PUT',
    path: '/api/own/volumes/:id/directory',
    summary:
      "Replace a volume's directory (owner, or catalogue staff for the library's books); read it back with GET /api/volumes/{id}/directory",
    tags,
    params: IdParams,
    body: SaveDirectoryRequest,
    response: OkBody,
  }),
};

/** The pages of an own volume: listed with their OCR state, added, reordered, renamed, deleted. */
export const ownPagesApi = {
  list: contract({
    method: 'GET',
    path: '/api/own/volumes/:id/pages',
    summary: "A volume's pages with their OCR state (spec queryImageList)",
    tags,
    params: IdParams,
    response: z.array(OwnPage),
  }),
  upload: contract({
    method: 'POST',
    path: '/api/own/volumes/:id/images',
    summary: 'Add page images to a volume (multipart, one or more files named `file`; spec uploadCataImage)',
    tags,
    params: IdParams,
    multipart: true,
    response: ImagesUploadResult,
  }),
  reorder: contract({
    method: 'POST',
    path: '/api/own/volumes/:id/order',
    summary: 'Reorder all pages of a volume',
    tags,
    params: IdParams,
    body: ReorderRequest,
    response: OkBody,
  }),
  rename: contract({
    method: 'PUT',
    path: '/api/own/pages/:id',
    summary: 'Rename a page image (spec updateImage)',
    tags,
    params: IdParams,
    body: RenamePageRequest,
    response: OkBody,
  }),
  remove: contract({
    method: 'DELETE',
    path: '/api/own/pages/:id',
    summary: 'Delete a page image (spec deleteImage)',
    tags,
    params: IdParams,
    response: OkBody,
  }),
};

/** Single images (spec isLonely 1): a user's images that belong to no book. */
export const ownSinglesApi = {
  list: contract({
    method: 'GET',
    path: '/api/own/singles',
    summary: 'My single images (isLonely 1) with their OCR state',
    tags,
    response: z.array(OwnPage),
  }),
  upload: contract({
    method: 'POST',
    path: '/api/own/singles',
    summary:
      'Upload single images (multipart, one or more `file`); recognise, proofread and export them like pages',
    tags,
    multipart: true,
    response: ImagesUploadResult,
  }),
};

const adminTags = ['admin'];

/** Publication review of own books (reviewers). */
export const ownReviewApi = {
  queue: contract({
    method: 'GET',
    path: '/api/admin/own-books',
    summary: 'Own books by review state (default 1: submitted), for reviewers',
    tags: adminTags,
    query: OwnReviewQuery,
    response: z.array(OwnBook),
  }),
  approve: contract({
    method: 'POST',
    path: '/api/admin/own-books/:id/approve',
    summary: 'Approve: public in the catalogue and searchable, with the call number and class given',
    tags: adminTags,
    params: IdParams,
    body: ApproveOwnBookRequest,
    response: OkBody,
  }),
  refuse: contract({
    method: 'POST',
    path: '/api/admin/own-books/:id/refuse',
    summary: 'Refuse with a reason the owner sees',
    tags: adminTags,
    params: IdParams,
    body: RefuseRequest,
    response: OkBody,
  }),
  withdraw: contract({
    method: 'POST',
    path: '/api/admin/own-books/:id/withdraw',
    summary: 'Withdraw a public own book (out of the catalogue), with a reason',
    tags: adminTags,
    params: IdParams,
    body: RefuseRequest,
    response: OkBody,
  }),
};
