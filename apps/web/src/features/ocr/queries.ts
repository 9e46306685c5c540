import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  correctionsApi,
  ocrApi,
  type CorrectionStatus,
  type OcrJson,
  type ProposeCorrectionRequest,
} from '@guji/shared';
import { call } from '../../api/client.ts';

export const correctionKeys = {
  all: ['corrections'] as const,
  mine: (imageId: number) => ['corrections', 'mine', imageId] as const,
  queue: (status: CorrectionStatus, imageId: number | null, pageNum: number) =>
    ['corrections', 'queue', status, imageId, pageNum] as const,
};

/** The signed-in reader's own corrections of a page (nobody else's are ever shown to them). */
export function useMyCorrections(imageId: number | null, enabled: boolean) {
  return useQuery({
    queryKey: correctionKeys.mine(imageId ?? 0),
    queryFn: () => call(correctionsApi.mine, { params: { imageId: imageId ?? 0 } }, { quiet: true }),
    enabled: enabled && imageId != null,
  });
}

/** Proposes a correction of the page's text (the server's message is shown on failure). */
export function useProposeCorrection(imageId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProposeCorrectionRequest) =>
      call(correctionsApi.propose, { params: { imageId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: correctionKeys.all }),
  });
}

/** The reviewers' queue: by status, of every page or of one; ten a page. */
export function useCorrectionQueue(status: CorrectionStatus, imageId: number | null, pageNum: number) {
  return useQuery({
    queryKey: correctionKeys.queue(status, imageId, pageNum),
    queryFn: () =>
      call(correctionsApi.queue, { query: { status, pageNum, pageSize: 10, imageId: imageId ?? undefined } }),
    placeholderData: keepPreviousData,
  });
}

/**
 * Accepts or refuses a correction. An accepted proposal changed the page's text: the page's OCR and its
 * versions are asked for again (the proofreader and the reader show the new text).
 */
export function useDecideCorrection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: { id: number; accept: true } | { id: number; accept: false; reason: string }) =>
      decision.accept
        ? call(correctionsApi.accept, { params: { id: decision.id } })
        : call(correctionsApi.refuse, { params: { id: decision.id }, body: { reason: decision.reason } }),
    onSuccess: async (done) => {
      await queryClient.invalidateQueries({ queryKey: correctionKeys.all });
      if (done.version != null) {
        await queryClient.invalidateQueries({ queryKey: ['page-ocr', done.imageId] });
        await queryClient.invalidateQueries({ queryKey: ['page-ocr-versions', done.imageId] });
      }
    },
  });
}

export const ocrKeys = {
  versions: (imageId: number | null) => ['page-ocr-versions', imageId] as const,
};

/** A page's saved versions of its text, newest first, with where the page is (GET …/ocr/versions). */
export function useOcrVersions(imageId: number | null) {
  return useQuery({
    queryKey: ocrKeys.versions(imageId),
    queryFn: () => call(ocrApi.versions, { params: { imageId: imageId ?? 0 } }, { quiet: true }),
    enabled: imageId != null,
  });
}

/** Saves the proofread text as the page's next version. */
export const saveOcr = (imageId: number, ocr: OcrJson) =>
  call(ocrApi.save, { params: { imageId }, body: { ocr } });
/** Makes an earlier version the newest again (as a new version). */
export const restoreOcr = (imageId: number, version: number) =>
  call(ocrApi.restore, { params: { imageId, version } });
/** Queues a page (or a whole volume) for the OCR engine; each reading becomes a new version. */
export const recognise = (scope: 'page' | 'volume', id: number) => call(ocrApi.run, { body: { scope, id } });
/** Reads an ALTO or hOCR file as the page's next version. */
export const importOcr = (imageId: number, format: 'alto' | 'hocr', content: string) =>
  call(ocrApi.import, { params: { imageId }, body: { format, content } });
