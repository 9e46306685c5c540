import type { ReactNode } from 'react';
import { Empty, Pagination, Spin } from 'antd';
import type { UseQueryResult } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { MSG } from '@guji/shared';
import type { Paged } from '@guji/shared';

/** The channel's page number, kept in the address as ?page= (reload and back keep it). */
export function usePageParam(): [number, (page: number) => void] {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.floor(Number(params.get('page'))) || 1);
  const setPage = (next: number) =>
    setParams((current) => {
      if (next <= 1) current.delete('page');
      else current.set('page', String(next));
      return current;
    });
  return [page, setPage];
}

/**
 * A personal list (spec §2, §9): 10 a page with the page count and total, an empty state, and the
 * pager; the rows are the channel's.
 */
export function PersonalList<T>({
  query,
  label,
  empty,
  onPage,
  row,
  rowKey,
  actions,
}: {
  query: UseQueryResult<Paged<T>>;
  /** Accessible name of the list, e.g. 我的收藏. */
  label: string;
  empty: string;
  onPage: (page: number) => void;
  row: (item: T) => ReactNode;
  rowKey: (item: T) => string | number;
  /** Above the list, e.g. "clear all". */
  actions?: ReactNode;
}) {
  if (query.isPending) return <Spin />;
  if (query.isError) return <Empty description={query.error.message || MSG.serverException} />;
  const data = query.data;
  return (
    <div className="personal-list">
      <div className="personal-list-head">
        <span className="personal-total">
          共 {data.total} 条{data.pages > 1 ? `，第 ${data.pageNum}/${data.pages} 页` : ''}
        </span>
        {data.total > 0 && actions}
      </div>
      {data.records.length === 0 ? (
        <Empty description={empty} />
      ) : (
        <ul aria-label={label} className="personal-rows">
          {data.records.map((item) => (
            <li key={rowKey(item)} className="personal-row">
              {row(item)}
            </li>
          ))}
        </ul>
      )}
      {data.total > data.pageSize && (
        <Pagination
          className="personal-pager"
          current={data.pageNum}
          pageSize={data.pageSize}
          total={data.total}
          showSizeChanger={false}
          onChange={onPage}
        />
      )}
    </div>
  );
}

/** A date-time as readers expect it: 2026-06-01 16:00. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
