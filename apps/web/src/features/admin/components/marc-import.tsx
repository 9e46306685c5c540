import { useRef, useState } from 'react';
import { Button, Radio, Space, Table, Tag } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  MARC_FIELD_LABELS,
  MARC_FORMATS,
  MARC_MAX_FILE_BYTES,
  MARC_RECORD_STATUS,
  marcApi,
  type MarcFormat,
  type MarcImportQuery,
  type MarcPreview,
  type MarcPreviewRecord,
} from '@guji/shared';
import { hrefOf, serverMessage } from '../../../api/client.ts';
import { adminKeys, importMarc, previewMarc } from '../queries.ts';
import { toast } from '../../../components/toast.ts';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { BookText, noConvert } from '../../../components/book-text.tsx';

type Choice = MarcImportQuery['format'];
const STATUS_COLOR = { new: 'success', changed: 'processing', unchanged: 'default', error: 'error' } as const;

/**
 * MARC 导入导出: a MARC21 or CNMARC file (ISO 2709 .mrc/.iso or MARCXML .xml) is previewed record by
 * record (new, changed fields old → new, unchanged, errors) and imported only when the staff confirm
 * and no record is in error; the catalogue downloads as MARCXML. docs/import.md has the field mapping.
 */
export function MarcImport() {
  const input = useRef<HTMLInputElement>(null);
  const [choice, setChoice] = useState<Choice>('auto');
  const [exportFormat, setExportFormat] = useState<MarcFormat>('marc21');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<MarcPreview | null>(null);
  const [busy, setBusy] = useState<'preview' | 'import' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const queryClient = useQueryClient();

  const form = (f: File) => {
    const body = new FormData();
    body.append('file', f);
    return body;
  };
  const fail = (failure: unknown) => {
    setBusy(null);
    setError(serverMessage(failure) ?? '操作失败，请重试');
  };
  const look = (f: File, format: Choice) => {
    setFile(f);
    setPreview(null);
    setDone(null);
    setError(null);
    if (f.size > MARC_MAX_FILE_BYTES) {
      setError('文件过大：MARC 文件最大 20 MB');
      return;
    }
    setBusy('preview');
    previewMarc(format, form(f)).then((result) => {
      setBusy(null);
      setPreview(result);
    }, fail);
  };
  const confirm = () => {
    if (!file || !preview) return;
    setBusy('import');
    importMarc(preview.format, form(file)).then((result) => {
      setBusy(null);
      setPreview(null);
      setDone(result.message);
      toast.success(result.message);
      void queryClient.invalidateQueries({ queryKey: adminKeys.books });
    }, fail);
  };
  const counts = preview?.counts;
  const writes = counts ? counts.new + counts.changed : 0;

  return (
    <div className="admin-form marc-import">
      <p className="admin-stats">
        导入 MARC21 或 CNMARC 编目记录（ISO 2709 的 .mrc/.iso 文件或 MARCXML 的 .xml 文件，UTF-8 编码，最大 20
        MB）。先预览每条记录将新增、修改还是无变化，确认后才写入；有一条记录出错则整个文件都不导入。按 001
        控制号或索书号对应已有古籍，新增的古籍默认隐藏，待添加影像后再公开。
      </p>
      <Space wrap>
        <Radio.Group
          aria-label="记录格式"
          value={choice}
          onChange={(e) => {
            const next = e.target.value as Choice;
            setChoice(next);
            if (file) look(file, next);
          }}
          options={[
            { value: 'auto', label: '自动识别' },
            { value: 'marc21', label: MARC_FORMATS.marc21 },
            { value: 'cnmarc', label: MARC_FORMATS.cnmarc },
          ]}
          optionType="button"
        />
        <input
          ref={input}
          type="file"
          hidden
          accept=".mrc,.iso,.marc,.xml,application/marc,application/marcxml+xml,text/xml"
          aria-label="MARC 文件"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) look(f, choice);
          }}
        />
        <Button
          icon={<UploadOutlined aria-hidden />}
          loading={busy === 'preview'}
          onClick={() => input.current?.click()}
        >
          选择 MARC 文件并预览
        </Button>
      </Space>
      {file && <p className="admin-stats">文件：{file.name}</p>}
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
      {done && (
        <div role="status" className="import-result">
          {done}
        </div>
      )}
      {preview && counts && (
        <section aria-label="导入预览" className="marc-preview">
          <p role="status">
            {MARC_FORMATS[preview.format]}（{preview.syntax === 'marcxml' ? 'MARCXML' : 'ISO 2709'}）共{' '}
            {preview.records.length} 条：新增 {counts.new}，修改 {counts.changed}，无变化 {counts.unchanged}
            {counts.error > 0 && (
              <strong className="marc-errors">，错误 {counts.error}（请修正后重新上传）</strong>
            )}
          </p>
          <TableScroll label="导入预览">
            <Table<MarcPreviewRecord>
              rowKey="index"
              size="small"
              dataSource={preview.records}
              pagination={preview.records.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
              columns={[
                { title: '序号', dataIndex: 'index', className: 'nowrap' },
                {
                  title: '记录',
                  key: 'record',
                  render: (_, r) => (
                    <span>
                      {r.bookId !== null ? (
                        <Link to={`/SearchPage/${r.bookId}`} {...noConvert}>
                          {r.title}
                        </Link>
                      ) : (
                        <BookText>{r.title ?? '（无书名）'}</BookText>
                      )}
                      {r.controlNumber && <div className="admin-stats">001 {r.controlNumber}</div>}
                    </span>
                  ),
                },
                {
                  title: '结果',
                  key: 'status',
                  className: 'nowrap',
                  render: (_, r) => <Tag color={STATUS_COLOR[r.status]}>{MARC_RECORD_STATUS[r.status]}</Tag>,
                },
                { title: '变化', key: 'changes', render: (_, r) => <RecordChanges record={r} /> },
              ]}
            />
          </TableScroll>
          <Space wrap>
            <Button
              type="primary"
              disabled={counts.error > 0 || writes === 0}
              loading={busy === 'import'}
              onClick={confirm}
            >
              {writes === 0 && counts.error === 0
                ? '没有需要导入的变化'
                : `确认导入（新增 ${counts.new}，修改 ${counts.changed}）`}
            </Button>
            <Button onClick={() => setPreview(null)}>取消</Button>
          </Space>
        </section>
      )}

      <h3 className="marc-export-title">导出目录</h3>
      <p className="admin-stats">
        整个目录导出为一个 MARCXML 文件（含隐藏的古籍；读者导出时只含公开的古籍）。
      </p>
      <Space wrap>
        <Radio.Group
          aria-label="导出格式"
          value={exportFormat}
          onChange={(e) => setExportFormat(e.target.value as MarcFormat)}
          options={[
            { value: 'marc21', label: MARC_FORMATS.marc21 },
            { value: 'cnmarc', label: MARC_FORMATS.cnmarc },
          ]}
          optionType="button"
        />
        <a
          className="ant-btn ant-btn-default"
          href={hrefOf(marcApi.catalogue, {}, { format: exportFormat })}
          download={`catalogue-${exportFormat}.xml`}
        >
          <DownloadOutlined aria-hidden /> 导出全部目录（MARCXML）
        </a>
      </Space>
    </div>
  );
}

function RecordChanges({ record }: { record: MarcPreviewRecord }) {
  if (record.errors.length)
    return (
      <ul className="marc-changes field-error">
        {record.errors.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    );
  if (record.changes.length === 0) return <span className="admin-stats">与目录一致</span>;
  return (
    <ul className="marc-changes">
      {record.changes.map((c) => (
        <li key={c.field}>
          {MARC_FIELD_LABELS[c.field]}：
          {record.status === 'changed' && (
            <>
              <del>
                <BookText>{c.old ?? '（空）'}</BookText>
              </del>{' '}
              →{' '}
            </>
          )}
          <ins>
            <BookText>{c.new ?? '（空）'}</BookText>
          </ins>
        </li>
      ))}
    </ul>
  );
}
