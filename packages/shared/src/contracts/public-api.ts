import { OkBody } from '../api/common.ts';
import { ApiTokenIdParams, ApiTokenList, CreateApiTokenRequest, CreatedApiToken } from '../api/api-tokens.ts';
import {
  V1BookDetail,
  V1BookList,
  V1BookParams,
  V1BooksQuery,
  V1ClassificationTree,
  V1PageList,
  V1PageParams,
  V1PageText,
  V1SearchQuery,
  V1SearchResult,
  V1VolumeParams,
  V1Whoami,
} from '../api/public-api.ts';
import { contract } from '../contract.ts';

/** The OpenAPI group of the public read API; /api/docs#/v1 opens it. */
export const PUBLIC_API_TAG = 'v1';
const tags = [PUBLIC_API_TAG];
/** The OpenAPI viewer (Swagger UI) of the whole API; `#/v1` opens the public API's group. */
export const OPENAPI_DOCS_PATH = '/api/docs';
/** The site's page that explains the public API to researchers (the web app's route). */
export const PUBLIC_API_PAGE = '/PublicAPI';

/**
 * The public read API for researchers, version 1 (docs/public-api.md): read-only JSON, signed by
 * `Authorization: Bearer <token>` (a personal API token) or anonymous with a lower rate limit; session
 * cookies do not count here. The access rule is the site's: a token acts as its user.
 */
export const publicApi = {
  whoami: contract({
    method: 'GET',
    path: '/api/v1/whoami',
    summary: 'Who the API takes the caller for (the token’s user, or anonymous) and the rate limit',
    tags,
    response: V1Whoami,
  }),
  classifications: contract({
    method: 'GET',
    path: '/api/v1/classifications',
    summary: 'The classification tree (codes usable as `class` in book search and full-text search)',
    tags,
    response: V1ClassificationTree,
  }),
  books: contract({
    method: 'GET',
    path: '/api/v1/books',
    summary: 'Catalogue search by title words and classification, paged (Link: rel="next")',
    tags,
    query: V1BooksQuery,
    response: V1BookList,
  }),
  book: contract({
    method: 'GET',
    path: '/api/v1/books/:bookId',
    summary: 'A book with its volumes, each with its table of contents, and the caller’s access',
    tags,
    params: V1BookParams,
    response: V1BookDetail,
  }),
  pages: contract({
    method: 'GET',
    path: '/api/v1/books/:bookId/volumes/:volumeId/pages',
    summary:
      'The pages of a volume (ids, sizes, IIIF images): public books to anyone, others by the access rule',
    tags,
    params: V1VolumeParams,
    response: V1PageList,
  }),
  pageText: contract({
    method: 'GET',
    path: '/api/v1/books/:bookId/pages/:pageId/text',
    summary:
      'The current OCR text of a page with every character’s box (needs a token whose user may read the book)',
    tags,
    params: V1PageParams,
    response: V1PageText,
  }),
  search: contract({
    method: 'GET',
    path: '/api/v1/search',
    summary: 'Full-text search grouped by book, with exact counts and hits (a token, from the reading room)',
    tags,
    query: V1SearchQuery,
    response: V1SearchResult,
  }),
};

/** 我的信息: the signed-in user's personal API tokens (session cookie; a token cannot manage tokens). */
export const apiTokensApi = {
  list: contract({
    method: 'GET',
    path: '/api/me/api-tokens',
    summary: 'My API tokens (name, prefix, created, last used) and the limits',
    tags: ['api-tokens'],
    response: ApiTokenList,
  }),
  create: contract({
    method: 'POST',
    path: '/api/me/api-tokens',
    summary: 'Create an API token; its secret is in this answer only',
    tags: ['api-tokens'],
    body: CreateApiTokenRequest,
    response: CreatedApiToken,
  }),
  revoke: contract({
    method: 'DELETE',
    path: '/api/me/api-tokens/:tokenId',
    summary: 'Revoke one of my API tokens; it stops working at once',
    tags: ['api-tokens'],
    params: ApiTokenIdParams,
    response: OkBody,
  }),
};
