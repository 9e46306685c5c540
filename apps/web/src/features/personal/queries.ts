import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { collectionsApi } from '@guji/shared';
import type {
  Paged,
  BookComment,
  CallNumberMatch,
  CollectionItem,
  DownloadItem,
  Footprint,
  MyComment,
  MyNote,
  Note,
  NoteRect,
  OkBody,
  Privilege,
  Reservation,
  ReservationDuration,
  ReservationRequest,
} from '@guji/shared';
import { api, call } from '../../api/client.ts';

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
export function usePersonalList<T>(name: string, pageNum: number) {
  return useQuery({
    queryKey: personalKeys.list(name, pageNum),
    queryFn: () => api.get<Paged<T>>(`/api/me/${name}?pageNum=${pageNum}`),
    placeholderData: keepPreviousData,
  });
}

export const useCollections = (pageNum: number) => usePersonalList<CollectionItem>('collections', pageNum);
export const useDownloads = (pageNum: number) => usePersonalList<DownloadItem>('downloads', pageNum);
export const useMyComments = (pageNum: number) => usePersonalList<MyComment>('comments', pageNum);
export const useMyNotes = (pageNum: number) => usePersonalList<MyNote>('notes', pageNum);
export const useFootprints = (pageNum: number) => usePersonalList<Footprint>('footprints', pageNum);
export const usePrivileges = (pageNum: number) => usePersonalList<Privilege>('privileges', pageNum);
export const useMyReservations = (pageNum: number) => usePersonalList<Reservation>('reservations', pageNum);

/** A change to the user's own records: afterwards every personal list is read again. */
export function usePersonalMutation<V, R = OkBody>(run: (value: V) => Promise<R>) {
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
    queryFn: () => api.get<Paged<BookComment>>(`/api/books/${catalogId}/comments?pageNum=${pageNum}`),
    placeholderData: keepPreviousData,
  });
}

export function usePostComment(catalogId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => api.post<OkBody>(`/api/books/${catalogId}/comments`, { text }),
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
      mutationFn: (id: number) => api.del<OkBody>(`/api/me/comments/${id}`),
      onSuccess: after,
    }),
    hide: useMutation({
      mutationFn: ({ id, hidden }: { id: number; hidden: boolean }) =>
        api.put<OkBody>(`/api/admin/comments/${id}/hidden`, { hidden }),
      onSuccess: after,
    }),
  };
}

export function usePageNotes(imageId: number | null, enabled: boolean) {
  return useQuery({
    queryKey: personalKeys.notes(imageId ?? 0),
    queryFn: () => api.get<Note[]>(`/api/pages/${imageId}/notes`),
    enabled: enabled && imageId !== null,
  });
}

export function useNoteMutations() {
  const queryClient = useQueryClient();
  const after = () => queryClient.invalidateQueries({ queryKey: personalKeys.all });
  return {
    create: useMutation({
      mutationFn: (note: NoteRect & { imageId: number; text: string }) => api.post<Note>('/api/notes', note),
      onSuccess: after,
    }),
    update: useMutation({
      mutationFn: ({ id, text }: { id: number; text: string }) =>
        api.patch<Note>(`/api/notes/${id}`, { text }),
      onSuccess: after,
    }),
    remove: useMutation({
      mutationFn: (id: number) => api.del<OkBody>(`/api/notes/${id}`),
      onSuccess: after,
    }),
  };
}

export function useDurations() {
  return useQuery({
    queryKey: personalKeys.durations,
    queryFn: () => api.get<ReservationDuration[]>('/api/reservations/durations'),
    staleTime: 10 * 60_000,
  });
}

export function useCallNumberLookup(callNumber: string) {
  return useQuery({
    queryKey: personalKeys.lookup(callNumber),
    queryFn: () =>
      api.get<CallNumberMatch[]>(`/api/reservations/lookup?callNumber=${encodeURIComponent(callNumber)}`, {
        quiet: true,
      }),
    enabled: callNumber.trim() !== '',
    staleTime: 60_000,
  });
}

export function useApply() {
  return usePersonalMutation((request: ReservationRequest) =>
    api.post<{ reservation: Reservation; message: string }>('/api/reservations', request),
  );
}

export function useReviewQueue(status: string, pageNum: number) {
  return useQuery({
    queryKey: personalKeys.queue(status, pageNum),
    queryFn: () => api.get<Paged<Reservation>>(`/api/admin/reservations?status=${status}&pageNum=${pageNum}`),
    placeholderData: keepPreviousData,
  });
}

export function useReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      action,
      reason,
    }: {
      id: number;
      action: 'take' | 'approve' | 'refuse';
      reason?: string;
    }) =>
      api.post<Reservation>(`/api/admin/reservations/${id}/${action}`, action === 'refuse' ? { reason } : {}),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['reservation-queue'] });
      void queryClient.invalidateQueries({ queryKey: personalKeys.all });
    },
  });
}
