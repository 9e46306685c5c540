import type { Paged } from '@guji/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OkBody, OwnBook, OwnBookRequest, OwnVolumeRequest, Volume } from '@guji/shared';
import { api } from '../../api/client.ts';
import { uploadWithProgress } from '../../api/upload.ts';

export const ownKeys = {
  all: ['own'] as const,
  books: (pageNum: number) => ['own', 'books', pageNum] as const,
  book: (id: number) => ['own', 'book', id] as const,
  volumes: (id: number) => ['own', 'volumes', id] as const,
  review: (status: string) => ['own-review', status] as const,
};

export function useOwnBooks(pageNum: number) {
  return useQuery({
    queryKey: ownKeys.books(pageNum),
    queryFn: () => api.get<Paged<OwnBook>>(`/api/own/books?pageNum=${pageNum}`),
    placeholderData: keepPreviousData,
  });
}

export function useOwnBook(id: number) {
  return useQuery({ queryKey: ownKeys.book(id), queryFn: () => api.get<OwnBook>(`/api/own/books/${id}`) });
}

export function useOwnVolumes(id: number) {
  return useQuery({
    queryKey: ownKeys.volumes(id),
    queryFn: () => api.get<Volume[]>(`/api/own/books/${id}/volumes`),
  });
}

/** A change to one's own books; afterwards they are read again. */
export function useOwnMutation<V, R = OkBody>(run: (value: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ownKeys.all }),
  });
}

export const saveBook = ({ id, book }: { id: number | null; book: OwnBookRequest }) =>
  id === null ? api.post<OwnBook>('/api/own/books', book) : api.put<OwnBook>(`/api/own/books/${id}`, book);

export const saveVolume = ({
  bookId,
  id,
  volume,
}: {
  bookId: number;
  id: number | null;
  volume: OwnVolumeRequest;
}) =>
  id === null
    ? api.post<OkBody>(`/api/own/books/${bookId}/volumes`, volume)
    : api.put<OkBody>(`/api/own/volumes/${id}`, volume);

/** Uploads a volume's zip, reporting the upload's progress. */
export const uploadZip = (volumeId: number, file: File, onProgress: (percent: number) => void) =>
  uploadWithProgress<{ added: number; message: string }>(
    `/api/own/volumes/${volumeId}/zip`,
    file,
    onProgress,
  );

export function useReviewBooks(status: string) {
  return useQuery({
    queryKey: ownKeys.review(status),
    queryFn: () => api.get<OwnBook[]>(`/api/admin/own-books?status=${status}`),
  });
}

export function useReviewBook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      action,
      reason,
    }: {
      id: number;
      action: 'approve' | 'refuse' | 'withdraw';
      reason?: string;
    }) => api.post<OkBody>(`/api/admin/own-books/${id}/${action}`, action === 'approve' ? {} : { reason }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['own-review'] }),
  });
}

/** Where the volume screens lead back to: the console's catalogue for the library's books. */
export const ownHome = (book: OwnBook | undefined) =>
  book?.isLibrary
    ? { title: '编目管理', to: '/Admin?tab=catalogue' }
    : { title: '整本古籍', to: '/OCRAside/HholeBook' };
