import { Button, Space, Table, Tag, type TableColumnsType } from 'antd';
import { Link } from 'react-router';
import {
  MARC_FIELD_LABELS,
  MARC_FORMATS,
  MARC_RECORD_STATUS,
  type MarcPreview,
  type MarcPreviewRecord,
} from '@guji/shared';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { BookText, noConvert } from '../../../components/book-text.tsx';

const STATUS_COLOR = { new: 'success', changed: 'processing', unchanged: 'default', error: 'error' } as const;

/** The preview table's columns: the record's number, its title (linked when it is in the catalogue), result, changes. */
const PREVIEW_COLUMNS: TableColumnsType<MarcPreviewRecord> = [
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
];

/**
 * A previewed MARC file: its counts, each record's result and changes, and the button that imports it
 * (disabled while any record is in error or nothing would change).
 */
export function MarcPreviewSection({
  preview,
  importing,
  onConfirm,
  onCancel,
}: {
  preview: MarcPreview;
  importing: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const counts = preview.counts;
  const writes = counts.new + counts.changed;
  return (
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
          columns={PREVIEW_COLUMNS}
        />
      </TableScroll>
      <Space wrap>
        <Button
          type="primary"
          disabled={counts.error > 0 || writes === 0}
          loading={importing}
          onClick={onConfirm}
        >
          {writes === 0 && counts.error === 0
            ? '没有需要导入的变化'
            : `确认导入（新增 ${counts.new}，修改 ${counts.changed}）`}
        </Button>
        <Button onClick={onCancel}>取消</Button>
      </Space>
    </section>
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
