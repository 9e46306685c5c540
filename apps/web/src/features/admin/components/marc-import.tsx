import { useRef, useState } from 'react';
import { Button, Radio, Space } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  MARC_FORMATS,
  MARC_MAX_FILE_BYTES,
  marcApi,
  type MarcFormat,
  type MarcImportQuery,
  type MarcPreview,
} from '@guji/shared';
import { hrefOf, serverMessage } from '../../../api/client.ts';
import { adminKeys, importMarc, previewMarc } from '../queries.ts';
import { toast } from '../../../components/toast.ts';
import { MarcPreviewSection } from './marc-preview.tsx';

type Choice = MarcImportQuery['format'];

/** The file being imported and its preview: previewing a chosen file, importing it when confirmed. */
function useMarcPreview() {
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
  return { file, preview, setPreview, busy, error, done, look, confirm };
}

/** The record format to read a file as, and the (hidden) file input behind the button that opens it. */
function MarcFileChooser({
  choice,
  previewing,
  onChoice,
  onFile,
}: {
  choice: Choice;
  previewing: boolean;
  onChoice: (choice: Choice) => void;
  onFile: (file: File) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <Space wrap>
      <Radio.Group
        aria-label="记录格式"
        value={choice}
        onChange={(e) => onChoice(e.target.value as Choice)}
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
          if (f) onFile(f);
        }}
      />
      <Button
        icon={<UploadOutlined aria-hidden />}
        loading={previewing}
        onClick={() => input.current?.click()}
      >
        选择 MARC 文件并预览
      </Button>
    </Space>
  );
}

/** The whole catalogue downloaded as MARCXML, in MARC21 or CNMARC. */
function MarcExport() {
  const [exportFormat, setExportFormat] = useState<MarcFormat>('marc21');
  return (
    <>
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
    </>
  );
}

/**
 * MARC 导入导出: a MARC21 or CNMARC file (ISO 2709 .mrc/.iso or MARCXML .xml) is previewed record by
 * record (new, changed fields old → new, unchanged, errors) and imported only when the staff confirm
 * and no record is in error; the catalogue downloads as MARCXML. docs/import.md has the field mapping.
 */
export function MarcImport() {
  const [choice, setChoice] = useState<Choice>('auto');
  const { file, preview, setPreview, busy, error, done, look, confirm } = useMarcPreview();

  return (
    <div className="admin-form marc-import">
      <p className="admin-stats">
        导入 MARC21 或 CNMARC 编目记录（ISO 2709 的 .mrc/.iso 文件或 MARCXML 的 .xml 文件，UTF-8 编码，最大 20
        MB）。先预览每条记录将新增、修改还是无变化，确认后才写入；有一条记录出错则整个文件都不导入。按 001
        控制号或索书号对应已有古籍，新增的古籍默认隐藏，待添加影像后再公开。
      </p>
      <MarcFileChooser
        choice={choice}
        previewing={busy === 'preview'}
        onChoice={(next) => {
          setChoice(next);
          if (file) look(file, next);
        }}
        onFile={(f) => look(f, choice)}
      />
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
      {preview && (
        <MarcPreviewSection
          preview={preview}
          importing={busy === 'import'}
          onConfirm={confirm}
          onCancel={() => setPreview(null)}
        />
      )}

      <MarcExport />
    </div>
  );
}
