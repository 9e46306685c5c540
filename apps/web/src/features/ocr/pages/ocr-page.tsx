import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Empty, Input, Select, Space, Tag, Upload } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { ocrApi, type OcrJson, type OcrVersionList, type SavedOcr } from '@guji/shared';
import { ApiError, hrefOf } from '../../../api/client.ts';
import { importOcr, ocrKeys, recognise, restoreOcr, saveOcr, useOcrVersions } from '../queries.ts';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { PageLoading } from '../../../components/page-loading.tsx';
import { toast } from '../../../components/toast.ts';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { pageOcrKey, usePageOcr } from '../../reader/queries.ts';
import { positiveId, readerPath } from '../../../lib/reader-url.ts';
import { confidenceClass } from '../../reader/index.ts';
import {
  mergeWithNext,
  moveColumn,
  removeCell,
  setCharacter,
  setNote,
  splitCell,
  type CellRef,
} from '../ocr-edit.ts';
import { BookText, noConvert } from '../../../components/book-text.tsx';
import { CorrectionQueue } from '../components/correction-queue.tsx';
import { CorrectionsReview } from '../components/corrections-review.tsx';

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
  const queryClient = useQueryClient();
  const { place } = versions;
  const [draft, setDraft] = useState(initial);
  const [selected, setSelected] = useState<CellRef | null>(null);
  const dirty = draft !== initial;
  const [importFormat, setImportFormat] = useState<'alto' | 'hocr'>('alto');

  // Unsaved corrections are not lost by closing or reloading the page without a warning.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

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

  const edit = (next: OcrJson) => setDraft(next);
  // What the engine noticed about the text shown (the newest version, when an OCR run made it).
  const latest = versions.versions[0];
  const latestWarnings = latest?.source.startsWith('ocr:') ? latest.warnings : [];
  const selectedWord = selected ? draft.ocr_res.content[selected.line]?.words[selected.index] : undefined;
  const { width, height } = draft.imginfo;
  const boxes = useMemo(
    () =>
      draft.ocr_res.content.flatMap((line, l) =>
        line.words.map((word, i) => ({ word, cell: { line: l, index: i } })),
      ),
    [draft],
  );

  return (
    <div className="page ocr-page">
      <Breadcrumbs
        second={{ title: place.title, to: `/SearchPage/${place.catalogId}`, keep: true }}
        third={{ title: '文字校对' }}
      />
      <div className="ocr-page-head">
        <h1 className="page-title">
          文字校对 · 《<BookText>{place.title}</BookText>》<BookText>{place.volumeName}</BookText> 第{' '}
          {place.pageNumber} 页
        </h1>
        <Link to={readerPath({ catalogId: place.catalogId, fascicleId: place.fascicleId, imageId })}>
          在阅读器中打开
        </Link>
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

      {latestWarnings.length > 0 && (
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
      )}

      <div className="ocr-page-body">
        <section className="ocr-page-image" aria-label="页面图像与文字框">
          <div className="ocr-page-figure" style={{ aspectRatio: `${width} / ${height}` }}>
            <img
              src={`/iiif/3/${imageId}/full/!1200,1200/0/default.jpg`}
              alt={`第 ${place.pageNumber} 页图像`}
            />
            {boxes.map(({ word, cell }) => (
              <button
                key={`${cell.line}-${cell.index}`}
                type="button"
                className={[
                  'ocr-box',
                  selected?.line === cell.line && selected.index === cell.index ? 'ocr-box-selected' : '',
                  confidenceClass(word.confidence) ?? '',
                ].join(' ')}
                aria-label={`第 ${cell.line + 1} 列第 ${cell.index + 1} 字的框`}
                style={{
                  left: `${(word.points.left / width) * 100}%`,
                  top: `${(word.points.top / height) * 100}%`,
                  width: `${((word.points.right - word.points.left) / width) * 100}%`,
                  height: `${((word.points.bottom - word.points.top) / height) * 100}%`,
                }}
                onClick={() => setSelected(cell)}
              />
            ))}
          </div>
        </section>

        <section className="ocr-page-editor" aria-label="识别文字">
          <div className="ocr-cell-tools" role="group" aria-label="所选文字">
            {/* The interface text follows the 简/繁 choice; the recognised character is shown as it is. */}
            <span className="ocr-cell-current">
              {selected && selectedWord ? (
                <>
                  第 {selected.line + 1} 列第 {selected.index + 1} 字：
                  <span {...noConvert}>{selectedWord.word}</span>（置信度 {selectedWord.confidence.toFixed(2)}
                  ）
                </>
              ) : (
                '点选一个字或图上的框'
              )}
            </span>
            <Space wrap size={4}>
              <Button
                size="small"
                disabled={!selected}
                onClick={() => selected && edit(mergeWithNext(draft, selected))}
              >
                与下一字合并
              </Button>
              <Button
                size="small"
                disabled={!selected}
                onClick={() => selected && edit(splitCell(draft, selected))}
              >
                拆分
              </Button>
              <Button
                size="small"
                disabled={!selected}
                onClick={() => selected && edit(setNote(draft, selected, selectedWord?.type !== 'note'))}
              >
                {selectedWord?.type === 'note' ? '改为正文' : '标为小注'}
              </Button>
              <Button
                size="small"
                danger
                disabled={!selected}
                onClick={() => {
                  if (!selected) return;
                  edit(removeCell(draft, selected));
                  setSelected(null);
                }}
              >
                删除此格
              </Button>
            </Space>
          </div>
          <ol className="ocr-columns">
            {draft.ocr_res.content.map((line, l) => (
              <li key={l} className="ocr-column-row">
                <span className="ocr-column-label">第 {l + 1} 列</span>
                <span className="ocr-column-move">
                  <Button
                    size="small"
                    icon={<ArrowUpOutlined aria-hidden />}
                    aria-label={`第 ${l + 1} 列前移`}
                    disabled={l === 0}
                    onClick={() => edit(moveColumn(draft, l, -1))}
                  />
                  <Button
                    size="small"
                    icon={<ArrowDownOutlined aria-hidden />}
                    aria-label={`第 ${l + 1} 列后移`}
                    disabled={l === draft.ocr_res.content.length - 1}
                    onClick={() => edit(moveColumn(draft, l, 1))}
                  />
                </span>
                <span className="ocr-cells" {...noConvert}>
                  {line.words.map((word, i) => (
                    <Input
                      key={i}
                      aria-label={`第 ${l + 1} 列第 ${i + 1} 字`}
                      className={[
                        'ocr-cell',
                        word.type === 'note' ? 'ocr-note' : '',
                        confidenceClass(word.confidence) ?? '',
                        selected?.line === l && selected.index === i ? 'ocr-cell-selected' : '',
                      ].join(' ')}
                      value={word.word}
                      onFocus={() => setSelected({ line: l, index: i })}
                      onChange={(event) => {
                        const typed = [...event.target.value].filter((c) => c !== word.word);
                        const next = typed.at(-1) ?? [...event.target.value].at(-1);
                        if (next) edit(setCharacter(draft, { line: l, index: i }, next));
                      }}
                    />
                  ))}
                </span>
              </li>
            ))}
          </ol>

          <div className="ocr-page-side">
            <h2>版本</h2>
            <ol className="ocr-versions">
              {versions.versions.map((v, i) => (
                <li key={v.version}>
                  <span>
                    第 {v.version} 版 · {sourceLabel(v.source)} · {v.createdBy ?? '系统'} ·{' '}
                    {v.createdAt.slice(0, 16).replace('T', ' ')} · {v.characters} 字
                    {v.warnings.length > 0 && (
                      <Tag
                        color="warning"
                        className="ocr-version-warning"
                        title={v.warnings.map((w) => w.message).join('\n')}
                      >
                        有识别提示
                      </Tag>
                    )}
                  </span>
                  {i > 0 && (
                    <Button
                      size="small"
                      onClick={() => restore.mutate(v.version)}
                      loading={restore.isPending}
                    >
                      恢复此版
                    </Button>
                  )}
                </li>
              ))}
              {versions.versions.length === 0 && <li>尚未校对过（保存后，原有文字会保留为第 1 版）</li>}
            </ol>
            <h2>导出与导入</h2>
            <Space wrap>
              <a href={hrefOf(ocrApi.export, { imageId }, { format: 'txt' })}>导出文本</a>
              <a href={hrefOf(ocrApi.export, { imageId }, { format: 'alto' })}>导出 ALTO</a>
              <a href={hrefOf(ocrApi.export, { imageId }, { format: 'hocr' })}>导出 hOCR</a>
            </Space>
            <Space wrap className="ocr-import">
              <Select
                aria-label="导入格式"
                value={importFormat}
                onChange={setImportFormat}
                options={[
                  { value: 'alto', label: 'ALTO XML' },
                  { value: 'hocr', label: 'hOCR' },
                ]}
              />
              <Upload
                accept=".xml,.html,.hocr,.xhtml"
                showUploadList={false}
                beforeUpload={(file) => {
                  void file.text().then((content) => importText.mutate(content));
                  return false;
                }}
              >
                <Button loading={importText.isPending}>选择文件导入</Button>
              </Upload>
            </Space>
          </div>
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

function sourceLabel(source: string): string {
  if (source === 'original') return '原有文字';
  if (source === 'proofread') return '人工校对';
  if (source === 'typeset') return '排印底本';
  if (source.startsWith('import:')) return `导入 ${source.slice(7).toUpperCase()}`;
  if (source.startsWith('restore:')) return `恢复第 ${source.slice(8)} 版`;
  if (source.startsWith('ocr:')) return `识别（${source.slice(4)}）`;
  if (source.startsWith('correction:')) return `读者纠错（第 ${source.slice(11)} 条）`;
  return source;
}
