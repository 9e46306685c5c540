import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ownBooksApi,
  ownReviewApi,
  ownVolumesApi,
  type OkBody,
  type OwnBook,
  type OwnBookRequest,
  type OwnStatus,
  type OwnVolumeRequest,
} from '@guji/shared';
import { call, hrefOf } from '../../api/client.ts';
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
    queryFn: () => call(ownBooksApi.list, { query: { pageNum } }),
    placeholderData: keepPreviousData,
  });
}

export function useOwnBook(id: number) {
  return useQuery({ queryKey: ownKeys.book(id), queryFn: () => call(ownBooksApi.get, { params: { id } }) });
}

export function useOwnVolumes(id: number) {
  return useQuery({
    queryKey: ownKeys.volumes(id),
    queryFn: () => call(ownVolumesApi.list, { params: { id } }),
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
  id === null
    ? call(ownBooksApi.create, { body: book })
    : call(ownBooksApi.update, { params: { id }, body: book });

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
    ? call(ownVolumesApi.create, { params: { id: bookId }, body: volume })
    : call(ownVolumesApi.update, { params: { id }, body: volume });

/** Uploads a volume's zip, reporting the upload's progress. */
export const uploadZip = (volumeId: number, file: File, onProgress: (percent: number) => void) =>
  uploadWithProgress(
    ownVolumesApi.uploadZip,
    hrefOf(ownVolumesApi.uploadZip, { id: volumeId }),
    file,
    onProgress,
  );

export function useReviewBooks(status: OwnStatus) {
  return useQuery({
    queryKey: ownKeys.review(status),
    queryFn: () => call(ownReviewApi.queue, { query: { status } }),
  });
}

/** A reviewer's decision on a submitted (or, to withdraw it, a public) book; refusing takes a reason. */
export type ReviewDecision =
  | { id: number; action: 'approve'; record: { callNumber: string | null; classCode: string | null } }
  | { id: number; action: 'refuse' | 'withdraw'; reason: string };

export function useReviewBook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: ReviewDecision) =>
      decision.action === 'approve'
        ? call(ownReviewApi.approve, { params: { id: decision.id }, body: decision.record })
        : call(ownReviewApi[decision.action], {
            params: { id: decision.id },
            body: { reason: decision.reason },
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['own-review'] }),
  });
}

/** Where the volume screens lead back to: the console's catalogue for the library's books. */
export const ownHome = (book: OwnBook | undefined) =>
  book?.isLibrary
    ? { title: '编目管理', to: '/Admin?tab=catalogue' }
    : { title: '整本古籍', to: '/OCRAside/HholeBook' };
