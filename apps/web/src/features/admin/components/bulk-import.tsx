import { useRef, useState } from 'react';
import { Button, Progress } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { importApi, type ImportedBooks } from '@guji/shared';
import { hrefOf } from '../../../api/client.ts';
import { useJobStats } from '../queries.ts';
import { uploadWithProgress } from '../../../api/upload.ts';
import { toast } from '../../../components/toast.ts';
import { noConvert } from '../../../components/book-text.tsx';

/**
 * 批量导入: a package zip (metadata.json or metadata.csv with image folders, docs/import.md) through
 * the catalogue ingest: the upload's progress, then the books made and the tiling and OCR jobs until
 * they are done.
 */
export function BulkImport() {
  const input = useRef<HTMLInputElement>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [books, setBooks] = useState<ImportedBooks['books'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const stats = useJobStats(2000, books !== null);

  const pending = (stats.data?.counts.queued ?? 0) + (stats.data?.counts.running ?? 0);
  return (
    <div className="admin-form">
      <p className="admin-stats">
        上传导入包（.zip：根目录下 metadata.json 或 metadata.csv，以及各卷图像目录）。同一 sourceKey
        再次导入会替换原书。
      </p>
      <input
        ref={input}
        type="file"
        hidden
        accept=".zip,application/zip"
        aria-label="导入包"
        disabled={percent !== null}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          setError(null);
          setBooks(null);
          setPercent(0);
          uploadWithProgress(importApi.upload, hrefOf(importApi.upload), file, setPercent).then(
            (result) => {
              setPercent(null);
              setBooks(result.books);
              toast.success(`已导入 ${result.books.length} 部古籍`);
            },
            (failure: unknown) => {
              setPercent(null);
              setError(failure instanceof Error ? failure.message : '导入失败');
            },
          );
        }}
      />
      <Button
        icon={<UploadOutlined aria-hidden />}
        disabled={percent !== null}
        onClick={() => input.current?.click()}
      >
        选择导入包（.zip）
      </Button>
      {percent !== null && (
        <div role="status">
          <Progress percent={percent} status="active" />
          {percent >= 100 ? '正在检查并导入…' : '正在上传…'}
        </div>
      )}
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
      {books && (
        <div role="status" className="import-result">
          <ul>
            {books.map((b) => (
              <li key={b.bookId}>
                <Link to={`/SearchPage/${b.bookId}`} {...noConvert}>
                  {b.title}
                </Link>
                （{b.pages} 页）
              </li>
            ))}
          </ul>
          <p>{pending > 0 ? `后台处理（切图、识别）中：还有 ${pending} 项任务` : '后台处理已完成'}</p>
        </div>
      )}
    </div>
  );
}
