import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { catalogApi, PAGE_SIZES, type UpdateBookRequest } from '@guji/shared';
import { call } from '../../api/client.ts';
import { bookSearchQuery, type SearchState } from './search-params.ts';

export const catalogKeys = {
  classifications: ['classifications'] as const,
  books: ['books'] as const,
  hot: ['books', 'hot'] as const,
  search: (state: SearchState) => ['books', 'search', state] as const,
  book: (catalogId: number) => ['book', catalogId] as const,
  volumes: (catalogId: number) => ['book', catalogId, 'volumes'] as const,
  directory: (fascicleId: number) => ['directory', fascicleId] as const,
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
