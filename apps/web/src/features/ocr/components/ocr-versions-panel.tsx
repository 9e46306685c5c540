import { Button, Select, Space, Tag, Upload } from 'antd';
import { ocrApi, type OcrVersion } from '@guji/shared';
import { hrefOf } from '../../../api/client.ts';

/** The formats a page's text is imported from. */
export type ImportFormat = 'alto' | 'hocr';

/**
 * The proofread page's side panel: its saved versions, newest first, each earlier one restorable; and
 * its text exported as plain text, ALTO or hOCR, or imported from an ALTO or hOCR file.
 */
export function OcrVersionsPanel({
  imageId,
  versions,
  onRestore,
  restoring,
  importFormat,
  onImportFormat,
  onImport,
  importing,
}: {
  imageId: number;
  versions: OcrVersion[];
  onRestore: (version: number) => void;
  restoring: boolean;
  importFormat: ImportFormat;
  onImportFormat: (format: ImportFormat) => void;
  /** The chosen file's content. */
  onImport: (content: string) => void;
  importing: boolean;
}) {
  return (
    <div className="ocr-page-side">
      <h2>版本</h2>
      <ol className="ocr-versions">
        {versions.map((v, i) => (
          <li key={v.version}>
            <VersionLine version={v} />
            {i > 0 && (
              <Button size="small" onClick={() => onRestore(v.version)} loading={restoring}>
                恢复此版
              </Button>
            )}
          </li>
        ))}
        {versions.length === 0 && <li>尚未校对过（保存后，原有文字会保留为第 1 版）</li>}
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
          onChange={onImportFormat}
          options={[
            { value: 'alto', label: 'ALTO XML' },
            { value: 'hocr', label: 'hOCR' },
          ]}
        />
        <Upload
          accept=".xml,.html,.hocr,.xhtml"
          showUploadList={false}
          beforeUpload={(file) => {
            void file.text().then((content) => onImport(content));
            return false;
          }}
        >
          <Button loading={importing}>选择文件导入</Button>
        </Upload>
      </Space>
    </div>
  );
}

/** One version: its number, where it came from, who saved it and when, its size, and any OCR warnings. */
function VersionLine({ version: v }: { version: OcrVersion }) {
  return (
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
