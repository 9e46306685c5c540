import { useRef, useState } from 'react';
import { Button, Empty, Space, Spin } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { MSG, type OwnPage } from '@guji/shared';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { toast } from '../../../components/toast.ts';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { positiveId, readerPath } from '../../../lib/reader-url.ts';
import {
  ownHome,
  ownKeys,
  removePage,
  reorderPages,
  uploadPages,
  useOwnBook,
  useOwnPages,
} from '../queries.ts';
import {
  DeleteImageButton,
  ImageCard,
  RenameImageModal,
  whileRecognising,
} from '../components/page-image-tools.tsx';
import { recognise } from '../../ocr/queries.ts';

type PageAction = (run: () => Promise<{ message?: string } | { queued: number }>) => void;

/** Runs a request on the pages, then toasts its message (or how many pages await recognition) and refreshes. */
const pageAction =
  (refresh: () => void): PageAction =>
  (run) =>
    void run().then(
      (result) => {
        if ('message' in result && result.message) toast.success(result.message);
        if ('queued' in result) toast.success(`已提交识别（${result.queued} 页）`);
        refresh();
      },
      () => undefined,
    );

/** Adding page images: the hidden file input, whether an upload runs, and the upload itself. */
function usePageUpload(volumeId: number, refresh: () => void) {
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const upload = (files: FileList) => {
    const form = new FormData();
    for (const file of Array.from(files)) form.append('file', file);
    setUploading(true);
    void uploadPages(volumeId, form)
      .then(
        (result) => {
          toast.success(`${result.message}（${result.added} 页）`);
          refresh();
        },
        () => undefined,
      )
      .finally(() => setUploading(false));
  };
  return { input, uploading, upload };
}

/**
 * /FenCe/{catalogId}/{fascicleId}?gjtitle&fctitle: a volume's pages with their OCR state: add images,
 * rename, move, delete, recognise again, and open a page on /OCRPage to proofread it.
 */
export function PagesPage() {
  const params = useParams();
  const catalogId = positiveId(params.catalogId) ?? 0;
  const volumeId = positiveId(params.fascicleId) ?? 0;
  const [search] = useSearchParams();
  const bookTitle = search.get('gjtitle') ?? '';
  const volumeName = search.get('fctitle') ?? '';
  const book = useOwnBook(catalogId);
  useDocumentTitle(`${bookTitle} ${volumeName} · 图像管理`);
  const queryClient = useQueryClient();
  // While recognition runs, its state is read again every few seconds.
  const pages = useOwnPages(volumeId, whileRecognising);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ownKeys.all });
  const [renaming, setRenaming] = useState<OwnPage | null>(null);
  const uploads = usePageUpload(volumeId, refresh);
  const list = pages.data ?? [];

  const act = pageAction(refresh);

  const move = (index: number, by: -1 | 1) => {
    const ids = list.map((p) => p.imageId);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    act(() => reorderPages(volumeId, ids));
  };

  return (
    <div className="page own-pages">
      <Breadcrumbs
        second={ownHome(book.data)}
        third={{
          title: bookTitle || '卷册',
          to: `/FenCe/${catalogId}?gjtitle=${encodeURIComponent(bookTitle)}`,
        }}
        fourth={{ title: volumeName || '图像' }}
      />
      <div className="own-head">
        <h1 className="page-title">
          《{bookTitle}》{volumeName} 图像
        </h1>
        <PagesToolbar
          {...uploads}
          empty={list.length === 0}
          onRecogniseAll={() => act(() => recognise('volume', volumeId))}
        />
      </div>
      {pages.isPending ? (
        <Spin />
      ) : pages.isError ? (
        <Empty description={pages.error.message || MSG.noData} />
      ) : list.length === 0 ? (
        <Empty description="本卷还没有图像。可上传 zip 压缩包或逐张添加。" />
      ) : (
        <ul className="page-grid" aria-label="页面图像">
          {list.map((page, index) => (
            <PageCard
              key={page.imageId}
              page={page}
              to={readerPath({ catalogId, fascicleId: volumeId, imageId: page.imageId })}
              first={index === 0}
              last={index === list.length - 1}
              act={act}
              onMove={(by) => move(index, by)}
              onRename={() => setRenaming(page)}
            />
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

/** The head's buttons: add images (through the hidden file input) and recognise the whole volume again. */
function PagesToolbar({
  input,
  uploading,
  upload,
  empty,
  onRecogniseAll,
}: ReturnType<typeof usePageUpload> & { empty: boolean; onRecogniseAll: () => void }) {
  return (
    <Space wrap>
      <input
        ref={input}
        type="file"
        accept="image/png,image/jpeg,image/tiff"
        multiple
        hidden
        aria-label="添加页面图像"
        onChange={(e) => {
          if (e.target.files?.length) upload(e.target.files);
          e.target.value = '';
        }}
      />
      <Button
        icon={<UploadOutlined aria-hidden />}
        loading={uploading}
        onClick={() => input.current?.click()}
      >
        添加图像
      </Button>
      <Button disabled={empty} onClick={onRecogniseAll}>
        全部重新识别
      </Button>
    </Space>
  );
}

/** One page of the volume: proofread, recognise, rename, move it up or down, delete. */
function PageCard({
  page,
  to,
  first,
  last,
  act,
  onMove,
  onRename,
}: {
  page: OwnPage;
  to: string;
  first: boolean;
  last: boolean;
  act: PageAction;
  onMove: (by: -1 | 1) => void;
  onRename: () => void;
}) {
  return (
    <ImageCard page={page} name={`${page.pageNumber}. ${page.name}`} alt={`第 ${page.pageNumber} 页`} to={to}>
      <Link to={`/OCRPage?imgid=${page.imageId}`}>校对</Link>
      <Button size="small" type="link" onClick={() => act(() => recognise('page', page.imageId))}>
        识别
      </Button>
      <Button size="small" type="link" onClick={onRename}>
        重命名
      </Button>
      <Button
        size="small"
        icon={<ArrowUpOutlined aria-hidden />}
        aria-label={`第 ${page.pageNumber} 页前移`}
        disabled={first}
        onClick={() => onMove(-1)}
      />
      <Button
        size="small"
        icon={<ArrowDownOutlined aria-hidden />}
        aria-label={`第 ${page.pageNumber} 页后移`}
        disabled={last}
        onClick={() => onMove(1)}
      />
      <DeleteImageButton title="删除这页图像？" onConfirm={() => act(() => removePage(page.imageId))} />
    </ImageCard>
  );
}
