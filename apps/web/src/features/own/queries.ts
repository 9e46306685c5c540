import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  catalogApi,
  ownBooksApi,
  ownPagesApi,
  ownReviewApi,
  ownSinglesApi,
  ownVolumesApi,
  type DirectoryInput,
  type OkBody,
  type OwnPage,
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
  pages: (volumeId: number) => ['own', 'pages', volumeId] as const,
  singles: ['own', 'singles'] as const,
  directory: (volumeId: number) => ['directory-edit', volumeId] as const,
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

/** Polls a list of pages every few seconds while any of them is being recognised. */
type PagesPoll = (query: { state: { data?: OwnPage[] | undefined } }) => number | false;

/** A volume's pages as its owner manages them. */
export function useOwnPages(volumeId: number, poll?: PagesPoll) {
  return useQuery({
    queryKey: ownKeys.pages(volumeId),
    queryFn: () => call(ownPagesApi.list, { params: { id: volumeId } }),
    refetchInterval: poll,
  });
}

/** The owner's single images (not in a book). */
export function useOwnSingles(poll?: PagesPoll) {
  return useQuery({
    queryKey: ownKeys.singles,
    queryFn: () => call(ownSinglesApi.list, {}),
    refetchInterval: poll,
  });
}

/** A volume's directory as the editor opens it (read fresh each time). */
export function useDirectoryForEdit(volumeId: number) {
  return useQuery({
    queryKey: ownKeys.directory(volumeId),
    queryFn: () => call(catalogApi.directory, { params: { fascicleId: volumeId } }),
    gcTime: 0,
  });
}

export const saveDirectory = (volumeId: number, entries: DirectoryInput[]) =>
  call(ownVolumesApi.saveDirectory, { params: { id: volumeId }, body: { entries } }, { quiet: true });
export const renamePage = (imageId: number, imageName: string) =>
  call(ownPagesApi.rename, { params: { id: imageId }, body: { imageName } });
export const removePage = (imageId: number) => call(ownPagesApi.remove, { params: { id: imageId } });
export const reorderPages = (volumeId: number, imageIds: number[]) =>
  call(ownPagesApi.reorder, { params: { id: volumeId }, body: { imageIds } });
export const uploadPages = (volumeId: number, form: FormData) =>
  call(ownPagesApi.upload, { params: { id: volumeId }, body: form });
export const removeVolume = (id: number) => call(ownVolumesApi.remove, { params: { id } });
export const removeOwnBook = (id: number) => call(ownBooksApi.remove, { params: { id } });
export const submitOwnBooks = (ids: number[]) => call(ownBooksApi.submit, { body: { ids } });
export const unpublishOwnBook = (id: number) => call(ownBooksApi.unpublish, { params: { id } });
