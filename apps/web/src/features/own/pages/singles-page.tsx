import { useState } from 'react';
import { Button, Empty, Spin, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { MSG, ocrApi, ownSinglesApi, type OwnPage } from '@guji/shared';
import { hrefOf } from '../../../api/client.ts';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { toast } from '../../../components/toast.ts';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { AsideNav } from '../components/aside-nav.tsx';
import { ownKeys, removePage, useOwnSingles } from '../queries.ts';
import {
  DeleteImageButton,
  ImageCard,
  RenameImageModal,
  whileRecognising,
} from '../components/page-image-tools.tsx';
import { recognise } from '../../ocr/queries.ts';

/** Copies a recognised image's text (its TXT export) to the clipboard, or says why it could not. */
const copyText = (page: OwnPage) =>
  void fetch(hrefOf(ocrApi.export, { imageId: page.imageId }, { format: 'txt' }))
    .then(async (response) => {
      if (!response.ok) throw new Error(((await response.json()) as { message?: string }).message ?? '');
      await navigator.clipboard.writeText(await response.text());
      toast.success('文字已复制');
    })
    .catch((error: unknown) =>
      toast.error(error instanceof Error && error.message ? error.message : '复制失败'),
    );

/**
 * /OCRAside/Single: single images that belong to no book (spec isLonely 1): drop several at once
 * (each with its progress), recognise, proofread, copy or export the text (TXT, ALTO), rename, delete.
 */
export function SinglesPage() {
  useDocumentTitle('单张图像');
  const queryClient = useQueryClient();
  const singles = useOwnSingles(whileRecognising);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ownKeys.all });
  const [renaming, setRenaming] = useState<OwnPage | null>(null);
  const list = singles.data ?? [];

  return (
    <div className="page own-singles">
      <Breadcrumbs second={{ title: '古籍 OCR 服务', to: '/OCRAside' }} third={{ title: '单张图像' }} />
      <AsideNav />
      <h1 className="page-title">单张图像</h1>
      <SinglesDropZone onUploaded={refresh} />
      {singles.isPending ? (
        <Spin />
      ) : list.length === 0 ? (
        <Empty description="还没有单张图像。" />
      ) : (
        <ul className="page-grid" aria-label="单张图像">
          {list.map((page) => (
            <SingleCard key={page.imageId} page={page} refresh={refresh} onRename={() => setRenaming(page)} />
          ))}
        </ul>
      )}
      <RenameImageModal
        key={renaming?.imageId ?? 0}
        page={renaming}
        onClose={() => setRenaming(null)}
        onRenamed={refresh}
      />
    </div>
  );
}

/** The drop zone that uploads images (several at once, each with its progress); a failure names the file. */
function SinglesDropZone({ onUploaded }: { onUploaded: () => void }) {
  return (
    <Upload.Dragger
      name="file"
      multiple
      accept="image/png,image/jpeg,image/tiff"
      action={hrefOf(ownSinglesApi.upload)}
      withCredentials
      showUploadList={{ showRemoveIcon: false }}
      onChange={(info) => {
        if (info.file.status === 'done') onUploaded();
        if (info.file.status === 'error') {
          const response = info.file.response as { message?: string } | undefined;
          toast.error(`${info.file.name}：${response?.message ?? '上传失败'}`);
        }
      }}
    >
      <p className="ant-upload-drag-icon">
        <InboxOutlined aria-hidden />
      </p>
      <p className="ant-upload-text">把图像拖到这里，或点击选择（可多选；JPEG、PNG、TIFF）</p>
    </Upload.Dragger>
  );
}

/** One single image: recognise, proofread, copy or export its text once recognised, rename, delete. */
function SingleCard({
  page,
  refresh,
  onRename,
}: {
  page: OwnPage;
  refresh: () => void;
  onRename: () => void;
}) {
  return (
    <ImageCard page={page} name={page.name} alt={page.name}>
      <Button
        size="small"
        type="link"
        onClick={() =>
          void recognise('page', page.imageId).then(
            () => {
              toast.success('已提交识别（1 页）');
              refresh();
            },
            () => undefined,
          )
        }
      >
        识别
      </Button>
      <Link to={`/OCRPage?imgid=${page.imageId}`}>校对</Link>
      {page.ocrStatus === 'done' && (
        <>
          <Button size="small" type="link" onClick={() => copyText(page)}>
            复制文字
          </Button>
          <a href={hrefOf(ocrApi.export, { imageId: page.imageId }, { format: 'txt' })} download>
            TXT
          </a>
          <a href={hrefOf(ocrApi.export, { imageId: page.imageId }, { format: 'alto' })} download>
            ALTO
          </a>
        </>
      )}
      <Button size="small" type="link" onClick={onRename}>
        重命名
      </Button>
      <DeleteImageButton
        title="删除这张图像？"
        onConfirm={() =>
          void removePage(page.imageId).then(
            () => {
              toast.success(MSG.deleteSuccess);
              refresh();
            },
            () => undefined,
          )
        }
      />
    </ImageCard>
  );
}
