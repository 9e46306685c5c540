import { useState } from 'react';
import { Button, Select, Table, Tag, type TableColumnsType } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import {
  JOB_NAME_LABELS,
  jobTarget,
  JOB_STATUS_LABELS,
  type JobEntry,
  type JobQuery,
  type JobStats,
} from '@guji/shared';
import { adminKeys, jobAction, useJobs, useJobStats } from '../queries.ts';
import { toast } from '../../../components/toast.ts';
import { formatTime } from '../../../components/personal-list.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';

/** The jobs table's columns; a failed job can be retried and a queued one cancelled. */
function jobColumns(act: (id: number, action: 'retry' | 'cancel') => void): TableColumnsType<JobEntry> {
  return [
    { title: '编号', dataIndex: 'id' },
    { title: '任务', dataIndex: 'name', render: (n: string) => JOB_NAME_LABELS[n] ?? n },
    { title: '对象', dataIndex: 'data', render: (d: unknown) => jobTarget(d) },
    {
      title: '状态',
      dataIndex: 'status',
      render: (s: string) => (
        <Tag color={s === 'failed' ? 'error' : s === 'succeeded' ? 'success' : 'processing'}>
          {JOB_STATUS_LABELS[s] ?? s}
        </Tag>
      ),
    },
    { title: '尝试', key: 'attempts', render: (_, j) => `${j.attempts}/${j.maxAttempts}` },
    { title: '失败原因', dataIndex: 'lastError', render: (e: string | null) => e ?? '' },
    { title: '更新时间', dataIndex: 'updatedAt', render: (t: string) => formatTime(t) },
    {
      title: '操作',
      key: 'actions',
      render: (_, j) =>
        j.status === 'failed' ? (
          <Button size="small" onClick={() => act(j.id, 'retry')}>
            重试
          </Button>
        ) : j.status === 'queued' ? (
          <Button size="small" onClick={() => act(j.id, 'cancel')}>
            取消
          </Button>
        ) : null,
    },
  ];
}

/** The queue's counts by state, and the jobs finished in the last hour by kind. */
function JobCounts({ stats }: { stats: JobStats | undefined }) {
  return (
    <p className="admin-stats" role="status">
      {Object.entries(JOB_STATUS_LABELS)
        .map(([key, label]) => `${label} ${stats?.counts[key] ?? 0}`)
        .join('　')}
      {'　'}近一小时完成：
      {Object.entries(JOB_NAME_LABELS)
        .map(([key, label]) => `${label} ${stats?.lastHour[key] ?? 0}`)
        .join('，')}
    </p>
  );
}

/** 任务监控: the background jobs by state, with retry and cancel. */
export function JobMonitor() {
  const [status, setStatus] = useState<JobQuery['status']>(undefined);
  const [page, setPage] = useState(1);
  const queryClient = useQueryClient();
  const jobs = useJobs(status, page);
  const stats = useJobStats(5000);
  const act = (id: number, action: 'retry' | 'cancel') =>
    void jobAction(id, action).then(
      (result) => {
        toast.success(result.message ?? '');
        void queryClient.invalidateQueries({ queryKey: adminKeys.jobs });
        void queryClient.invalidateQueries({ queryKey: adminKeys.jobStats });
      },
      () => undefined,
    );
  return (
    <div>
      <JobCounts stats={stats.data} />
      <Select
        allowClear
        placeholder="全部状态"
        aria-label="任务状态"
        style={{ width: 160, marginBottom: 12 }}
        value={status}
        onChange={(value: JobQuery['status']) => {
          setStatus(value);
          setPage(1);
        }}
        options={Object.entries(JOB_STATUS_LABELS).map(([value, label]) => ({ value, label }))}
      />
      <TableScroll label="任务列表">
        <Table<JobEntry>
          rowKey="id"
          size="small"
          loading={jobs.isPending}
          dataSource={jobs.data?.records ?? []}
          pagination={{
            current: page,
            pageSize: 20,
            total: jobs.data?.total ?? 0,
            showSizeChanger: false,
            onChange: setPage,
          }}
          columns={jobColumns(act)}
        />
      </TableScroll>
    </div>
  );
}
