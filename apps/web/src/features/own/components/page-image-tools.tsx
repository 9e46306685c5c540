import { useState } from 'react';
import { Input, Modal } from 'antd';
import { MSG, type OwnPage } from '@guji/shared';
import { renamePage } from '../queries.ts';
import { toast } from '../../../components/toast.ts';

/** Tag colours of a page's OCR state. */
export const OCR_COLOURS: Record<OwnPage['ocrStatus'], string> = {
  none: 'default',
  queued: 'processing',
  running: 'processing',
  done: 'success',
  failed: 'error',
};

/** Re-reads a page list every 3 s while any of its pages waits for or undergoes recognition. */
export const whileRecognising = (query: { state: { data?: OwnPage[] | undefined } }): number | false =>
  query.state.data?.some((p) => p.ocrStatus === 'queued' || p.ocrStatus === 'running') ? 3000 : false;

/** Renames a page image (own volumes and single images alike); `page` null keeps it closed. */
export function RenameImageModal({
  page,
  onClose,
  onRenamed,
}: {
  page: OwnPage | null;
  onClose: () => void;
  onRenamed: () => void;
}) {
  const [name, setName] = useState(page?.name ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <Modal
      open={page !== null}
      title="重命名图像"
      okText="保存"
      cancelText="取消"
      onCancel={onClose}
      onOk={() => {
        if (!page) return;
        if (!name.trim()) {
          setProblem(MSG.ownImageNameRequired);
          return;
        }
        void renamePage(page.imageId, name.trim()).then(
          () => {
            toast.success(MSG.ownImageRenamed);
            onClose();
            onRenamed();
          },
          () => undefined,
        );
      }}
    >
      <label htmlFor="image-name">图像名称</label>
      <Input
        id="image-name"
        value={name}
        maxLength={100}
        onChange={(e) => {
          setName(e.target.value);
          setProblem(null);
        }}
      />
      {problem && (
        <div className="field-error" role="alert">
          {problem}
        </div>
      )}
    </Modal>
  );
}
