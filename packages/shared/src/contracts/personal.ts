import { CollectionItem, CollectState } from '../api/personal.ts';
import { IdParams, PageNum, paged } from '../api/common.ts';
import { contract } from '../contract.ts';

const tags = ['personal'];

/** Collections (收藏): whether a book is collected, collecting, my collection. */
export const collectionsApi = {
  state: contract({
    method: 'GET',
    path: '/api/books/:id/collect',
    summary: 'Whether I collected a book',
    tags,
    params: IdParams,
    response: CollectState,
  }),
  collect: contract({
    method: 'PUT',
    path: '/api/books/:id/collect',
    summary: 'Collect a book (spec saveCollect)',
    tags,
    params: IdParams,
    response: CollectState,
  }),
  uncollect: contract({
    method: 'DELETE',
    path: '/api/books/:id/collect',
    summary: 'Cancel a collection (spec cancelCollect)',
    tags,
    params: IdParams,
    response: CollectState,
  }),
  mine: contract({
    method: 'GET',
    path: '/api/me/collections',
    summary: 'My collections, 10 a page (spec queryCollectByPage)',
    tags,
    query: PageNum,
    response: paged(CollectionItem),
  }),
};
