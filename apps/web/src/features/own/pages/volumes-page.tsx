import { useRef, useState } from 'react';
import { Button, Empty, Form, Input, Modal, Popconfirm, Progress, Spin } from 'antd';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { MSG, type OwnVolumeRequest, type Volume, OWN_STATUS } from '@guji/shared';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { toast } from '../../../components/toast.ts';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { readerPath, positiveId } from '../../../lib/reader-url.ts';
import { DirectoryEditor } from '../components/directory-editor.tsx';
import {
  ownHome,
  ownKeys,
  removeVolume,
  saveVolume,
  uploadZip,
  useOwnBook,
  useOwnMutation,
  useOwnVolumes,
} from '../queries.ts';

/**
 * /FenCe/{catalogId}?gjtitle: an own book's volumes: add, edit, delete, and upload a volume's pages as a
 * .zip of images with a progress bar (the upload, then the server's checking and storing).
 */
export function VolumesPage() {
  const catalogId = positiveId(useParams().catalogId) ?? 0;
  const book = useOwnBook(catalogId);
  const volumes = useOwnVolumes(catalogId);
  const [editing, setEditing] = useState<Volume | 'new' | null>(null);
  const [directoryOf, setDirectoryOf] = useState<Volume | null>(null);
  const remove = useOwnMutation(removeVolume);
  const title = book.data?.title ?? '卷册管理';
  useDocumentTitle(`${title} · 卷册管理`);

  // Under review, or published (an own book), nothing changes until the owner withdraws it.
  const locked =
    book.data?.auditStatus === OWN_STATUS.reviewing ||
    (book.data?.auditStatus === OWN_STATUS.published && !book.data.isLibrary);
  if (book.isError) return <Empty className="page" description={book.error.message || MSG.noData} />;
  return (
    <div className="page own-volumes">
      <Breadcrumbs second={ownHome(book.data)} third={{ title }} />
      <div className="own-head">
        <h1 className="page-title">《{title}》卷册</h1>
        <Button icon={<PlusOutlined aria-hidden />} disabled={locked} onClick={() => setEditing('new')}>
          添加卷册
        </Button>
      </div>
      {locked && (
        <p className="own-note">
          {book.data?.auditStatus === OWN_STATUS.reviewing ? MSG.ownLocked : MSG.ownPublishedLocked}
        </p>
      )}
      {volumes.isPending ? (
        <Spin />
      ) : (volumes.data ?? []).length === 0 ? (
        <Empty description="还没有卷册。先添加卷册，再上传该卷页面图像的 zip 压缩包。" />
      ) : (
        <ul className="own-list" aria-label="卷册列表">
          {volumes.data!.map((volume) => (
            <VolumeRow
              key={volume.fascicleId}
              volume={volume}
              catalogId={catalogId}
              bookTitle={title}
              locked={locked}
              onEdit={() => setEditing(volume)}
              onDirectory={() => setDirectoryOf(volume)}
              onRemove={() =>
                void remove.mutateAsync(volume.fascicleId).then(
                  () => toast.success(MSG.deleteSuccess),
                  () => undefined,
                )
              }
            />
          ))}
        </ul>
      )}
      {directoryOf && <DirectoryEditor volume={directoryOf} onClose={() => setDirectoryOf(null)} />}
      {editing && (
        <VolumeModal
          bookId={catalogId}
          volume={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  );
}

/** One volume of the book: its facts, its zip upload, and links and buttons to its pages, reader and edits. */
function VolumeRow({
  volume,
  catalogId,
  bookTitle,
  locked,
  onEdit,
  onDirectory,
  onRemove,
}: {
  volume: Volume;
  catalogId: number;
  bookTitle: string;
  locked: boolean;
  onEdit: () => void;
  onDirectory: () => void;
  onRemove: () => void;
}) {
  return (
    <li className="own-row">
      <div className="own-info">
        <span className="personal-book-title">{volume.name}</span>
        <div className="personal-book-meta">
          {volume.imageCount} 页{volume.introduction ? ` · ${volume.introduction}` : ''}
        </div>
        <ZipUpload volume={volume} locked={locked} />
      </div>
      <div className="personal-actions">
        <Link
          to={`/FenCe/${catalogId}/${volume.fascicleId}?gjtitle=${encodeURIComponent(bookTitle)}&fctitle=${encodeURIComponent(volume.name)}`}
          className="ant-btn ant-btn-default"
        >
          图像管理
        </Link>
        {volume.imageCount > 0 && (
          <Link
            to={readerPath({ catalogId, fascicleId: volume.fascicleId })}
            className="ant-btn ant-btn-default"
          >
            阅读
          </Link>
        )}
        <Button disabled={locked} onClick={onEdit}>
          编辑
        </Button>
        <Button disabled={locked} onClick={onDirectory}>
          目录
        </Button>
        <Popconfirm
          title={`删除「${volume.name}」及其页面？`}
          okText="删除"
          cancelText="取消"
          onConfirm={onRemove}
        >
          <Button danger disabled={locked}>
            删除
          </Button>
        </Popconfirm>
      </div>
    </li>
  );
}

function ZipUpload({ volume, locked }: { volume: Volume; locked: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const [percent, setPercent] = useState<number | null>(null);
  const [phase, setPhase] = useState<'upload' | 'process'>('upload');
  const [error, setError] = useState<string | null>(null);

  const start = (file: File) => {
    setError(null);
    if (!file.name.toLowerCase().endsWith('.zip')) {
      setError(MSG.ownZipOnly);
      return;
    }
    setPhase('upload');
    setPercent(0);
    uploadZip(volume.fascicleId, file, (p) => {
      setPercent(p);
      if (p >= 100) setPhase('process');
    }).then(
      (result) => {
        setPercent(null);
        toast.success(`${result.message}（${result.added} 页）`);
        void queryClient.invalidateQueries({ queryKey: ownKeys.all });
      },
      (failure: unknown) => {
        setPercent(null);
        setError(failure instanceof Error ? failure.message : '上传失败');
      },
    );
  };

  return (
    <div className="zip-upload">
      <input
        ref={input}
        type="file"
        accept=".zip,application/zip"
        hidden
        aria-label={`上传「${volume.name}」的 zip 压缩包`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) start(file);
        }}
      />
      <Button
        size="small"
        icon={<UploadOutlined aria-hidden />}
        disabled={locked || percent !== null}
        onClick={() => input.current?.click()}
      >
        上传页面（.zip）
      </Button>
      {percent !== null && (
        <div className="zip-progress" role="status">
          <Progress percent={phase === 'upload' ? percent : 100} status="active" size="small" />
          <span>{phase === 'upload' ? '正在上传…' : '正在检查并保存页面…'}</span>
        </div>
      )}
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

function VolumeModal({
  bookId,
  volume,
  onClose,
}: {
  bookId: number;
  volume: Volume | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<OwnVolumeRequest>();
  const save = useOwnMutation(saveVolume);
  return (
    <Modal
      open
      title={volume ? '编辑卷册' : '添加卷册'}
      okText="保存"
      cancelText="取消"
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
    >
      <Form<OwnVolumeRequest>
        form={form}
        layout="vertical"
        initialValues={volume ? { name: volume.name, introduction: volume.introduction ?? '' } : {}}
        onFinish={(values) =>
          void save.mutateAsync({ bookId, id: volume?.fascicleId ?? null, volume: values }).then(
            () => {
              toast.success(volume ? MSG.ownVolumeChanged : MSG.ownVolumeAdded);
              onClose();
            },
            () => undefined,
          )
        }
      >
        <Form.Item
          name="name"
          label="卷册名称"
          rules={[{ required: true, whitespace: true, message: MSG.ownVolumeNameRequired }]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="introduction" label="简介">
          <Input.TextArea rows={3} maxLength={1000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
