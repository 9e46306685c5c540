import { useState } from 'react';
import { Input, Select, Space, Table } from 'antd';
import { AUDIT_ACTION_LABELS, type AuditEntry } from '@guji/shared';
import { useAuditLog } from '../queries.ts';
import { formatTime } from '../../../components/personal-list.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { auditChanges } from '../audit-changes.ts';

export function AuditLog() {
  const [action, setAction] = useState<string | undefined>(undefined);
  const [actor, setActor] = useState('');
  const [page, setPage] = useState(1);
  const query = useAuditLog(action, actor, page);
  return (
    <div>
      <Space className="admin-row" wrap>
        <Select
          allowClear
          placeholder="全部操作"
          aria-label="操作类型"
          style={{ width: 180 }}
          value={action}
          onChange={(value: string | undefined) => {
            setAction(value);
            setPage(1);
          }}
          options={Object.entries(AUDIT_ACTION_LABELS).map(([value, label]) => ({ value, label }))}
        />
        <Input.Search
          aria-label="操作人"
          placeholder="操作人（登录名）"
          allowClear
          onSearch={(value) => {
            setActor(value.trim());
            setPage(1);
          }}
          style={{ width: 220 }}
        />
      </Space>
      <TableScroll label="审计日志列表">
        <Table<AuditEntry>
          rowKey="id"
          size="small"
          loading={query.isPending}
          dataSource={query.data?.records ?? []}
          pagination={{
            current: page,
            pageSize: 20,
            total: query.data?.total ?? 0,
            showSizeChanger: false,
            onChange: setPage,
          }}
          columns={[
            {
              title: '时间',
              dataIndex: 'createdAt',
              className: 'nowrap',
              render: (t: string) => formatTime(t),
            },
            {
              title: '操作人',
              dataIndex: 'actor',
              className: 'nowrap',
              render: (v: string) => <span data-no-convert="">{v}</span>,
            },
            {
              title: '操作',
              dataIndex: 'action',
              className: 'nowrap',
              render: (a: string) => AUDIT_ACTION_LABELS[a] ?? a,
            },
            {
              title: '对象',
              dataIndex: 'target',
              render: (v: string) => <span data-no-convert="">{v}</span>,
            },
            {
              title: '变更',
              key: 'changes',
              render: (_, entry) => <Changes entry={entry} />,
            },
          ]}
        />
      </TableScroll>
    </div>
  );
}

/** What the action changed, a line a field (`书名：旧 → 新`), values as stored. */
function Changes({ entry }: { entry: AuditEntry }) {
  const changes = auditChanges(entry.before, entry.after);
  if (changes.length === 0) return null;
  return (
    <ul className="audit-changes">
      {changes.map((change) => (
        <li key={change.label}>
          <span className="audit-field">{change.label}</span>：
          {change.before !== undefined && <del data-no-convert="">{change.before}</del>}
          {change.before !== undefined && change.after !== undefined && ' → '}
          {change.after !== undefined && <ins data-no-convert="">{change.after}</ins>}
        </li>
      ))}
    </ul>
  );
}
