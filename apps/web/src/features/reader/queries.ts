import { keepPreviousData, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { catalogApi, searchApi } from '@guji/shared';
import { call } from '../../api/client.ts';

export const readerKey = (catalogId: number, fascicleId: number | null) =>
  ['reader', catalogId, fascicleId] as const;

/** The reader's volume call, shared by the hook and the early start of load-reader.ts. */
export function readerQuery(queryClient: QueryClient, catalogId: number, fascicleId: number | null) {
  return {
    queryKey: readerKey(catalogId, fascicleId),
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      const data = await call(
        catalogApi.reader,
        { query: { catalogId, fascicleId } },
        { quiet: true, ignoreUnauthorized: true, signal },
      );
      // Opened without a volume, the server chose one: page turns name it, so cache it under its id too.
      if (fascicleId == null) {
        queryClient.setQueryData(readerKey(data.book.catalogId, data.volume.fascicleId), data);
      }
      return data;
    },
    staleTime: 5 * 60_000,
  };
}

/**
 * Everything the reader shows for one volume (GET /api/reader), in one call so the first page needs
 * only this and the page's info.json. Refusals are the caller's to word and act on (DESIGN.md §7), so
 * the call is quiet and a 401 is not treated as an ended session. Page turns change only imageId and
 * reuse the cached volume.
 */
export function useReaderData(catalogId: number | null, fascicleId: number | null) {
  const queryClient = useQueryClient();
  return useQuery({
    ...readerQuery(queryClient, catalogId ?? 0, fascicleId),
    enabled: catalogId != null,
    placeholderData: keepPreviousData,
  });
}

/** A page's IIIF image information (info.json), as OpenSeadragon opens it. */
export type ImageInfo = Record<string, unknown>;

/**
 * The info.json of an image service. Fetched here rather than by OpenSeadragon, so that it can start
 * before the viewer exists (with the reader's data, when /Book is opened directly) and the pages next
 * to the current one are known before they are turned to.
 */
export function imageInfoQuery(iiifBase: string) {
  return {
    queryKey: ['iiif-info', iiifBase] as const,
    queryFn: async ({ signal }: { signal: AbortSignal }): Promise<ImageInfo> => {
      const response = await fetch(`${iiifBase}/info.json`, { signal, credentials: 'same-origin' });
      if (!response.ok) throw new Error(`info.json: ${response.status}`);
      return (await response.json()) as ImageInfo;
    },
    staleTime: 10 * 60_000,
    retry: false,
  };
}

export function useImageInfo(iiifBase: string | null) {
  return useQuery({ ...imageInfoQuery(iiifBase ?? ''), enabled: iiifBase != null });
}

/**
 * The boxes of a searched text on a page (reading room only; elsewhere the server refuses and nothing
 * is framed, quietly: the page itself is still shown).
 */
export function usePageMatches(imageId: number | null, text: string | null) {
  return useQuery({
    queryKey: ['page-matches', imageId, text],
    queryFn: ({ signal }) =>
      call(
        searchApi.pageMatches,
        { params: { imageId: imageId ?? 0 }, query: { text: text ?? '' } },
        { quiet: true, ignoreUnauthorized: true, signal },
      ),
    enabled: imageId != null && !!text,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** The key of a page's recognised text (the proofreading page sets it after a save). */
export const pageOcrKey = (imageId: number | null) => ['page-ocr', imageId] as const;

/** A page's recognised text for the text pane (GET /api/pages/{id}/ocr). */
export function usePageOcr(imageId: number | null) {
  return useQuery({
    queryKey: pageOcrKey(imageId),
    queryFn: ({ signal }) =>
      call(catalogApi.pageOcr, { params: { imageId: imageId ?? 0 } }, { quiet: true, signal }),
    enabled: imageId != null,
    staleTime: 60_000,
  });
}
