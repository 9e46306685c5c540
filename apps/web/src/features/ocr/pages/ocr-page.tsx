import { useState } from 'react';
import { Alert, Button, Empty, Space, Tag } from 'antd';
import { Link, useSearchParams } from 'react-router';
import type { OcrJson, OcrPagePlace, OcrVersionList } from '@guji/shared';
import { ApiError } from '../../../api/client.ts';
import { useOcrVersions } from '../queries.ts';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { PageLoading } from '../../../components/page-loading.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { usePageOcr } from '../../reader/queries.ts';
import { positiveId, readerPath } from '../../../lib/reader-url.ts';
import type { CellRef } from '../ocr-edit.ts';
import { BookText } from '../../../components/book-text.tsx';
import { CorrectionQueue } from '../components/correction-queue.tsx';
import { CorrectionsReview } from '../components/corrections-review.tsx';
import { OcrVersionsPanel, type ImportFormat } from '../components/ocr-versions-panel.tsx';
import { ProofreadImage } from '../components/proofread-image.tsx';
import { ColumnEditor, SelectedCellTools } from '../components/proofread-text.tsx';
import { useProofreadActions, useUnsavedWarning } from '../use-proofread-actions.ts';

/**
 * /OCRPage?imgid: proofreading one page (catalogue staff, or the owner of an own book): the image with
 * the character boxes beside the editable text; correct a character, merge or split cells, mark small
 * notes, reorder columns (the spec's ocrSort); save a new version (the full-text index follows), go
 * back to an earlier one, export or import ALTO / hOCR.
 */
export function OcrPage() {
  const [params] = useSearchParams();
  const imageId = positiveId(params.get('imgid'));
  const ocr = usePageOcr(imageId);
  const versions = useOcrVersions(imageId);
  const place = versions.data?.place;
  useDocumentTitle(
    place
      ? `文字校对 ${place.title} ${place.volumeName} 第 ${place.pageNumber} 页`
      : imageId == null
        ? '纠错审核'
        : '文字校对',
  );

  const error = versions.error ?? ocr.error;
  if (imageId == null) return <CorrectionsReview />;
  if (error) {
    const status = error instanceof ApiError ? error.status : 0;
    return <Refused message={status === 401 ? '请先登录' : error.message} login={status === 401} />;
  }
  if (!ocr.data || !versions.data) return <PageLoading />;
  if (!ocr.data.ocr) return <Refused message="本页暂无识别文字" />;
  return (
    <Proofreader
      key={`${imageId}:${versions.data.versions[0]?.version ?? 0}`}
      imageId={imageId}
      initial={ocr.data.ocr}
      versions={versions.data}
    />
  );
}

function Refused({ message, login = false }: { message: string; login?: boolean }) {
  return (
    <div className="page">
      <Breadcrumbs second={{ title: '文字校对' }} />
      <Empty description={message}>{login && <Link to="/Login">去登录</Link>}</Empty>
    </div>
  );
}

function Proofreader({
  imageId,
  initial,
  versions,
}: {
  imageId: number;
  initial: OcrJson;
  versions: OcrVersionList;
}) {
  const { place } = versions;
  const [draft, setDraft] = useState(initial);
  const [selected, setSelected] = useState<CellRef | null>(null);
  const dirty = draft !== initial;
  const [importFormat, setImportFormat] = useState<ImportFormat>('alto');
  useUnsavedWarning(dirty);
  const { save, restore, rerun, importText } = useProofreadActions(imageId, draft, importFormat);

  return (
    <div className="page ocr-page">
      <Breadcrumbs
        second={{ title: place.title, to: `/SearchPage/${place.catalogId}`, keep: true }}
        third={{ title: '文字校对' }}
      />
      <div className="ocr-page-head">
        <ProofreadTitle place={place} imageId={imageId} />
        <Space wrap>
          {dirty && <Tag color="orange">有未保存的修改</Tag>}
          <Button onClick={() => rerun.mutate()} loading={rerun.isPending}>
            重新识别本页
          </Button>
          <Button onClick={() => setDraft(initial)} disabled={!dirty}>
            撤销修改
          </Button>
          <Button type="primary" onClick={() => save.mutate()} loading={save.isPending} disabled={!dirty}>
            保存为新版本
          </Button>
        </Space>
      </div>

      <LatestWarnings versions={versions} />

      <div className="ocr-page-body">
        <ProofreadImage
          imageId={imageId}
          pageNumber={place.pageNumber}
          draft={draft}
          selected={selected}
          onSelect={setSelected}
        />
        <section className="ocr-page-editor" aria-label="识别文字">
          <SelectedCellTools draft={draft} selected={selected} onEdit={setDraft} onSelect={setSelected} />
          <ColumnEditor draft={draft} selected={selected} onEdit={setDraft} onSelect={setSelected} />
          <OcrVersionsPanel
            imageId={imageId}
            versions={versions.versions}
            onRestore={(version) => restore.mutate(version)}
            restoring={restore.isPending}
            importFormat={importFormat}
            onImportFormat={setImportFormat}
            onImport={(content) => importText.mutate(content)}
            importing={importText.isPending}
          />
        </section>
      </div>
      <section className="ocr-page-corrections">
        <h2>本页的读者纠错</h2>
        <CorrectionQueue
          imageId={imageId}
          acceptBlocked={dirty ? '请先保存或撤销本页的修改，再采纳纠错' : null}
        />
      </section>
    </div>
  );
}

/** The page's heading (book, volume, page) and the way to it in the reader. */
function ProofreadTitle({ place, imageId }: { place: OcrPagePlace; imageId: number }) {
  return (
    <>
      <h1 className="page-title">
        文字校对 · 《<BookText>{place.title}</BookText>》<BookText>{place.volumeName}</BookText> 第{' '}
        {place.pageNumber} 页
      </h1>
      <Link to={readerPath({ catalogId: place.catalogId, fascicleId: place.fascicleId, imageId })}>
        在阅读器中打开
      </Link>
    </>
  );
}

/** What the engine noticed about the text shown (the newest version, when an OCR run made it). */
function LatestWarnings({ versions }: { versions: OcrVersionList }) {
  const latest = versions.versions[0];
  const latestWarnings = latest?.source.startsWith('ocr:') ? latest.warnings : [];
  if (latestWarnings.length === 0) return null;
  return (
    <Alert
      className="ocr-page-warnings"
      type="warning"
      showIcon
      message="识别提示：请先核对这一页"
      description={
        <ul>
          {latestWarnings.map((w) => (
            <li key={w.code}>{w.message}</li>
          ))}
        </ul>
      }
    />
  );
}
