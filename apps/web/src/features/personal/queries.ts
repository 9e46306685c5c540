import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  collectionsApi,
  commentsApi,
  downloadsApi,
  footprintsApi,
  notesApi,
  privilegesApi,
  reservationsApi,
  type NoteRequest,
  type Paged,
  type ReservationRequest,
} from '@guji/shared';
import { call } from '../../api/client.ts';

export const personalKeys = {
  all: ['personal'] as const,
  list: (name: string, pageNum: number) => ['personal', name, pageNum] as const,
  collect: (catalogId: number) => ['personal', 'collect', catalogId] as const,
  comments: (catalogId: number, pageNum: number) => ['book-comments', catalogId, pageNum] as const,
  notes: (imageId: number) => ['personal', 'notes', 'page', imageId] as const,
  durations: ['reservation-durations'] as const,
  lookup: (callNumber: string) => ['reservation-lookup', callNumber] as const,
  queue: (status: string, pageNum: number) => ['reservation-queue', status, pageNum] as const,
};

/** One page of a personal list (10 a page, spec §9), e.g. `collections`, `downloads`. */
export function usePersonalList<T>(name: string, pageNum: number, read: () => Promise<Paged<T>>) {
  return useQuery({
    queryKey: personalKeys.list(name, pageNum),
    queryFn: read,
    placeholderData: keepPreviousData,
  });
}

export const useCollections = (pageNum: number) =>
  usePersonalList('collections', pageNum, () => call(collectionsApi.mine, { query: { pageNum } }));
export const useDownloads = (pageNum: number) =>
  usePersonalList('downloads', pageNum, () => call(downloadsApi.mine, { query: { pageNum } }));
export const useMyComments = (pageNum: number) =>
  usePersonalList('comments', pageNum, () => call(commentsApi.mine, { query: { pageNum } }));
export const useMyNotes = (pageNum: number) =>
  usePersonalList('notes', pageNum, () => call(notesApi.mine, { query: { pageNum } }));
export const useFootprints = (pageNum: number) =>
  usePersonalList('footprints', pageNum, () => call(footprintsApi.mine, { query: { pageNum } }));
export const usePrivileges = (pageNum: number) =>
  usePersonalList('privileges', pageNum, () => call(privilegesApi.mine, { query: { pageNum } }));
export const useMyReservations = (pageNum: number) =>
  usePersonalList('reservations', pageNum, () => call(reservationsApi.mine, { query: { pageNum } }));

export const withdrawReservation = (id: number) => call(reservationsApi.withdraw, { params: { id } });
export const removeDownload = (id: number) => call(downloadsApi.remove, { params: { id } });
/** Removes one book's footprint, or with null all of them. */
export const removeFootprint = (catalogId: number | null) =>
  catalogId === null
    ? call(footprintsApi.clear, {})
    : call(footprintsApi.remove, { params: { id: catalogId } });
/** The page the reader shows, for the footprint's last page; a failure is not the reader's concern. */
export const reportFootprint = (imageId: number) =>
  call(footprintsApi.report, { body: { imageId } }, { quiet: true }).catch(() => undefined);

/** A change to the user's own records: afterwards every personal list is read again. */
export function usePersonalMutation<V, R>(run: (value: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personalKeys.all }),
  });
}

export function useCollectState(catalogId: number, enabled: boolean) {
  return useQuery({
    queryKey: personalKeys.collect(catalogId),
    queryFn: () => call(collectionsApi.state, { params: { id: catalogId } }),
    enabled,
  });
}

export function useToggleCollect(catalogId: number) {
  return usePersonalMutation((collect: boolean) =>
    collect
      ? call(collectionsApi.collect, { params: { id: catalogId } })
      : call(collectionsApi.uncollect, { params: { id: catalogId } }),
  );
}

export function useBookComments(catalogId: number, pageNum: number) {
  return useQuery({
    queryKey: personalKeys.comments(catalogId, pageNum),
    queryFn: () => call(commentsApi.list, { params: { id: catalogId }, query: { pageNum } }),
    placeholderData: keepPreviousData,
  });
}

export function usePostComment(catalogId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => call(commentsApi.create, { params: { id: catalogId }, body: { text } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['book-comments', catalogId] });
      void queryClient.invalidateQueries({ queryKey: personalKeys.all });
    },
  });
}

export function useCommentMutations() {
  const queryClient = useQueryClient();
  const after = () => {
    void queryClient.invalidateQueries({ queryKey: ['book-comments'] });
    void queryClient.invalidateQueries({ queryKey: personalKeys.all });
  };
  return {
    remove: useMutation({
      mutationFn: (id: number) => call(commentsApi.remove, { params: { id } }),
      onSuccess: after,
    }),
    hide: useMutation({
      mutationFn: ({ id, hidden }: { id: number; hidden: boolean }) =>
        call(commentsApi.setHidden, { params: { id }, body: { hidden } }),
      onSuccess: after,
    }),
  };
}

export function usePageNotes(imageId: number | null, enabled: boolean) {
  return useQuery({
    queryKey: personalKeys.notes(imageId ?? 0),
    queryFn: () => call(notesApi.onPage, { params: { id: imageId ?? 0 } }),
    enabled: enabled && imageId !== null,
  });
}

export function useNoteMutations() {
  const queryClient = useQueryClient();
  const after = () => queryClient.invalidateQueries({ queryKey: personalKeys.all });
  return {
    create: useMutation({
      mutationFn: (note: NoteRequest) => call(notesApi.create, { body: note }),
      onSuccess: after,
    }),
    update: useMutation({
      mutationFn: ({ id, text }: { id: number; text: string }) =>
        call(notesApi.update, { params: { id }, body: { text } }),
      onSuccess: after,
    }),
    remove: useMutation({
      mutationFn: (id: number) => call(notesApi.remove, { params: { id } }),
      onSuccess: after,
    }),
  };
}

export function useDurations() {
  return useQuery({
    queryKey: personalKeys.durations,
    queryFn: () => call(reservationsApi.durations, {}),
    staleTime: 10 * 60_000,
  });
}

export function useCallNumberLookup(callNumber: string) {
  return useQuery({
    queryKey: personalKeys.lookup(callNumber),
    queryFn: () => call(reservationsApi.lookup, { query: { callNumber } }, { quiet: true }),
    enabled: callNumber.trim() !== '',
    staleTime: 60_000,
  });
}

export function useApply() {
  return usePersonalMutation((request: ReservationRequest) => call(reservationsApi.apply, { body: request }));
}

export function useReviewQueue(status: string, pageNum: number) {
  return useQuery({
    queryKey: personalKeys.queue(status, pageNum),
    queryFn: () => call(reservationsApi.queue, { query: { status, pageNum } }),
    placeholderData: keepPreviousData,
  });
}

export function useReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      decision: { id: number; action: 'take' | 'approve' } | { id: number; action: 'refuse'; reason: string },
    ) =>
      decision.action === 'refuse'
        ? call(reservationsApi.refuse, { params: { id: decision.id }, body: { reason: decision.reason } })
        : call(reservationsApi[decision.action], { params: { id: decision.id } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['reservation-queue'] });
      void queryClient.invalidateQueries({ queryKey: personalKeys.all });
    },
  });
}
