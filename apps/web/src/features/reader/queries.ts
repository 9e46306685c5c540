import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReaderData } from '@guji/shared';
import { api } from '../../api/client.ts';

export const readerKey = (catalogId: number, fascicleId: number | null) =>
  ['reader', catalogId, fascicleId] as const;

/**
 * Everything the reader shows for one volume (GET /api/reader), in one call so the first page needs
 * only this and the page's info.json. Refusals are the caller's to word and act on (DESIGN.md §7), so
 * the call is quiet and a 401 is not treated as an ended session. Page turns change only imageId and
 * reuse the cached volume.
 */
export function useReaderData(catalogId: number | null, fascicleId: number | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: readerKey(catalogId ?? 0, fascicleId),
    queryFn: async ({ signal }) => {
      const params = new URLSearchParams({ catalogId: String(catalogId) });
      if (fascicleId != null) params.set('fascicleId', String(fascicleId));
      const data = await api.get<ReaderData>(`/api/reader?${params.toString()}`, {
        quiet: true,
        ignoreUnauthorized: true,
        signal,
      });
      // Opened without a volume, the server chose one: page turns name it, so cache it under its id too.
      if (fascicleId == null) {
        queryClient.setQueryData(readerKey(data.book.catalogId, data.volume.fascicleId), data);
      }
      return data;
    },
    enabled: catalogId != null,
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}
