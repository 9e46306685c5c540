import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import {
  catalogApi,
  PAGE_SIZES,
  searchApi,
  type FullTextSort,
  type QueryOf,
  type UpdateBookRequest,
} from '@guji/shared';
import { call } from '../../api/client.ts';
import { bookSearchQuery, type SearchState } from './search-params.ts';
import type { FormRow } from './advanced-params.ts';

export const catalogKeys = {
  classifications: ['classifications'] as const,
  books: ['books'] as const,
  hot: ['books', 'hot'] as const,
  search: (state: SearchState) => ['books', 'search', state] as const,
  book: (catalogId: number) => ['book', catalogId] as const,
  volumes: (catalogId: number) => ['book', catalogId, 'volumes'] as const,
  directory: (fascicleId: number) => ['directory', fascicleId] as const,
  /** Every volume's directory (the reader's and the book page's). */
  directories: ['directory'] as const,
};

/** The classification tree of the search page's filter (GET /api/classifications). */
export function useClassifications() {
  return useQuery({
    queryKey: catalogKeys.classifications,
    queryFn: () => call(catalogApi.classifications, {}),
    staleTime: 10 * 60_000,
  });
}

/** The home page's most-read books, 8 per page; each 'view more' adds the next page (spec §9). */
export function useHotBooks() {
  return useInfiniteQuery({
    queryKey: catalogKeys.hot,
    queryFn: ({ pageParam }) =>
      call(catalogApi.hot, { query: { pageNum: pageParam, pageSize: PAGE_SIZES.hot } }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pageNum < last.pages ? last.pageNum + 1 : undefined),
    staleTime: 60_000,
  });
}

/** One page of a title search, 6 per page; the previous page stays on screen while the next loads. */
export function useBookSearch(state: SearchState) {
  return useQuery({
    queryKey: catalogKeys.search(state),
    queryFn: () => call(catalogApi.search, { query: bookSearchQuery(state, PAGE_SIZES.search) }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** A book's detail with the current user's access to it; a hidden or unknown book is a 404 NO_DATA. */
export function useBook(catalogId: number | null) {
  return useQuery({
    queryKey: catalogKeys.book(catalogId ?? 0),
    queryFn: () => call(catalogApi.get, { params: { catalogId: catalogId ?? 0 } }, { quiet: true }),
    enabled: catalogId != null,
  });
}

export function useVolumes(catalogId: number | null, enabled = true) {
  return useQuery({
    queryKey: catalogKeys.volumes(catalogId ?? 0),
    queryFn: () => call(catalogApi.volumes, { params: { catalogId: catalogId ?? 0 } }),
    enabled: enabled && catalogId != null,
  });
}

export function useDirectory(fascicleId: number | null) {
  return useQuery({
    queryKey: catalogKeys.directory(fascicleId ?? 0),
    queryFn: () => call(catalogApi.directory, { params: { fascicleId: fascicleId ?? 0 } }),
    enabled: fascicleId != null,
    staleTime: 5 * 60_000,
  });
}

/** Saves a staff member's changes to a book (PATCH /api/books/{catalogId}). */
export function useUpdateBook(catalogId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateBookRequest) => call(catalogApi.update, { params: { catalogId }, body }),
    onSuccess: (book) => {
      queryClient.setQueryData(catalogKeys.book(catalogId), book);
      // Titles and covers in lists may have changed, and a hidden book leaves them.
      void queryClient.invalidateQueries({ queryKey: catalogKeys.books });
      void queryClient.invalidateQueries({ queryKey: ['reader', catalogId] });
    },
  });
}

/** Search within one book (GET /api/books/{id}/text-search; reading room only), 8 hits a page. */
export function useInBookSearch(catalogId: number, text: string, page: number) {
  return useQuery({
    queryKey: ['books', catalogId, 'text-search', text, page],
    queryFn: () =>
      call(searchApi.inBook, {
        params: { catalogId },
        query: { text, pageNum: page, pageSize: PAGE_SIZES.advanced },
      }),
    enabled: text !== '',
    placeholderData: keepPreviousData,
  });
}

/** A full-text search as the reading room's form states it. */
export interface FullTextSearch {
  text: string;
  exact: boolean;
  sort: FullTextSort;
}

/** One book's pages found by a full-text search, 8 a page (asked for once the book is opened). */
export function useBookGroupPages(catalogId: number, search: FullTextSearch, page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['search', 'full-text', 'book', catalogId, search, page],
    queryFn: () =>
      call(searchApi.fullText, {
        query: {
          text: search.text,
          exact: search.exact ? '1' : '0',
          sort: search.sort,
          catalogId,
          pageNum: page,
          pageSize: PAGE_SIZES.advanced,
        },
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** The filters and order of a full-text search grouped by book (without its page). */
export type FullTextBooksQuery = Omit<
  QueryOf<typeof searchApi.fullTextBooks>,
  'pageNum' | 'pageSize' | 'hitsPerBook'
>;

/** A full-text search grouped by book: each book's counts and first `hitsPerBook` pages. */
export function useFullTextBooks(
  query: FullTextBooksQuery,
  page: number,
  hitsPerBook: number,
  enabled: boolean,
) {
  return useQuery({
    queryKey: ['search', 'full-text', 'books', query, page],
    queryFn: () =>
      call(searchApi.fullTextBooks, {
        query: { ...query, pageNum: page, pageSize: PAGE_SIZES.advanced, hitsPerBook },
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** The advanced book search: rows joined by AND and OR, fuzzy or exact, 8 books a page. */
export function useAdvancedSearch(rows: FormRow[], match: 0 | 1, page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['books', 'advanced', rows, match, page],
    queryFn: () =>
      call(catalogApi.advancedSearch, {
        body: { rows, matchType: match, pageNum: page, pageSize: PAGE_SIZES.advanced },
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
}
