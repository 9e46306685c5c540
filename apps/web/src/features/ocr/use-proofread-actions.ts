import { useEffect } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OcrJson, SavedOcr } from '@guji/shared';
import { toast } from '../../components/toast.ts';
import { pageOcrKey } from '../reader/queries.ts';
import type { ImportFormat } from './components/ocr-versions-panel.tsx';
import { importOcr, ocrKeys, recognise, restoreOcr, saveOcr } from './queries.ts';

/** Unsaved corrections are not lost by closing or reloading the page without a warning. */
export function useUnsavedWarning(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}

/**
 * What the proofreader does to a page on the server: save the draft, restore an earlier version, run
 * the OCR again, import a file; a new version is shown by the reader and listed among the versions.
 */
export function useProofreadActions(imageId: number, draft: OcrJson, importFormat: ImportFormat) {
  const queryClient = useQueryClient();
  const refresh = async (saved: SavedOcr) => {
    queryClient.setQueryData(pageOcrKey(imageId), { imageId, ocr: saved.ocr });
    await queryClient.invalidateQueries({ queryKey: ocrKeys.versions(imageId) });
  };
  const save = useMutation({
    mutationFn: () => saveOcr(imageId, draft),
    onSuccess: async (saved) => {
      toast.success(`已保存为第 ${saved.version} 版`);
      await refresh(saved);
    },
  });
  const restore = useMutation({
    mutationFn: (version: number) => restoreOcr(imageId, version),
    onSuccess: async (saved) => {
      toast.success(`已恢复，保存为第 ${saved.version} 版`);
      await refresh(saved);
    },
  });
  const rerun = useMutation({
    mutationFn: () => recognise('page', imageId),
    onSuccess: () => toast.success('已加入识别队列，完成后将保存为新版本'),
  });
  const importText = useMutation({
    mutationFn: (content: string) => importOcr(imageId, importFormat, content),
    onSuccess: async (saved) => {
      toast.success(`已导入，保存为第 ${saved.version} 版`);
      await refresh(saved);
    },
  });
  return { save, restore, rerun, importText };
}
