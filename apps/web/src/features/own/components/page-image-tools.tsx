import { useState, type ReactNode } from 'react';
import { Button, Input, Modal, Popconfirm, Tag } from 'antd';
import { Link } from 'react-router';
import { OCR_STATUS_LABELS } from '@guji/shared';
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

/**
 * One image in the owner's grid (a volume's pages, the single images): its thumbnail (a link where
 * `to` is given), its name, its OCR state and the actions it offers.
 */
export function ImageCard({
  page,
  name,
  alt,
  to,
  children,
}: {
  page: OwnPage;
  name: ReactNode;
  alt: string;
  to?: string;
  children: ReactNode;
}) {
  const thumbnail = <img src={page.thumbnailUrl} alt={alt} width={160} height={160} loading="lazy" />;
  return (
    <li className="page-card">
      {to ? <Link to={to}>{thumbnail}</Link> : thumbnail}
      <div className="page-card-name">{name}</div>
      <Tag color={OCR_COLOURS[page.ocrStatus]}>{OCR_STATUS_LABELS[page.ocrStatus]}</Tag>
      <div className="page-card-actions">{children}</div>
    </li>
  );
}

/** 删除 on an image card, asked once more (`title`) before it deletes. */
export function DeleteImageButton({ title, onConfirm }: { title: string; onConfirm: () => void }) {
  return (
    <Popconfirm title={title} okText="删除" cancelText="取消" onConfirm={onConfirm}>
      <Button size="small" type="link" danger>
        删除
      </Button>
    </Popconfirm>
  );
}

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
